import SeededRandom

/// The generated libraries, file by file: where each file goes, its truth (which the
/// generator writes into its tags, or for the sound library only into its sound), and how
/// its audio is made. Fixed forever (their own seeds, not the run's), so a library made once
/// in the work folder serves every run, and every machine makes the same one.
package enum LibraryPlan {
    /// One file to make.
    package struct File: Sendable, Equatable {
        /// The path below the library's folder.
        package var path: String
        /// What it is.
        package var truth: SongTruth
        /// The `aevalsrc` expression of its audio (mono, see ``sampleRate``).
        package var audio: String
        /// Seconds of audio.
        package var seconds: Int
        /// Whether to write the truth's tags (the sound library writes only title, artist, album).
        package var tagsGenreAndDate: Bool
    }

    /// Sample rate of every file.
    package static let sampleRate = 22050

    /// The tagged library of the issue: 480 songs, 60 artists in 6 genres, each artist of
    /// one genre and one decade from the 1960s to the 2020s, 2 albums of 4 songs each; every
    /// genre has a tone of its own (3 s), so a station that hears finds the genres in the
    /// sound too, as it would in real music.
    package static let genres = ["Rock", "Jazz", "Folk", "Electronic", "Classical", "Hip-Hop"]

    /// The 480 files of the tagged library.
    package static func generated() -> [File] {
        var files: [File] = []
        let tones = [220.0, 277.2, 329.6, 392.0, 440.0, 523.3]
        for artist in 0..<60 {
            let name = String(format: "Artist %02d", artist + 1)
            let genre = artist % genres.count
            let decade = 1960 + 10 * (artist % 7)
            for album in 0..<2 {
                let year = decade + (artist + 3 * album) % 10
                let albumName = "\(name) \(album == 0 ? "First" : "Second") (\(year))"
                for track in 0..<4 {
                    let number = files.count + 1
                    let title = String(format: "Song %03d", number)
                    let tone = tones[genre]
                    files.append(File(
                        path: "\(name)/\(albumName)/\(track + 1) \(title).mp3",
                        truth: SongTruth(title: title, artist: name, album: albumName, genre: genres[genre], year: year),
                        audio: "0.3*sin(2*PI*\(tone)*t)+0.1*sin(2*PI*\(tone * 2)*t)", seconds: 3, tagsGenreAndDate: true))
                }
            }
        }
        return files
    }

    /// The library whose tags say nothing: 200 tracks of 20 s by one artist on one album,
    /// titled by number; half calm (soft low sines, slowly swelling: quiet, dark, one onset),
    /// half bright (noise, a high tone with its 3rd and 5th harmonics, clicks 5–12 times a
    /// second: loud, bright, many onsets), in an order drawn once so the numbers say nothing.
    package static func sound() -> [File] {
        var random = SplitMix64(seed: 0x50_04D)
        let calm = Set(Array(0..<200).shuffled(using: &random).prefix(100))
        return (0..<200).map { index in
            let title = String(format: "Track %03d", index + 1)
            let kind: SoundClass = calm.contains(index) ? .calm : .bright
            let audio: String
            switch kind {
            case .calm:
                let tone = 100 + random.index(below: 140), swell = 0.1 + Double(random.index(below: 30)) / 100
                audio = "0.12*sin(2*PI*\(tone)*t)*(0.6+0.4*sin(2*PI*\(swell)*t))+0.05*sin(2*PI*\(Double(tone) * 1.5)*t)"
            case .bright:
                let tone = 1200 + random.index(below: 800), clicks = 5 + random.index(below: 8)
                audio = "0.2*sin(2*PI*\(tone)*t)+0.15*sin(2*PI*\(tone * 3)*t)+0.1*sin(2*PI*\(tone * 5)*t)"
                    + "+0.25*(2*random(0)-1)+0.6*lt(mod(t*\(clicks),1),0.01)*(2*random(1)-1)"
            }
            return File(path: "\(title).mp3",
                        truth: SongTruth(title: title, artist: "Sound Bench", album: "Sounds", sound: kind),
                        audio: audio, seconds: 20, tagsGenreAndDate: false)
        }
    }
}

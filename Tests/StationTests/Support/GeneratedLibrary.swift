import Foundation
@testable import Station
import TestSupport

/// A library of 300 tagged files in six formats, written by ffmpeg: 20 artists × 3 albums ×
/// 5 tracks, five genres, five decades, embedded covers on the mp3, flac and m4a albums, a
/// folder `cover.png` on one ogg album, and one untagged album named only by its path.
///
/// Generated once per test process, off the cooperative pool: one short tone per format is
/// encoded, then each album is written by one ffmpeg run that copies that tone into five
/// files with their own tags (`-c copy -metadata …`), so 300 files take about 70 ffmpeg runs.
enum GeneratedLibrary {
    /// One generated file and what a scan must read from it.
    struct File: Sendable {
        var path: String
        var title: String
        var artist: String
        var album: String
        var genre: String
        var year: Int
        /// The cover image bytes that file carries (embedded or from its folder), if any.
        var cover: Data?
    }

    static let artistCount = 20
    static let albumsPerArtist = 3
    static let tracksPerAlbum = 5
    static let genres = ["Rock", "Jazz", "Folk", "Electronic", "Classical"]
    static let formats = ["mp3", "ogg", "flac", "m4a", "opus", "wav"]
    /// Formats whose albums get an embedded cover (ffmpeg writes attached pictures to these).
    static let coveredFormats: Set<String> = ["mp3", "flac", "m4a"]
    /// The album whose files carry no tags at all.
    static let untaggedAlbum = (artist: 19, album: 2)
    /// The ogg album with a `cover.png` beside its files.
    static let folderCoverAlbum = (artist: 0, album: 1)

    static func artistName(_ artist: Int) -> String { String(format: "Artist %02d", artist) }

    /// Every file of the library, in path order.
    static let files: [File] = {
        var files: [File] = []
        for artist in 0..<artistCount {
            for album in 0..<albumsPerArtist {
                let format = formatOf(artist: artist, album: album)
                let albumName = String(format: "Album %02d-%d", artist, album)
                let untagged = (artist, album) == untaggedAlbum
                for track in 1...tracksPerAlbum {
                    let title = String(format: "Song %02d-%d-%d", artist, album, track)
                    let path = "\(artistName(artist))/\(albumName)/\(String(format: "%02d", track)) \(title).\(format)"
                    var cover: Data?
                    if coveredFormats.contains(format) || (artist, album) == folderCoverAlbum {
                        cover = coverImage(artist: artist, album: album)
                    }
                    files.append(File(path: path, title: title, artist: artistName(artist), album: albumName,
                                      genre: untagged ? "" : genres[artist % genres.count],
                                      year: untagged ? 0 : yearOf(artist: artist, album: album, track: track),
                                      cover: untagged ? nil : cover))
                }
            }
        }
        return files.sorted { $0.path < $1.path }
    }()

    static func formatOf(artist: Int, album: Int) -> String {
        formats[(artist * albumsPerArtist + album) % formats.count]
    }

    /// Years spread over the 1970s to the 2010s, one decade per album.
    static func yearOf(artist: Int, album: Int, track: Int) -> Int {
        1970 + ((artist * albumsPerArtist + album) % 5) * 10 + track
    }

    /// A small PNG, different for every album.
    static func coverImage(artist: Int, album: Int) -> Data {
        let shade = UInt8(20 + (artist * albumsPerArtist + album) * 3)
        let pixels = (0..<(16 * 16)).map { index in index % 17 == 0 ? 255 - shade : shade }
        return PNGEncoder.grayscale(width: 16, height: 16, pixels: pixels)
    }

    /// The library, generated on first use (removed at exit with the shared data directory).
    static var root: URL {
        get async throws { try await task.value }
    }

    private static let task = Task {
        try await offPool {
            let root = StationFixtures.sharedDataDirectory.appendingPathComponent("generated-library", isDirectory: true)
            try generate(in: root)
            return root
        }
    }

    /// A station data directory whose database has already scanned the library (and whose
    /// cover store is filled), made once per test process: stations over the generated
    /// library start from a copy of it and read no file again, which keeps 300 TagLib reads
    /// per station off a busy 2-core machine. Tests about the first scan itself use an empty
    /// data directory instead.
    static var scannedDataTemplate: URL {
        get async throws { try await templateTask.value }
    }

    private static let templateTask = Task {
        let library = try await root
        let data = StationFixtures.sharedDataDirectory.appendingPathComponent("generated-template", isDirectory: true)
        // A station's database closes when the station is released, leaving a complete file.
        do {
            let station = try await Station(configuration: StationConfiguration(
                library: library, dataDirectory: data, rescanInterval: nil))
            guard station.lastScan.tracks == files.count else { throw TestSupportError.toolFailed("template scan") }
        }
        // SQLite removes the -wal and -shm files when the last connection closes, after
        // checkpointing the WAL into the database; the release above may let that happen
        // on another thread a moment later. Copies are taken of the closed file only.
        try await waitUntil("the template database to close", within: .seconds(60)) {
            !["station.sqlite-wal", "station.sqlite-shm"].contains(where: {
                FileManager.default.fileExists(atPath: data.appendingPathComponent($0).path)
            })
        }
        return data
    }

    /// A fresh data directory holding a copy of ``scannedDataTemplate``.
    static func scannedDataDirectory() async throws -> TemporaryDirectory {
        let template = try await scannedDataTemplate
        let data = try await StationFixtures.freshDataDirectory()
        for name in try FileManager.default.contentsOfDirectory(atPath: template.path) {
            try FileManager.default.copyItem(at: template.appendingPathComponent(name), to: data.path(name))
        }
        return data
    }

    /// Writes the library into `root`.
    static func generate(in root: URL) throws {
        let work = root.deletingLastPathComponent().appendingPathComponent("generated-work", isDirectory: true)
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        var tones: [String: URL] = [:]
        for format in formats {
            let url = work.appendingPathComponent("tone.\(format)")
            try encodeTone(to: url)
            tones[format] = url
        }
        let toneFiles = tones
        let albums = Dictionary(grouping: files) { ($0.path as NSString).deletingLastPathComponent }
        // Two ffmpeg processes at a time: the machine has two cores.
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 2
        let failures = Locked<[String]>([])
        for (folder, tracks) in albums.sorted(by: { $0.key < $1.key }) {
            queue.addOperation {
                do {
                    try writeAlbum(folder: root.appendingPathComponent(folder), tracks: tracks, tones: toneFiles, work: work)
                } catch {
                    failures.withLock { $0.append("\(folder): \(error)") }
                }
            }
        }
        queue.waitUntilAllOperationsAreFinished()
        if let failure = failures.withLock({ $0.first }) { throw TestSupportError.toolFailed(failure) }
    }

    /// One second of tone, mono, at a low rate and bitrate: the files stay a few kilobytes.
    private static func encodeTone(to url: URL) throws {
        var args = ["-nostdin", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
                    "sine=frequency=440:duration=1", "-ac", "1"]
        switch url.pathExtension {
        case "mp3": args += ["-ar", "22050", "-c:a", "libmp3lame", "-b:a", "32k"]
        case "ogg": args += ["-ar", "22050", "-c:a", "libvorbis", "-q:a", "0"]
        case "opus": args += ["-ar", "48000", "-c:a", "libopus", "-b:a", "16k"]
        case "m4a": args += ["-ar", "22050", "-c:a", "aac", "-b:a", "32k"]
        case "flac": args += ["-ar", "8000", "-c:a", "flac"]
        default: args += ["-ar", "8000", "-c:a", "pcm_s16le"]
        }
        try MediaFactory.run("ffmpeg", args + [url.path])
    }

    /// One ffmpeg run: the format's tone copied into every track of the album, each output
    /// with its own tags (and the album's cover as an attached picture where supported).
    private static func writeAlbum(folder: URL, tracks: [File], tones: [String: URL], work: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let format = (tracks[0].path as NSString).pathExtension
        var args = ["-nostdin", "-hide_banner", "-loglevel", "error", "-y", "-i", tones[format]!.path]
        let embeds = coveredFormats.contains(format) && tracks[0].cover != nil
        if embeds {
            let cover = work.appendingPathComponent("cover-\(folder.lastPathComponent).png")
            try tracks[0].cover!.write(to: cover)
            args += ["-i", cover.path]
        } else if let image = tracks[0].cover {
            try image.write(to: folder.appendingPathComponent("cover.png"))
        }
        for track in tracks {
            args += ["-map", "0:a"]
            if embeds { args += ["-map", "1:v", "-disposition:v:0", "attached_pic"] }
            args += ["-c", "copy", "-map_metadata", "-1"]
            if format == "mp3" { args += ["-id3v2_version", "3"] }
            if !track.genre.isEmpty {
                for (key, value) in [("title", track.title), ("artist", track.artist), ("album", track.album),
                                     ("genre", track.genre), ("date", String(track.year))] {
                    args += ["-metadata", "\(key)=\(value)"]
                }
            }
            args.append(folder.appendingPathComponent((track.path as NSString).lastPathComponent).path)
        }
        try MediaFactory.run("ffmpeg", args)
    }
}

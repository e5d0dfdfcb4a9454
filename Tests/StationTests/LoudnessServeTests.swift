import Foundation
import MusicLibrary
import RadioAPI
import SoundFeatures
@testable import Station
import Testing
import TestSupport
import Transcoder

/// A station levels what it serves: over songs mastered 25 dB apart, the MP3s its playlist
/// answers link are heard within 1.5 LU of each other by FFmpeg's `ebur128` filter, an
/// original is the file byte for byte with the gain a player must apply, a station that
/// does not level serves what it always served, and a transcode's name that no longer
/// carries the song's gain is redirected to the one that does.
@Suite("Levelled songs served")
struct LoudnessServeTests {
    /// One song of the library: its file name and how it is made.
    struct Made: Sendable {
        var name: String
        /// The tone's level against MediaFactory's sine (−21.8 LUFS: amplitude 1/8, upmixed to stereo at −3 dB).
        var gainDB: Double
        /// A quiet tone with short loud bursts: its true peak, not its loudness, bounds its gain.
        var peaky = false
    }

    /// Tones at one frequency 25 dB apart (FLAC, and two 128 kbit/s MP3s: one far from the
    /// level, which is transcoded though small enough to be passed through unlevelled, one
    /// at about −18 LUFS, which is), and one whose gain the −1 dBTP ceiling caps.
    static let songs: [Made] = [
        Made(name: "01 Loud.flac", gainDB: 12), Made(name: "02 Louder.flac", gainDB: 7),
        Made(name: "03 Middle.flac", gainDB: 2), Made(name: "04 Soft.flac", gainDB: -3),
        Made(name: "05 Softer.flac", gainDB: -8), Made(name: "06 Quiet.mp3", gainDB: -13),
        Made(name: "07 Level.mp3", gainDB: 4), Made(name: "08 Peaky.flac", gainDB: 0, peaky: true),
    ]

    /// The library, made once per test process.
    static var library: URL {
        get async throws { try await libraryTask.value }
    }

    private static let libraryTask = Task {
        try await offPool { () throws -> URL in
            let root = StationFixtures.sharedDataDirectory.appendingPathComponent("loudness-library", isDirectory: true)
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            for song in songs {
                let file = root.appendingPathComponent(song.name)
                let title = String(song.name.dropFirst(3).split(separator: ".")[0])
                if song.peaky {
                    // −38 dBFS of sine, and every 2 s a 10 ms windowed burst near −6 dBFS.
                    try MediaFactory.run("ffmpeg", [
                        "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i",
                        "aevalsrc=exprs=0.0126*sin(2*PI*440*t)+if(lt(mod(t\\,2)\\,0.01)\\,0.7*sin(2*PI*1000*t)*pow(sin(PI*mod(t\\,2)/0.01)\\,2)\\,0):d=10:s=44100",
                        "-ac", "2", "-metadata", "title=\(title)", "-metadata", "artist=Levels", "-c:a", "flac", file.path])
                } else {
                    try MediaFactory.tone(at: file, seconds: 10, frequency: 440, tags: ["title": title, "artist": "Levels"],
                                          gainDB: song.gainDB)
                }
            }
            return root
        }
    }

    /// Every song of the library as channel 0's answers link it with `query` added, asked
    /// until each has come (a list holds five of the eight).
    private static func everySong(_ base: URL, _ query: String) async throws -> (songs: [Song], objects: [[String: Any]]) {
        var songs: [String: Song] = [:]
        var objects: [[String: Any]] = []
        for _ in 0..<40 where songs.count < Self.songs.count {
            let answer = try await HTTPFetch.get(base, "/j/app/radio/people?app_name=radio_android&version=100&channel=0&type=n" + query)
            #expect(answer.status == 200)
            objects += try #require(try answer.jsonObject()["song"] as? [[String: Any]])
            for song in try APIDecoder.playlist(answer.body, for: .new).songs { songs[song.sid] = song }
        }
        #expect(songs.count == Self.songs.count)
        return (songs.values.sorted { $0.sid < $1.sid }, objects)
    }

    /// The track a song answer names, from the station's library.
    private static func track(_ song: Song, _ station: Station) throws -> LibraryTrack {
        try #require(station.servedLibrary.track(sid: song.sid))
    }

    /// What FFmpeg's `ebur128` hears in `bytes`.
    private static func measure(_ bytes: Data, in folder: TemporaryDirectory, name: String) throws -> LoudnessProbe.Measurement {
        let file = folder.path(name)
        try bytes.write(to: file)
        return try LoudnessProbe.measure(file)
    }

    /// The gain the rule gives a file of the loudness FFmpeg hears in it.
    private static func expectedGain(_ original: LoudnessProbe.Measurement) -> Double {
        min(Leveling.defaultTarget - original.integrated, Leveling.ceiling - original.truePeak)
    }

    @Test("transcodes within 1.5 LU of each other at -18, none past -0.5 dBTP; originals bit for bit with their gain")
    func levelled() async throws {
        let music = try await Self.library
        try await StationFixtures.withDemoStation(library: music, adjust: { $0.analysesSound = true }) { station, base in
            await station.soundAnalysisIdle()
            #expect(station.servedSound.loudness.measuredCount == Self.songs.count)
            let folder = try TemporaryDirectory(prefix: "mhz-levelled-served")

            let originals = try await Self.everySong(base, "&format=original").songs
            var expected: [String: Double] = [:]
            for song in originals {
                let track = try Self.track(song, station)
                #expect(song.url == "\(base.absoluteString)/media/\(track.mediaFileName)")
                let served = try await HTTPFetch.get(try #require(URL(string: song.url)))
                #expect(served.status == 200)
                #expect(served.body == (try Data(contentsOf: track.file)), "\(track.relativePath)")
                let heard = try LoudnessProbe.measure(track.file)
                let gain = try #require(song.gain, "\(track.relativePath)")
                expected[song.sid] = gain
                #expect(abs(gain - Self.expectedGain(heard)) <= 0.35, "\(track.relativePath): \(gain) for \(heard)")
            }

            var levels: [String: Double] = [:]
            for song in try await Self.everySong(base, "&kbps=128").songs {
                let track = try Self.track(song, station)
                let gain = try #require(expected[song.sid])
                let served = try await HTTPFetch.get(try #require(URL(string: song.url)))
                #expect(served.status == 200)
                #expect(served.headers["content-length"] == String(served.body.count))
                if track.relativePath == "07 Level.mp3" {
                    // Within half a dB of the level: the small MP3 is passed through, and the
                    // player is told the little gain left.
                    #expect(abs(gain) < 0.5)
                    #expect(song.url == "\(base.absoluteString)/media/\(track.mediaFileName)")
                    #expect(song.gain == gain)
                    #expect(served.body == (try Data(contentsOf: track.file)))
                    continue
                }
                let name = ServedFormat.mp3(kbps: 128, gainTenths: try #require(ServedFormat.tenths(of: gain)))
                    .mediaFileName(of: track)
                #expect(song.url == "\(base.absoluteString)/media/\(name)", "\(track.relativePath)")
                #expect(name.contains("-g"), "\(name)")
                #expect(song.gain == 0, "\(track.relativePath)")
                #expect(song.kbps == 128)
                let heard = try Self.measure(served.body, in: folder, name: name)
                #expect(heard.truePeak <= -0.5, "\(track.relativePath): \(heard)")
                if track.relativePath == "08 Peaky.flac" {
                    // Capped: as loud as −1 dBTP lets it be, well short of the target.
                    let original = try LoudnessProbe.measure(track.file)
                    #expect(abs(gain - (Leveling.ceiling - original.truePeak)) <= 0.35, "\(gain) for \(original)")
                    #expect(heard.integrated < -24, "\(heard)")
                } else {
                    levels[track.relativePath] = heard.integrated
                }
            }
            // mhz's embedded station: the files themselves, each with its gain, whatever the kbps.
            let inProcess = await station.respond(method: "GET", path: "/j/app/radio/people",
                                                  query: "app_name=radio_android&version=100&channel=0&type=n&kbps=128")
            let files = try APIDecoder.playlist(inProcess.body, for: .new).songs
            #expect(files.count == 5)
            for song in files {
                #expect(URL(string: song.url)?.isFileURL == true)
                #expect(song.gain != nil && song.gain == expected[song.sid], "\(song.url)")
            }
            // The web player's list (kbps=128): the levelled transcode, nothing left to apply;
            // asked for the original, the file and its gain.
            for (query, original) in [("kbps=128", false), ("format=original", true)] {
                let web = try await HTTPFetch.get(base, "/j/v2/playlist?channel=0&type=n&" + query)
                let object = try #require((try web.jsonObject()["song"] as? [[String: Any]])?.first)
                let sid = try #require(object["sid"] as? String)
                let url = try #require(object["url"] as? String)
                let passed = original || url.hasSuffix("/\(sid).mp3")
                #expect((object["gain"] as? NSNumber)?.doubleValue == (passed ? expected[sid] : 0), "\(url)")
            }
            #expect(levels.count == 6, "\(levels)")
            let spread = (levels.values.max() ?? 0) - (levels.values.min() ?? 0)
            #expect(spread <= 1.5, "\(levels)")
            #expect(levels.values.allSatisfy { abs($0 - Leveling.defaultTarget) <= 1 }, "\(levels)")
        }
    }

    @Test("a station that does not level names and makes its transcodes as without levelling, and says no gain")
    func off() async throws {
        let music = try await Self.library
        try await StationFixtures.withDemoStation(library: music, adjust: {
            $0.analysesSound = true
            $0.leveling = .off
        }) { station, base in
            await station.soundAnalysisIdle()
            #expect(station.servedSound.loudness.measuredCount == Self.songs.count)
            let folder = try TemporaryDirectory(prefix: "mhz-unlevelled-served")
            for query in ["&kbps=128", "&format=original"] {
                let (songs, objects) = try await Self.everySong(base, query)
                #expect(objects.allSatisfy { $0["gain"] == nil }, "\(query)")
                #expect(songs.allSatisfy { $0.gain == nil })
            }
            var levels: [Double] = []
            for song in try await Self.everySong(base, "&kbps=128").songs {
                let track = try Self.track(song, station)
                let served = try await HTTPFetch.get(try #require(URL(string: song.url)))
                if track.fileExtension == "mp3" {
                    #expect(song.url == "\(base.absoluteString)/media/\(track.mediaFileName)")
                    continue
                }
                #expect(song.url == "\(base.absoluteString)/media/\(song.sid)-128k.mp3")
                let plain = try await offPool {
                    let transcoder = try AudioTranscoder(input: track.file, kbps: 128)
                    var bytes: [UInt8] = []
                    while let chunk = try transcoder.nextChunk() { bytes += chunk }
                    return Data(bytes)
                }
                #expect(served.body == plain, "\(track.relativePath)")
                if !track.relativePath.contains("Peaky") {
                    levels.append(try Self.measure(served.body, in: folder, name: "\(song.sid).mp3").integrated)
                }
            }
            // As mastered: the loudest and the quietest FLAC tones 20 dB apart.
            #expect((levels.max() ?? 0) - (levels.min() ?? 0) > 19, "\(levels)")
        }
    }

    @Test("a name whose gain is not the song's now is redirected to the one that is; none is made at a gain a request names")
    func renamed() async throws {
        let music = try await Self.library
        let gate = AnalysisGate()
        try await StationFixtures.withDemoStation(library: music, adjust: {
            $0.analysesSound = true
            $0.soundAnalysisGate = gate
        }) { station, base in
            // Before the analysis: unlevelled names, no gain, and the transcode is made.
            await gate.arrival()
            let before = try await Self.everySong(base, "&kbps=128").songs
            let loud = try #require(before.first { (try? Self.track($0, station).relativePath) == "01 Loud.flac" })
            let track = try Self.track(loud, station)
            #expect(loud.url == "\(base.absoluteString)/media/\(loud.sid)-128k.mp3")
            #expect(loud.gain == nil)
            let unlevelled = try await HTTPFetch.get(try #require(URL(string: loud.url)))
            #expect(unlevelled.status == 200)

            gate.open()
            await station.soundAnalysisIdle()
            let after = try #require(try await Self.everySong(base, "&kbps=128").songs.first { $0.sid == loud.sid })
            let current = try #require(URL(string: after.url)?.lastPathComponent)
            #expect(current.hasPrefix("\(loud.sid)-128k-gm"), "\(current)")

            // The URL a client kept, a made-up gain, one spelled otherwise: each sent to the current name.
            let transcoded = station.configuration.transcodeDirectory
            for stale in ["\(loud.sid)-128k.mp3", "\(loud.sid)-128k-gp300.mp3", "\(loud.sid)-128k-gm5.mp3",
                          "\(loud.sid)-128k-gm0\(current.dropFirst("\(loud.sid)-128k-gm".count))"] {
                for method in ["GET", "HEAD"] {
                    let answer = try await HTTPFetch.get(try #require(URL(string: "\(base.absoluteString)/media/\(stale)")),
                                                         method: method)
                    #expect(answer.status == 302, "\(method) \(stale)")
                    #expect(answer.headers["location"] == "/media/\(current)", "\(method) \(stale)")
                    #expect(answer.body.isEmpty)
                }
            }
            // A name of no transcode shape is no song at all.
            for wrong in ["\(loud.sid)-128k-gx5.mp3", "\(loud.sid)-128k-gm.mp3", "\(loud.sid)-128k-gm12345.mp3",
                          "\(loud.sid)-128k-g-5.mp3"] {
                #expect(try await HTTPFetch.get(base, "/media/\(wrong)").status == 404, "\(wrong)")
            }
            // Followed, the redirect is the song at its level.
            let levelled = try await HTTPFetch.get(base, "/media/\(current)")
            #expect(levelled.status == 200)
            #expect(levelled.headers["content-length"] == String(levelled.body.count))
            let folder = try TemporaryDirectory(prefix: "mhz-renamed-served")
            let heard = try Self.measure(levelled.body, in: folder, name: current)
            #expect(abs(heard.integrated - Leveling.defaultTarget) <= 1, "\(heard)")
            #expect(track.relativePath == "01 Loud.flac")

            // Only the names the station gave were made (each renamed into place once whole).
            for name in [current, "\(loud.sid)-128k.mp3"] {
                try await waitUntil("\(name) in the cache") {
                    FileManager.default.fileExists(atPath: transcoded.appendingPathComponent(name).path)
                }
            }
            let made = try FileManager.default.contentsOfDirectory(atPath: transcoded.path).filter { !$0.hasPrefix(".") }.sorted()
            #expect(made.filter { $0.hasPrefix("\(loud.sid)-") } == [current, "\(loud.sid)-128k.mp3"].sorted(), "\(made)")
        }
    }

    @Test("a transcode name spells its gain in tenths, m for a cut, p for a rise, and nothing for none")
    func names() throws {
        let track = LibraryTrack(sid: "42", ssid: "0000", aid: "1", relativePath: "a.flac", file: URL(fileURLWithPath: "/a.flac"),
                                 fileExtension: "flac", title: "A", artist: "", album: "", genre: "", year: 0,
                                 durationSeconds: 1, bitrate: 0)
        #expect(ServedFormat.mp3(kbps: 128, gainTenths: -63).mediaFileName(of: track) == "42-128k-gm63.mp3")
        #expect(ServedFormat.mp3(kbps: 64, gainTenths: 25).mediaFileName(of: track) == "42-64k-gp25.mp3")
        #expect(ServedFormat.mp3(kbps: 192, gainTenths: 0).mediaFileName(of: track) == "42-192k.mp3")
        for (name, parsed) in [("42-128k-gm63.mp3", ("42", 128, -63)), ("42-64k-gp25.mp3", ("42", 64, 25)),
                               ("42-192k.mp3", ("42", 192, 0))] {
            let read = try #require(ServedFormat.transcode(named: Substring(name)))
            #expect(read.sid == parsed.0 && read.kbps == parsed.1 && read.gainTenths == parsed.2)
        }
        for name in ["42-128k-gm.mp3", "42-128k-g63.mp3", "42-128k-gm-6.mp3", "42-100k.mp3", "42-+128k.mp3",
                     "42-128k-gm12345.mp3", "x-128k.mp3", "42-128k.ogg", "42.mp3"] {
            #expect(ServedFormat.transcode(named: Substring(name)) == nil, "\(name)")
        }
        #expect(ServedFormat.tenths(of: -6.3) == -63 && ServedFormat.tenths(of: 0.04) == 0)
        #expect(ServedFormat.tenths(of: .nan) == nil && ServedFormat.tenths(of: 61) == nil && ServedFormat.tenths(of: nil) == nil)
        // A small MP3 is passed through below half a dB of gain, and transcoded at its level above.
        let mp3 = LibraryTrack(sid: "7", ssid: "0000", aid: "1", relativePath: "b.mp3", file: URL(fileURLWithPath: "/b.mp3"),
                               fileExtension: "mp3", title: "B", artist: "", album: "", genre: "", year: 0,
                               durationSeconds: 1, bitrate: 128)
        let request = StationRequest(method: "GET", path: "/j/app/radio/people", rawQuery: "kbps=128")
        #expect(ServedFormat.asked(by: request, for: mp3, gain: nil) == .original)
        #expect(ServedFormat.asked(by: request, for: mp3, gain: -0.4) == .original)
        #expect(ServedFormat.asked(by: request, for: mp3, gain: 0.5) == .mp3(kbps: 128, gainTenths: 5))
        #expect(ServedFormat.asked(by: request, for: mp3, gain: -9.1) == .mp3(kbps: 128, gainTenths: -91))
        #expect(ServedFormat.original.songGain(levelledBy: -0.04) == 0)
        #expect(ServedFormat.original.songGain(levelledBy: -0.04).map { $0.sign } == .plus)
        #expect(ServedFormat.mp3(kbps: 128, gainTenths: -91).songGain(levelledBy: -9.1) == 0)
        #expect(ServedFormat.mp3(kbps: 128).songGain(levelledBy: nil) == nil)
    }
}

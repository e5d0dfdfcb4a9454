import Foundation
@testable import Station
import Testing
import TestSupport

/// A live channel levelled and crossfaded, heard the way a listener hears it: its segments
/// fetched over HTTP and joined, decoded by ffmpeg, each song's loudness measured by
/// ffmpeg's `ebur128` and each tone's level told apart by a Goertzel filter at its
/// frequency. Four 8 s tones of different frequencies, two mastered 25 dB below the
/// others; 1 s segments.
@Suite("Live crossfade", .serialized)
struct LiveCrossfadeTests {
    /// The genre of the songs: the library's one public channel.
    static let genre = "Crossfadetest"
    /// Each song: its tone (Hz, a whole number of cycles in a 0.1 s window) and the gain it
    /// is mastered at.
    static let tones: [(frequency: Int, gain: Double)] = [(440, 0), (1000, -25), (620, 0), (1500, -25)]
    /// Each song's length (s).
    static let seconds = 8.0
    /// The broadcast's rate.
    static let rate = 44100
    /// A Goertzel window: 0.1 s.
    static let window = 4410
    /// A tone this loud in a window is heard (dBFS): 22 dB under the levelled songs.
    static let heard = -40.0

    /// The four songs, made with ffmpeg once per test process.
    private static let libraryTask = Task {
        try await offPool { () throws -> URL in
            let root = StationFixtures.sharedDataDirectory.appendingPathComponent("crossfade-library", isDirectory: true)
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            for (index, tone) in tones.enumerated() {
                try MediaFactory.tone(at: root.appendingPathComponent("0\(index + 1) Tone \(tone.frequency).flac"),
                                      seconds: seconds, frequency: tone.frequency,
                                      tags: ["title": "Tone \(tone.frequency)", "artist": "Band", "genre": genre],
                                      gainDB: tone.gain)
            }
            return root
        }
    }

    /// What a run of the channel aired, recorded.
    struct Recording {
        /// The songs aired, oldest first: sid, title's tone (Hz; 0 for another title), start
        /// (ms since the epoch).
        var aired: [(sid: String, frequency: Int, start: Int64)]
        /// The segments, oldest first: start (ms) and title.
        var segments: [(start: Int64, title: String)]
        /// The decoded audio, stereo interleaved, its first sample at the first segment's start.
        var pcm: [Float]
        /// Where the decoded audio was written (32-bit float, stereo, 44.1 kHz).
        var file: URL
        /// The first segment's start (ms since the epoch).
        var origin: Int64

        /// Seconds into the recording of a moment in ms since the epoch.
        func seconds(_ moment: Int64) -> Double { Double(moment - origin) / 1000 }
    }

    /// Starts a station over the tones with `crossfade`, waits (when `levelled`) for the
    /// analysis to have measured every song, and records the channel until `songs` songs
    /// aired and the last of them is 3.5 s on the air.
    private func record(crossfade: Duration, levelled: Bool, songs: Int, in folder: TemporaryDirectory) async throws -> Recording {
        let data = try TemporaryDirectory(prefix: "mhz-crossfade")
        defer { data.remove() }
        var configuration = StationConfiguration(library: try await Self.libraryTask.value, fallsBackToDemo: false,
                                                 dataDirectory: data.url, seed: 5, rescanInterval: nil)
        configuration.analysesSound = levelled
        configuration.live.segmentDuration = .seconds(1)
        configuration.live.crossfade = crossfade
        let station = try await Station(configuration: configuration)
        let base = try await station.start()
        return try await withCleanup {
            if levelled {
                await station.soundAnalysisIdle()
                #expect(station.servedSound.loudness.measuredCount == Self.tones.count)
            }
            let channel = try await Self.channel(base)
            let broadcast = try #require(station.liveHub.broadcast(channel))
            // Polled like a player, which keeps the channel on the air.
            _ = try await LiveFixtures.waitFor(base, channel, "\(songs) songs aired, the last 3.5 s on the air") { list in
                let snapshot = broadcast.snapshot
                guard snapshot.aired.count >= songs, let last = snapshot.segments.last else { return false }
                return last.end >= snapshot.aired[songs - 1].start + 3500 && !list.entries.isEmpty
            }
            return try await Self.capture(broadcast, base: base, channel: channel, in: folder)
        } cleanup: {
            await station.stop()
        }
    }

    /// What `broadcast` published so far: its segments of 128 kbit/s fetched over HTTP,
    /// joined and decoded, and the songs it aired.
    private static func capture(_ broadcast: LiveBroadcast, base: URL, channel: String,
                                in folder: TemporaryDirectory) async throws -> Recording {
        let snapshot = broadcast.snapshot
        var joined = Data()
        for segment in snapshot.segments {
            let answer = try await HTTPFetch.get(base, "/live/\(channel)/128/\(segment.sequence).ts")
            #expect(answer.status == 200)
            joined.append(answer.body)
        }
        let ts = folder.path("recording.ts")
        try joined.write(to: ts)
        let raw = folder.path("recording.f32")
        try await offPool {
            try MediaFactory.run("ffmpeg", ["-nostdin", "-hide_banner", "-loglevel", "error", "-y", "-i", ts.path,
                                            "-f", "f32le", "-ac", "2", "-ar", "\(rate)", raw.path])
        }
        let bytes = try Data(contentsOf: raw)
        let pcm = bytes.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        let aired = snapshot.aired.map { song in
            (sid: song.sid, frequency: Int(song.title.dropFirst("Tone ".count)) ?? 0, start: song.start)
        }
        return Recording(aired: aired, segments: snapshot.segments.map { ($0.start, $0.title) }, pcm: pcm, file: raw,
                         origin: try #require(snapshot.segments.first?.start))
    }

    /// Where the fade between `out` and `into` (Hz) around `change` (s into the recording)
    /// is at its middle, heard: where each tone is as far under its own level as the other
    /// (each one's level alone taken 2.95 s from the change), linearly between windows.
    static func middle(_ pcm: [Float], from out: Int, to into: Int, around change: Double) throws -> Double {
        let before = levels(pcm, frequency: out, around: change, seconds: 6)
        let after = levels(pcm, frequency: into, around: change, seconds: 6)
        let outLevel = before.first?.level ?? 0
        let inLevel = after.last?.level ?? 0
        let difference = zip(before, after).map { (time: $0.time, value: ($0.level - outLevel) - ($1.level - inLevel)) }
        let (a, b) = try #require(zip(difference, difference.dropFirst()).first { $0.value > 0 && $1.value <= 0 })
        return a.time + (b.time - a.time) * a.value / (a.value - b.value)
    }

    /// The 0.1 s windows within 3 s of `change` where both `out` and `into` are heard.
    static func together(_ pcm: [Float], _ out: Int, _ into: Int, around change: Double) -> Int {
        zip(levels(pcm, frequency: out, around: change, seconds: 6), levels(pcm, frequency: into, around: change, seconds: 6))
            .filter { $0.level > heard && $1.level > heard }.count
    }

    /// The id of the channel of ``genre``.
    private static func channel(_ base: URL) async throws -> String {
        let answer = try await HTTPFetch.get(base, "/j/app/radio/channels")
        let channels = try answer.jsonObject()["channels"] as? [[String: Any]] ?? []
        let match = try #require(channels.first { $0["name"] as? String == genre })
        return String(try #require(match["channel_id"] as? Int))
    }

    /// The level (dBFS, as a sine's amplitude) of `frequency` in the 0.1 s window starting at
    /// stereo frame `start` of `pcm` (the channels' mean): a Goertzel filter over a Hann window.
    static func level(_ pcm: [Float], at start: Int, frequency: Int) -> Double {
        let coefficient = 2 * cos(2 * Double.pi * Double(frequency) / Double(rate))
        var s1 = 0.0, s2 = 0.0, weights = 0.0
        for n in 0..<window {
            let index = 2 * (start + n)
            guard index + 1 < pcm.count else { break }
            let hann = 0.5 - 0.5 * cos(2 * Double.pi * Double(n) / Double(window))
            let x = Double(pcm[index] + pcm[index + 1]) / 2 * hann
            let s = x + coefficient * s1 - s2
            s2 = s1
            s1 = s
            weights += hann
        }
        let power = max(0, s1 * s1 + s2 * s2 - coefficient * s1 * s2)
        return 20 * log10(max(2 * power.squareRoot() / max(weights, 1), 1e-10))
    }

    /// Each 0.1 s window's level of `frequency` over `seconds` around `moment` (s into the
    /// recording): (window's middle in s, dBFS).
    static func levels(_ pcm: [Float], frequency: Int, around moment: Double, seconds: Double) -> [(time: Double, level: Double)] {
        let first = max(0, Int(((moment - seconds / 2) * Double(rate)).rounded()))
        let count = Int(seconds * 10)
        return (0..<count).map { index in
            let start = first + index * window
            return (Double(start + window / 2) / Double(rate), level(pcm, at: start, frequency: frequency))
        }
    }

    /// The loudness (LUFS) of `seconds` of the recording from `start` (s), by ffmpeg's ebur128.
    static func loudness(of recording: Recording, from start: Double, seconds: Double, in folder: TemporaryDirectory) throws -> Double {
        let span = folder.path("span-\(Int(start * 1000)).wav")
        try MediaFactory.run("ffmpeg", ["-nostdin", "-hide_banner", "-loglevel", "error", "-y", "-f", "f32le", "-ar", "\(rate)",
                                        "-ac", "2", "-i", recording.file.path, "-ss", String(format: "%.3f", start),
                                        "-t", String(format: "%.3f", seconds), span.path])
        return try LoudnessProbe.measure(span).integrated
    }

    @Test("levelled and crossfaded: songs mastered 25 dB apart come out within 2 dB, each change has over 2 s of both tones, aired.json and the segment titles change at the fade's middle; nothing clips")
    func crossfaded() async throws {
        let folder = try TemporaryDirectory(prefix: "mhz-crossfade-rec")
        defer { folder.remove() }
        let recording = try await record(crossfade: .seconds(3), levelled: true, songs: 4, in: folder)
        let pcm = recording.pcm
        let aired = Array(recording.aired.prefix(4))
        #expect(Set(aired.map(\.sid)).count == 4, "\(aired)")

        // Per song, over what it plays alone (from its fade in's end to its fade out's
        // start, 1.5 s either side of the changes; the first from its start, the last for
        // 1.5 s): its loudness as ffmpeg measures it.
        var loudness: [Double] = []
        for index in aired.indices {
            let start = recording.seconds(aired[index].start) + (index == 0 ? 0 : 1.5)
            let end = index + 1 < aired.count ? recording.seconds(aired[index + 1].start) - 1.5 : start + 1.5
            loudness.append(try await offPool { try Self.loudness(of: recording, from: start, seconds: end - start, in: folder) })
        }
        print("crossfade: per-song loudness \(loudness.map { String(format: "%.2f", $0) }) LUFS")
        #expect((loudness.max() ?? 0) - (loudness.min() ?? 0) <= 2, "\(loudness)")
        #expect(loudness.allSatisfy { abs($0 - -18) <= 1.5 }, "\(loudness)")

        // Nothing past full scale in what a listener decodes.
        let overs = pcm.filter { abs($0) >= 1 }.count
        print("crossfade: \(overs) decoded samples at or past full scale")
        #expect(overs == 0)

        for index in 1..<aired.count {
            let out = aired[index - 1].frequency
            let into = aired[index].frequency
            let change = recording.seconds(aired[index].start)
            // Both tones heard together: the fade, 3 s, but for its edges under −40 dBFS.
            let both = Self.together(pcm, out, into, around: change)
            print("crossfade: change \(index) \(out) → \(into) Hz: both heard \(Double(both) / 10) s")
            #expect(both >= 20 && both <= 32, "change \(index): \(both) windows of 0.1 s with both tones")
            let middle = try Self.middle(pcm, from: out, to: into, around: change)
            let offset = (middle - change) * 1000
            print(String(format: "crossfade: change %d aired at %.3f s, fade's middle heard at %.3f s (%+.1f ms)", index, change, middle, offset))
            // Within a frame (23 ms) and the ms aired.json counts in.
            #expect(abs(offset) <= 25, "change \(index): aired \(change) s, middle \(middle) s")

            // The segment titled with the new song first is the first that starts at or
            // after the middle; the one holding the middle carries the song fading out.
            let title = "Band - Tone \(into)"
            let first = try #require(recording.segments.firstIndex { $0.title == title })
            #expect(recording.segments[first].start >= aired[index].start, "change \(index)")
            #expect(first > 0 && recording.segments[first - 1].start < aired[index].start, "change \(index)")
            #expect(first > 0 && recording.segments[first - 1].title == "Band - Tone \(out)", "change \(index)")
        }
    }

    @Test("crossfade 0 s: hard cuts where the songs end, each song aired for exactly its length, never two tones at once")
    func hardCuts() async throws {
        let folder = try TemporaryDirectory(prefix: "mhz-crossfade-cut")
        defer { folder.remove() }
        let recording = try await record(crossfade: .zero, levelled: true, songs: 3, in: folder)
        let aired = Array(recording.aired.prefix(3))
        for index in 1..<aired.count {
            // Back to back: a song starts at the sample after the last of the one before.
            #expect(abs(aired[index].start - aired[index - 1].start - Int64(Self.seconds * 1000)) <= 1, "\(aired)")
            let out = aired[index - 1].frequency
            let into = aired[index].frequency
            let change = recording.seconds(aired[index].start)
            let before = Self.levels(recording.pcm, frequency: out, around: change, seconds: 4)
            let after = Self.levels(recording.pcm, frequency: into, around: change, seconds: 4)
            // At most the window that holds the cut hears both.
            let both = zip(before, after).filter { $0.level > Self.heard && $1.level > Self.heard }.count
            #expect(both <= 1, "change \(index): \(both) windows with both tones")
            // The tone changes in the window holding the aired start.
            let last = try #require(before.lastIndex { $0.level > Self.heard })
            let firstIn = try #require(after.firstIndex { $0.level > Self.heard })
            #expect(abs(before[last].time - change) <= 0.1 && abs(after[firstIn].time - change) <= 0.1,
                    "change \(index) at \(change): \(out) last heard \(before[last].time), \(into) first \(after[firstIn].time)")
            // The segment holding the cut carries the song it ends; the next, the new one.
            let title = "Band - Tone \(into)"
            let first = try #require(recording.segments.firstIndex { $0.title == title })
            #expect(first > 0 && recording.segments[first - 1].start < aired[index].start)
            #expect(recording.segments[first].start >= aired[index].start)
        }
    }

    @Test("a skip voted through ends the song within a second: the next one fades in over 1 s, aired at the fade's middle")
    func skip() async throws {
        let folder = try TemporaryDirectory(prefix: "mhz-crossfade-skip")
        defer { folder.remove() }
        let data = try TemporaryDirectory(prefix: "mhz-crossfade-skip-data")
        defer { data.remove() }
        // LiveFeedbackTests' three tones of a minute, at one level.
        var configuration = StationConfiguration(library: try await LiveFeedbackTests.libraryTask.value, fallsBackToDemo: false,
                                                 dataDirectory: data.url, seed: 5, rescanInterval: nil)
        configuration.analysesSound = false
        configuration.live.segmentDuration = .seconds(1)
        configuration.live.crossfade = .seconds(3)
        let station = try await Station(configuration: configuration)
        let base = try await station.start()
        try await withCleanup {
            let channels = try await HTTPFetch.get(base, "/j/app/radio/channels").jsonObject()["channels"] as? [[String: Any]] ?? []
            let channel = String(try #require(channels.first { $0["name"] as? String == "Skiptest" }?["channel_id"] as? Int))
            let listener = try await LiveFeedbackTests.tuneIn(base, channel)
            let broadcast = try #require(station.liveHub.broadcast(channel))
            let first = try await waitForValue("the first song 3 s on the air", within: .seconds(120), every: .milliseconds(200)) {
                try await LiveFeedbackTests.poll(base, channel, listener)
                let snapshot = broadcast.snapshot
                guard let song = snapshot.aired.first, let last = snapshot.segments.last, last.end >= song.start + 3000
                else { return nil as AiredRecord? }
                return song
            }
            let vote = try await HTTPFetch.post(base, "/live/\(channel)/feedback", form: "type=s&sid=\(first.sid)&listener=\(listener)")
            let ending = try vote.jsonObject()["ending"] as? Bool
            #expect(vote.status == 200 && ending == true, "\(vote.text)")
            let votedAt = LiveBroadcast.now()
            try await waitUntil("the next song 3.5 s on the air", within: .seconds(120), every: .milliseconds(200)) {
                try await LiveFeedbackTests.poll(base, channel, listener)
                let snapshot = broadcast.snapshot
                guard snapshot.aired.count >= 2, let last = snapshot.segments.last else { return false }
                return last.end >= snapshot.aired[1].start + 3500
            }
            let recording = try await Self.capture(broadcast, base: base, channel: channel, in: folder)
            let aired = recording.aired
            // Ended by the vote, long before its minute: the next song is on the air within
            // a segment of the vote and the fade's half.
            #expect(aired[1].start - aired[0].start < 30_000 && aired[1].start <= votedAt + 2500, "\(aired), voted at \(votedAt)")
            let tones = [Self.skipTone(aired[0].sid, station), Self.skipTone(aired[1].sid, station)]
            let change = recording.seconds(aired[1].start)
            let both = Self.together(recording.pcm, tones[0], tones[1], around: change)
            let middle = try Self.middle(recording.pcm, from: tones[0], to: tones[1], around: change)
            print(String(format: "crossfade: skip fade %.1f s, its middle %+.1f ms from the aired start", Double(both) / 10,
                         (middle - change) * 1000))
            // A fade of 1 s, but for its edges under −40 dBFS.
            #expect(both >= 6 && both <= 12, "\(both) windows of 0.1 s with both tones")
            #expect(abs(middle - change) * 1000 <= 25, "aired \(change) s, middle \(middle) s")
        } cleanup: {
            await station.stop()
        }
    }

    /// The tone (Hz) of a song of LiveFeedbackTests' library.
    private static func skipTone(_ sid: String, _ station: Station) -> Int {
        switch station.servedLibrary.track(sid: sid)?.title {
        case "Long One": 330
        case "Long Two": 440
        default: 550
        }
    }
}

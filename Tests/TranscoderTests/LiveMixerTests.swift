import Foundation
import Testing
import TestSupport
@testable import Transcoder

/// ``LiveEncoder``'s songs one after the other: where each starts on the broadcast's clock
/// and how long it fades in, and, without a crossfade, the very bytes one file of the same
/// samples gives.
@Suite struct LiveMixerTests {
    /// Files played in turn, noting where each started.
    final class Queue: LiveAudioSource {
        private var files: [URL]
        private(set) var started: [(file: String, sample: Int64, fadeIn: Int64)] = []
        init(_ files: [URL]) { self.files = files }
        func nextInput() -> LiveInput? {
            files.isEmpty ? nil : LiveInput(file: files.removeFirst())
        }
        func inputStarted(_ input: LiveInput, at sample: Int64, fadeIn: Int64) {
            started.append((input.file.lastPathComponent, sample, fadeIn))
        }
        func inputFailed(_ input: LiveInput, error: TranscodeError) {}
    }

    /// The broadcast's clock starts 2 s in, as a station's does.
    static let first = Int64(2 * 44100)

    /// `count` segments of 1 s of `files` played in turn with `crossfade` samples, and the
    /// source that gave them.
    static func encode(_ files: [URL], crossfade: Int64, count: Int) throws -> (segments: [[UInt8]], source: Queue) {
        let source = Queue(files)
        let encoder = try LiveEncoder(bitrates: [128], firstSample: first, crossfade: crossfade, source: source)
        var segments: [[UInt8]] = []
        for index in 1...count {
            segments.append(try encoder.segment(endingAt: first + Int64(index) * 44100).variants[0])
        }
        return (segments, source)
    }

    /// Two 3 s tones, and one file of both one after the other.
    static func songs(in directory: TemporaryDirectory) throws -> (a: URL, b: URL, joined: URL) {
        let a = directory.path("a.flac"), b = directory.path("b.flac"), joined = directory.path("ab.flac")
        try MediaFactory.tone(at: a, seconds: 3, frequency: 440)
        try MediaFactory.tone(at: b, seconds: 3, frequency: 660)
        try MediaFactory.run("ffmpeg", ["-nostdin", "-hide_banner", "-loglevel", "error", "-y", "-i", a.path, "-i", b.path,
                                        "-filter_complex", "[0:a][1:a]concat=n=2:v=0:a=1", "-c:a", "flac", joined.path])
        return (a, b, joined)
    }

    @Test("crossfade 0: two songs back to back are the bytes of one file holding both; the second starts at the first's last sample")
    func backToBack() throws {
        let directory = try TemporaryDirectory(prefix: "mhz-live-mixer")
        defer { directory.remove() }
        let (a, b, joined) = try Self.songs(in: directory)
        let apart = try Self.encode([a, b], crossfade: 0, count: 7)
        let whole = try Self.encode([joined], crossfade: 0, count: 7)
        #expect(apart.segments == whole.segments)
        #expect(apart.source.started.map(\.file) == ["a.flac", "b.flac"])
        #expect(apart.source.started.map(\.sample) == [Self.first, Self.first + 3 * 44100])
        #expect(apart.source.started.map(\.fadeIn) == [0, 0])
    }

    @Test("crossfade 1 s: the next song starts a second before the end of the one playing and fades in over that second; the first starts whole; never longer than half the next song")
    func overlap() throws {
        let directory = try TemporaryDirectory(prefix: "mhz-live-mixer")
        defer { directory.remove() }
        let (a, b, _) = try Self.songs(in: directory)
        let faded = try Self.encode([a, b], crossfade: 44100, count: 6)
        #expect(faded.source.started.map(\.sample) == [Self.first, Self.first + 2 * 44100])
        #expect(faded.source.started.map(\.fadeIn) == [0, 44100])
        // Asked for 2 s, the 3 s song after takes 1.5 s of it.
        let long = try Self.encode([a, b], crossfade: 2 * 44100, count: 6)
        #expect(long.source.started.map(\.sample) == [Self.first, Self.first + 3 * 44100 - 66150])
        #expect(long.source.started.map(\.fadeIn) == [0, 66150])
    }
}

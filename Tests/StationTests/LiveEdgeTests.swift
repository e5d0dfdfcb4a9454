import Foundation
import NIOCore
@testable import Station
import Testing
import TestSupport

/// The live edge's shared answers (``LiveEdge``): the window playlist made once per window
/// and the newest segments' bytes kept in memory must be, byte for byte, what building the
/// playlist and reading the archive's files give.
@Suite("Live edge")
struct LiveEdgeTests {
    private static func segment(_ sequence: Int, discontinuity: Bool = false, era: Int = 0) -> LiveSegment {
        LiveSegment(sequence: sequence, start: 1_795_000_000_000 + Int64(sequence) * 2000, duration: 2.003,
                    title: "Band \(sequence) - Song \(sequence)", discontinuity: discontinuity, era: era)
    }

    private static func text(_ segments: [LiveSegment], kbps: Int) -> String {
        LivePlaylist.media(segments.suffix(LiveConfiguration.window), kbps: kbps, kind: .live, minimumTarget: 2)
    }

    @Test("the window playlist is the built text's bytes; after a new segment it is the new window's, that segment last")
    func playlistFollowsTheWindow() {
        var edge = LiveEdge()
        var segments = (0..<7).map { Self.segment($0) }
        for kbps in LiveConfiguration.bitrates {
            let served = edge.playlist(kbps: kbps, of: segments, minimumTarget: 2)
            #expect(String(buffer: served) == Self.text(segments, kbps: kbps))
        }
        let before = edge.playlist(kbps: 128, of: segments, minimumTarget: 2)
        #expect(String(buffer: before).hasSuffix("128/6.ts\n"))

        // A new segment, after a discontinuity: the next request gets the new window.
        segments.append(Self.segment(7, discontinuity: true, era: 1))
        let after = String(buffer: edge.playlist(kbps: 128, of: segments, minimumTarget: 2))
        #expect(after == Self.text(segments, kbps: 128))
        #expect(after.hasSuffix("#EXT-X-DISCONTINUITY\n#EXT-X-PROGRAM-DATE-TIME:2026-11-18T11:06:54.000Z\n"
                                + "#EXTINF:2.003,Band 7 - Song 7\n128/7.ts\n"), "\(after)")
        #expect(after.contains("#EXT-X-MEDIA-SEQUENCE:2\n"))

        // Trimmed below a full window: the playlists follow that too.
        let trimmed = Array(segments.suffix(3))
        #expect(String(buffer: edge.playlist(kbps: 64, of: trimmed, minimumTarget: 2))
                == Self.text(trimmed, kbps: 64))
    }

    @Test("playlists made outside the lock are taken only for the window they were made of")
    func adoptOnlyTheSameWindow() {
        var edge = LiveEdge()
        let old = (0..<6).map { Self.segment($0) }
        let new = old + [Self.segment(6)]
        // Made of the old window, offered when the list already holds a newer segment: refused.
        edge.adopt(LiveEdge.playlists(of: old, minimumTarget: 2), madeOf: old, segments: new)
        #expect(String(buffer: edge.playlist(kbps: 192, of: new, minimumTarget: 2))
                == Self.text(new, kbps: 192))
        // Made of the current window: served as made (a marker proves it is the adopted one).
        var made = LiveEdge.playlists(of: new, minimumTarget: 2)
        #expect(made.keys.sorted() == LiveConfiguration.bitrates)
        made[64] = ByteBuffer(string: "adopted")
        edge.adopt(made, madeOf: new, segments: new)
        #expect(edge.playlist(kbps: 64, of: new, minimumTarget: 2) == ByteBuffer(string: "adopted"))
        #expect(String(buffer: edge.playlist(kbps: 128, of: new, minimumTarget: 2))
                == Self.text(new, kbps: 128))
    }

    @Test("the newest segments' bytes are kept per variant, the oldest dropped past the window")
    func keepsTheNewestSegments() {
        var edge = LiveEdge()
        func bytes(_ sequence: Int, _ kbps: Int) -> ByteBuffer { ByteBuffer(string: "\(sequence)@\(kbps)") }
        for sequence in 0..<(LiveEdge.keptSegments + 2) {
            edge.keep(sequence: sequence, variants: LiveConfiguration.bitrates.map { bytes(sequence, $0) })
        }
        #expect(edge.segment(kbps: 128, sequence: 0) == nil)
        #expect(edge.segment(kbps: 128, sequence: 1) == nil)
        for sequence in 2..<(LiveEdge.keptSegments + 2) {
            for kbps in LiveConfiguration.bitrates {
                #expect(edge.segment(kbps: kbps, sequence: sequence) == bytes(sequence, kbps))
            }
        }
        #expect(edge.segment(kbps: 96, sequence: 3) == nil)
        #expect(edge.segment(kbps: 128, sequence: LiveEdge.keptSegments + 2) == nil)
    }

    @Test("over HTTP: the playlist served after a new segment is exactly the window built from segments.jsonl; the segments served are the files' bytes")
    func servedAsArchived() async throws {
        let data = try TemporaryDirectory(prefix: "mhz-live-edge")
        defer { data.remove() }
        let station = try await LiveFixtures.station(data: data.url)
        let base = try await station.start()
        try await withCleanup {
            let channel = try await LiveFixtures.channel(base)
            let first = try await LiveFixtures.waitFor(base, channel, "three segments") { $0.entries.count >= 3 }
            let last = try #require(first.entries.last?.sequence)
            // The first playlist after a new segment is published.
            let served = try await waitForValue("a playlist after segment \(last)", within: .seconds(60),
                                                every: .milliseconds(50)) {
                let served = try await HTTPFetch.get(base, "/live/\(channel)/128.m3u8")
                return LiveMediaPlaylist(served.text).entries.last?.sequence == last ? nil : served
            }
            #expect(served.status == 200)
            #expect(served.headers["content-type"] == "application/vnd.apple.mpegurl")
            #expect(served.headers["cache-control"] == "no-cache")
            let newest = try #require(LiveMediaPlaylist(served.text).entries.last?.sequence)
            #expect(newest > last)
            let folder = data.url.appendingPathComponent("live/\(channel)")
            let listed = try String(contentsOf: folder.appendingPathComponent("segments.jsonl"), encoding: .utf8)
                .split(separator: "\n").map { try JSONDecoder().decode(LiveSegment.self, from: Data($0.utf8)) }
                .filter { $0.sequence <= newest }
            #expect(served.text == LivePlaylist.media(listed.suffix(LiveConfiguration.window), kbps: 128, kind: .live,
                                                      minimumTarget: 1))
            // The newest segment (kept in memory) and the first (the files' bytes either way).
            for sequence in [newest, listed[0].sequence] {
                for kbps in LiveConfiguration.bitrates {
                    let answer = try await HTTPFetch.get(base, "/live/\(channel)/\(kbps)/\(sequence).ts")
                    #expect(answer.status == 200)
                    #expect(answer.headers["cache-control"] == "max-age=86400")
                    let file = try Data(contentsOf: folder.appendingPathComponent("\(kbps)/\(sequence).ts"))
                    #expect(answer.body == file, "\(kbps)/\(sequence).ts: \(answer.body.count) bytes, the file \(file.count)")
                }
            }
            // What the short path leaves to the router answers as the router does: `..`
            // (plain or encoded) is the traversal guard's 404, a fourth level no route's.
            for target in ["/live/\(channel)/../\(channel)/128.m3u8", "/live/%2e%2e/\(channel)/128.m3u8",
                           "/live/\(channel)/128/\(newest).ts/x"] {
                let answer = try await RawHTTP.get(port: try #require(base.port), target: target)
                #expect(answer.status == 404, "\(target)")
                #expect(answer.text == #"{"err":"not_found","r":1}"#, "\(target): \(answer.text)")
            }
        } cleanup: {
            await station.stop()
        }
    }
}

import Foundation
import Radio
import Testing
import TestSupport
@testable import mhz

/// What mhz's live client says of a live channel's answer it cannot use: the playlist rule
/// broken and the JSON field at fault in words, after the route, never a Swift case name or
/// Foundation's description of a `DecodingError`.
struct LiveAnswerWordsTests {
    /// Serves a live channel's files from a folder: a master playlist without a listener id,
    /// and the variant playlist and aired.json given.
    private static func withChannel(variant: String, aired: String,
                                    _ body: (LiveStationHTTP) async throws -> Void) async throws {
        let root = try TemporaryDirectory(prefix: "mhz-live-words")
        defer { root.remove() }
        let folder = root.url.appendingPathComponent("live/5")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=80000\n5/128.m3u8\n".utf8)
            .write(to: root.url.appendingPathComponent("live/5.m3u8"))
        try Data(variant.utf8).write(to: folder.appendingPathComponent("128.m3u8"))
        try Data(aired.utf8).write(to: folder.appendingPathComponent("aired.json"))
        let server = try FaultyMediaServer(root: root.url)
        defer { server.stop() }
        let base = try #require(URL(string: server.baseURL + "/"))
        try await body(LiveStationHTTP(base: base, http: .init(configuration: .init(retry: .never))))
    }

    @Test func aBrokenPlaylistAndAnHTMLPageAreToldInWords() async throws {
        try await Self.withChannel(variant: "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:1e20,\nseg.ts\n",
                                   aired: "<html><body>Bad gateway</body></html>") { client in
            await #expect(throws: ServiceFailure.malformed(
                "/live/5/128.m3u8: the playlist is broken at line 3 (a duration that is not a number of seconds): \"#EXTINF:1e20,\"")) {
                _ = try await client.window(channel: "5", from: nil)
            }
            await #expect(throws: ServiceFailure.malformed("/live/5/aired.json: not JSON: <html><body>Bad gateway</body></html>")) {
                _ = try await client.aired(channel: "5")
            }
        }
    }

    @Test func aFieldAtFaultIsNamedByItsPath() async throws {
        try await Self.withChannel(variant: "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nx.m3u8\n",
                                   aired: #"{"songs":[{"sid":"1","title":"t","artist":"a","start":0,"url":"u"}]}"#) { client in
            await #expect(throws: ServiceFailure.malformed("/live/5/128.m3u8 is a master playlist, not a media playlist")) {
                _ = try await client.window(channel: "5", from: nil)
            }
            await #expect(throws: ServiceFailure.malformed("/live/5/aired.json: missing \"end\" at .songs[0]")) {
                _ = try await client.aired(channel: "5")
            }
        }
    }
}

import Foundation
@testable import mhz
import RadioAPI
@testable import Station
import TestSupport
import Testing

/// mhz's live client (``LiveStationHTTP``) against a station that restarted on the same
/// address since it handed out the client's listener id: the new station knows the id no
/// more, and the client's word still counts.
@Suite(.serialized)
struct LiveListenerRestartTests {
    @Test("a word refused as unknown_listener after a restart reads a new id, polls with it, and is sent once more")
    func wordAfterRestart() async throws {
        let data = try TemporaryDirectory(prefix: "mhz-live-restart")
        defer { data.remove() }
        let first = try await LiveListeningTests.station(in: data)
        // The id the first station hands out, and a song of its programme.
        let (base, channel, sid, client) = try await withCleanup { () async throws -> (URL, String, String, LiveStationHTTP) in
            let base = try await first.start()
            let client = LiveStationHTTP(base: base, http: .init(configuration: .init(retry: .never)))
            let channel = try await LiveListeningTests.channel(base)
            _ = try await client.window(channel: channel, from: nil)
            let sid = try #require(try await client.aired(channel: channel).first?.sid)
            _ = try await client.feedback(channel: channel, type: .rate, sid: sid)
            return (base, channel, sid, client)
        } cleanup: {
            await first.stop()
        }

        // The same station again, on the same port: what it records, in order.
        let asked = Locked<[String]>([])
        var configuration = first.configuration
        configuration.port = try #require(base.port)
        configuration.onRequest = { request in
            guard request.path.hasPrefix("/live/") else { return }
            asked.withLock { $0.append("\(request.method) \(request.path) \(request.parameter("listener") ?? "-")") }
        }
        let second = try await Station(configuration: configuration)
        try await withCleanup {
            #expect(try await second.start() == base)
            let tally = try await client.feedback(channel: channel, type: .rate, sid: sid)
            #expect(tally.votes == 0 && !tally.ending)
            // The word with the old id (in the body: not seen here) refused, then the master
            // playlist without an id, a poll naming the new one, and the word again.
            let seen = asked.withLock { $0 }
            let id = try #require(seen.dropFirst(2).first?.split(separator: " ").last.map(String.init), "\(seen)")
            #expect(id.count == 32, "\(seen)")
            #expect(seen == ["POST /live/\(channel)/feedback -", "GET /live/\(channel).m3u8 -",
                             "GET /live/\(channel)/128.m3u8 \(id)", "POST /live/\(channel)/feedback -"], "\(seen)")
        } cleanup: {
            await second.stop()
        }
    }
}

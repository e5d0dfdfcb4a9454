import Foundation
import TestSupport
import Testing

/// ``FaultProxy`` does what each mode says, seen on a raw socket: exact statuses, exact
/// byte counts, how each stream ended, and what the upstream (a ``FaultyMediaServer``
/// serving a known file) received.
@Suite(.serialized)
struct FaultProxyTests {
    /// A 100 000-byte file of a repeating pattern behind a proxy.
    final class Fixture: Sendable {
        /// The served folder.
        let directory: TemporaryDirectory
        /// The server behind the proxy, which records what reached it.
        let upstream: FaultyMediaServer
        /// The proxy under test.
        let proxy: FaultProxy
        /// The bytes of `/data.bin`.
        let file: Data

        init() throws {
            directory = try TemporaryDirectory(prefix: "fault-proxy")
            file = Data((0..<100_000).map { UInt8($0 % 251) })
            try file.write(to: directory.path("data.bin"))
            upstream = try FaultyMediaServer(root: directory.url)
            proxy = try FaultProxy(upstream: URL(string: upstream.baseURL)!)
        }

        /// GETs `path` through the proxy on a raw socket.
        func get(_ path: String = "/data.bin", silence: Double = 10) async throws -> LoopbackExchange {
            let port = proxy.port
            return try await offPool { try LoopbackExchange.run(port: port, request: LoopbackExchange.get(path), silence: silence) }
        }

        deinit {
            proxy.stop()
            upstream.stop()
        }
    }

    @Test func passThroughRelaysTheWholeAnswerAndClosesTheConnection() async throws {
        let fixture = try Fixture()
        let answer = try await fixture.get()
        #expect(answer.status == 200)
        #expect(answer.body == fixture.file)
        #expect(answer.ending == .closed)
        #expect(answer.head.contains("Connection: close"))
        #expect(fixture.proxy.counts.connections == 1)
        #expect(fixture.proxy.counts.forwarded == 1)
        #expect(fixture.upstream.requests.map(\.path) == ["/data.bin"])
        #expect(fixture.proxy.records.map(\.action) == [.forwarded])
    }

    @Test func dropClosesEachConnectionAtOnceWithAFinOrAnRst() async throws {
        let fixture = try Fixture()
        let port = fixture.proxy.port
        fixture.proxy.setMode(.drop(reset: false))
        // Nothing is sent: a request the proxy never read would turn its close into an RST.
        let closed = try await offPool { try LoopbackExchange.run(port: port, request: nil) }
        #expect(closed.ending == .closed && closed.bytes.isEmpty)
        fixture.proxy.setMode(.drop(reset: true))
        let reset = try await offPool { try LoopbackExchange.run(port: port, request: nil) }
        #expect(reset.ending == .reset && reset.bytes.isEmpty)
        #expect(fixture.proxy.counts.dropped == 2)
        #expect(fixture.proxy.counts.forwarded == 0)
        #expect(fixture.upstream.requests.isEmpty)
    }

    @Test func resetMidBodyForwardsThenCutsTheBodyWithAnRst() async throws {
        let fixture = try Fixture()
        fixture.proxy.setMode(.resetMidBody(afterBytes: 1000))
        let answer = try await fixture.get()
        #expect(answer.status == 200)
        #expect(answer.head.contains("Content-Length: 100000"))
        #expect(answer.body == fixture.file.prefix(1000))
        #expect(answer.ending == .reset)
        #expect(fixture.proxy.counts.reset == 1)
        // The upstream records a request once it has written its answer, which on a busy
        // machine can come after the reset has reached the client.
        try await waitUntil("the upstream recorded the request", within: .seconds(15)) {
            fixture.upstream.requests.count >= 1
        }
        #expect(fixture.upstream.requests.count == 1, "the upstream saw the request")
    }

    @Test func truncateBodyCutsTheBodyWithAFin() async throws {
        let fixture = try Fixture()
        fixture.proxy.setMode(.truncateBody(afterBytes: 500))
        let answer = try await fixture.get()
        #expect(answer.status == 200)
        #expect(answer.head.contains("Content-Length: 100000"))
        #expect(answer.body == fixture.file.prefix(500))
        #expect(answer.ending == .closed)
        #expect(fixture.proxy.counts.truncated == 1)
    }

    @Test func truncateBodyCutsTheStationsJSON() async throws {
        let station = try await DoubanTestServer()
        defer { station.stop() }
        let proxy = try FaultProxy(upstream: station.baseURL)
        defer { proxy.stop() }
        let port = proxy.port
        let whole = try await offPool { try LoopbackExchange.run(port: port, request: LoopbackExchange.get("/j/app/radio/channels")) }
        #expect(whole.status == 200 && whole.body.count > 40)
        proxy.setMode(.truncateBody(afterBytes: 20))
        let cut = try await offPool { try LoopbackExchange.run(port: port, request: LoopbackExchange.get("/j/app/radio/channels")) }
        #expect(cut.status == 200)
        #expect(cut.body == whole.body.prefix(20))
        #expect(station.calls(to: "/j/app/radio/channels").count == 2)
    }

    @Test func stallHoldsTheRequestUntilTheModeChanges() async throws {
        let fixture = try Fixture()
        fixture.proxy.setMode(.stall)
        let held = try await fixture.get(silence: 1.5)
        #expect(held.ending == .silent && held.bytes.isEmpty)
        #expect(fixture.upstream.requests.isEmpty, "a stalled request is not forwarded")
        #expect(fixture.proxy.counts.stalled == 1)
        // A request held now goes on once the mode changes back.
        let later = Task { try await fixture.get() }
        try #require(await eventually { fixture.proxy.counts.stalled == 2 })
        fixture.proxy.setMode(.passThrough)
        let answer = try await later.value
        #expect(answer.status == 200 && answer.body == fixture.file)
        #expect(fixture.upstream.requests.count == 1)
    }

    @Test func stallPausesABodyInFlightAndTheNextModeResumesIt() async throws {
        let fixture = try Fixture()
        fixture.proxy.setMode(.trickle(bytes: 10_000, everyMilliseconds: 100))
        let transfer = Task { try await fixture.get() }
        try #require(await eventually { fixture.proxy.counts.forwarded == 1 })
        fixture.proxy.setMode(.stall)
        try #require(await eventually { fixture.proxy.counts.stalled == 1 })
        fixture.proxy.setMode(.passThrough)
        let answer = try await transfer.value
        #expect(answer.body == fixture.file)
        #expect(answer.ending == .closed)
    }

    @Test func answerBurstAnswersTheNextRequestsItselfThenPassesThrough() async throws {
        let fixture = try Fixture()
        fixture.proxy.setMode(.answer(status: 503, retryAfter: 7, count: 2))
        var statuses: [Int?] = []
        for _ in 0..<3 { statuses.append(try await fixture.get().status) }
        #expect(statuses == [503, 503, 200])
        #expect(fixture.proxy.counts.answered == 2 && fixture.proxy.counts.forwarded == 1)
        #expect(fixture.proxy.records.map(\.action) == [.answered(503), .answered(503), .forwarded])
        #expect(fixture.proxy.mode == .passThrough)
        #expect(fixture.upstream.requests.count == 1)
        fixture.proxy.setMode(.answer(status: 429, retryAfter: nil, count: 1))
        let limited = try await fixture.get()
        #expect(limited.head == "HTTP/1.1 429 Too Many Requests\r\nContent-Length: 0\r\nConnection: close")
        #expect(limited.body.isEmpty)
    }

    @Test func aScopedModeFaultsOnlyThePathsUnderItsPrefix() async throws {
        let fixture = try Fixture()
        try Data("other".utf8).write(to: fixture.directory.path("other.bin"))
        fixture.proxy.setMode(.answer(status: 502, retryAfter: nil, count: 1), onlyFor: "/data")
        #expect(try await fixture.get("/other.bin").body == Data("other".utf8))
        #expect(try await fixture.get().status == 502)
        #expect(try await fixture.get().body == fixture.file, "the burst of one is over")
        fixture.proxy.setMode(.drop(reset: false), onlyFor: "/data")
        #expect(try await fixture.get("/other.bin").status == 200)
        let dropped = try await fixture.get()
        #expect(dropped.bytes.isEmpty && dropped.ending != .silent)
        #expect(fixture.proxy.records.map(\.action) == [.forwarded, .answered(502), .forwarded, .forwarded, .dropped])
        #expect(fixture.upstream.requests.map(\.path) == ["/other.bin", "/data.bin", "/other.bin"])
    }

    @Test func answerBurstSendsRetryAfter() async throws {
        let fixture = try Fixture()
        fixture.proxy.setMode(.answer(status: 503, retryAfter: 7, count: 1))
        let answer = try await fixture.get()
        #expect(answer.head == "HTTP/1.1 503 Service Unavailable\r\nRetry-After: 7\r\nContent-Length: 0\r\nConnection: close")
    }

    @Test func latencyDelaysEachRequestBySeededAmounts() async throws {
        let fixture = try Fixture()
        fixture.proxy.setMode(.latency(milliseconds: 300, jitter: 100, seed: 42))
        var expected = LatencySequence(milliseconds: 300, jitter: 100, seed: 42)
        let delays = (0..<3).map { _ in expected.next() }
        var again = LatencySequence(milliseconds: 300, jitter: 100, seed: 42)
        #expect((0..<3).map { _ in again.next() } == delays, "the same seed, the same delays")
        var other = LatencySequence(milliseconds: 300, jitter: 100, seed: 43)
        #expect((0..<3).map { _ in other.next() } != delays)
        #expect(delays.allSatisfy { (200...400).contains($0) }, "\(delays)")
        let clock = ContinuousClock()
        var answers: [LoopbackExchange] = []
        let took = try await clock.measure {
            for _ in 0..<3 { answers.append(try await fixture.get()) }
        }
        #expect(answers.allSatisfy { $0.body == fixture.file })
        #expect(took >= .milliseconds(delays.reduce(0, +)), "delays \(delays) ms; took \(took)")
        #expect(fixture.proxy.counts.forwarded == 3)
    }

    @Test func trickleSendsTheBodyInPiecesAtTheRateAsked() async throws {
        let fixture = try Fixture()
        fixture.proxy.setMode(.trickle(bytes: 20_000, everyMilliseconds: 100))
        let clock = ContinuousClock()
        var answer = LoopbackExchange()
        let took = try await clock.measure { answer = try await fixture.get() }
        #expect(answer.body == fixture.file)
        // Five pieces of 20 000 bytes, 100 ms apart.
        #expect(took >= .milliseconds(400), "\(took)")
    }

    @Test func stopEndsHeldConnectionsAndItsThreads() async throws {
        let fixture = try Fixture()
        fixture.proxy.setMode(.stall)
        let held = Task { try await fixture.get() }
        try #require(await eventually { fixture.proxy.counts.stalled == 1 })
        fixture.proxy.stop()
        let answer = try await held.value
        #expect(answer.bytes.isEmpty && answer.ending != .silent)
        let port = fixture.proxy.port
        #expect(LoopbackSocket.connect(port: port).map { close($0) } == nil, "the port no longer accepts")
    }
}

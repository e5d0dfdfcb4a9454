import Foundation
@testable import Station
import TestSupport
import Testing

/// The station under abuse, on a real socket: 500 connections that send nothing, headers
/// sent a byte a second, 10 MB forms. While each runs, an ordinary client's channel list
/// comes back, byte for byte, about as fast as before (the median of a run of requests,
/// compared as a ratio: the machine is shared); and each abuser meets the station's limit
/// (an idle timeout, a body limit that answers 413 and closes).
///
/// Serialized: each test measures latency, which another test's abuse would distort.
@Suite("Station under abuse", .serialized)
struct StationAbuseTests {
    /// Requests per latency measurement.
    private static let samples = 20
    private static let form = 10 * 1024 * 1024
    private static let channelsPath = "/j/app/radio/channels"

    /// The channel list an ordinary client gets, and its median latency, before any abuse.
    private static func baseline(_ base: URL) async throws -> (channels: Data, p50: Duration) {
        let channels = try await HTTPFetch.get(base, channelsPath).body
        return (channels, try await ordinaryMedian(base, expecting: channels))
    }

    /// Measures the ordinary client again, while `abuse` runs, and expects it usual
    /// (``Latency/isUsual(_:before:)``); both figures are printed for the record.
    private static func expectUsualLatency(_ base: URL, _ channels: Data, before: Duration, during abuse: String)
        async throws {
        let during = try await ordinaryMedian(base, expecting: channels)
        print("channels p50 before \(before), during \(abuse) \(during)")
        #expect(Latency.isUsual(during, before: before), "p50 before \(before), during \(abuse) \(during)")
    }

    /// An ordinary client's median latency over ``samples`` requests for the channel list,
    /// which must come back whole and unchanged every time.
    private static func ordinaryMedian(_ base: URL, expecting body: Data) async throws -> Duration {
        try await Latency.median(samples: samples) {
            let answer = try await HTTPFetch.get(base, channelsPath)
            #expect(answer.status == 200)
            #expect(answer.body == body)
        }
    }

    @Test("500 connections that send nothing: the ordinary client keeps its latency; none is answered or closed early")
    func silentConnections() async throws {
        // An idle timeout of an hour: "none closed early" must not race a timer that a
        // starved measurement could outlast (the default is 30 s).
        try await StationFixtures.withDemoStation(adjust: { $0.idleTimeout = .seconds(3600) }) { _, base in
            let port = try #require(base.port)
            // Both ends of every connection are in this process: 1000 descriptors and more,
            // past the usual soft limit of 1024. Raised as `mhz serve` raises its own.
            let limit = try #require(OpenFileLimit.raiseToHard())
            #expect(limit >= 1100, "the hard limit on descriptors (\(limit)) is below what the test needs")
            let (channels, before) = try await Self.baseline(base)
            let idle = try await offPool { try IdleConnections(port: port, count: 500) }
            defer { idle.close() }
            try await Self.expectUsualLatency(base, channels, before: before, during: "500 idle connections")
            // The idle timeout is far off: every connection is still open.
            #expect(idle.count == 500)
            #expect(idle.closedByPeer == 0)
        }
    }

    @Test("a connection that sends nothing, and one left idle after its answer, are closed after the idle timeout, unanswered")
    func idleTimeoutClosesConnections() async throws {
        try await StationFixtures.withDemoStation(adjust: { $0.idleTimeout = .seconds(2) }) { _, base in
            let port = try #require(base.port)
            let idle = try await offPool { try IdleConnections(port: port, count: 50) }
            defer { idle.close() }
            // A keep-alive connection after one answer: idle from then on.
            let kept = try await offPool { try LoopbackSocket.connectOrFail(port: port) }
            defer { close(kept) }
            let request = Array("GET \(Self.channelsPath) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
            #expect(send(kept, request, request.count, 0) == request.count)

            _ = await eventually(within: .seconds(30)) { idle.closedByPeer == 50 && LoopbackSocket.isClosedByPeer(kept) }
            #expect(idle.closedByPeer == 50)
            #expect(LoopbackSocket.isClosedByPeer(kept))
            // The kept connection got its whole answer first, then the end of the stream.
            let answer = try await offPool { String(decoding: LoopbackExchange.receive(kept).bytes, as: UTF8.self) }
            #expect(answer.hasPrefix("HTTP/1.1 200 OK\r\n"))
            #expect(answer.hasSuffix("}"))
        }
    }

    @Test("headers sent a byte a second: the ordinary client keeps its latency; the station closes them unanswered")
    func slowloris() async throws {
        let timeout: Duration = .seconds(4)
        try await StationFixtures.withDemoStation(adjust: { $0.idleTimeout = timeout }) { _, base in
            let port = try #require(base.port)
            let (channels, before) = try await Self.baseline(base)
            // 66 bytes: at one a second, the head would be complete after a minute.
            let request = "GET \(Self.channelsPath) HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: */*\r\n\r\n"
            let slow = try (0..<20).map { _ in try Slowloris(port: port, request: request) }
            defer { slow.forEach { $0.stop() } }
            try await Self.expectUsualLatency(base, channels, before: before, during: "20 slow clients")

            _ = await eventually(within: .seconds(40)) { slow.allSatisfy { $0.outcome.finished } }
            for client in slow {
                let seen = client.outcome
                #expect(seen.closedByServer)
                #expect(seen.received.isEmpty, "answered: \(String(decoding: seen.received, as: UTF8.self))")
                #expect(seen.bytesSent < request.utf8.count, "the head was never complete")
                // Never before the timeout: the timer cannot fire early.
                #expect((seen.closedAfter ?? .zero) >= timeout)
            }
        }
    }

    @Test("10 MB forms to both logins: 413 in each family's shape, the connection closed, the body not read to its end")
    func oversizedForms() async throws {
        try await StationFixtures.withDemoStation { _, base in
            let port = try #require(base.port)
            let (channels, before) = try await Self.baseline(base)
            // Three clients posting 10 MB forms, over and over, while the ordinary one asks.
            let stop = Locked(false)
            let posters = (0..<3).map { index in
                Task {
                    try await offPool { () throws -> [OversizedPost.Outcome] in
                        var outcomes: [OversizedPost.Outcome] = []
                        repeat {
                            outcomes.append(try OversizedPost.send(port: port, path: "/j/app/login", size: Self.form,
                                                                   framing: index == 0 ? .chunked : .declared))
                        } while !stop.value
                        return outcomes
                    }
                }
            }
            try await Self.expectUsualLatency(base, channels, before: before, during: "10 MB forms")
            stop.withLock { $0 = true }
            var outcomes: [OversizedPost.Outcome] = []
            for poster in posters { outcomes += try await poster.value }
            print("\(outcomes.count) forms refused; body bytes sent before each answer: \(outcomes.map(\.bodyBytesSent))")
            #expect(outcomes.count >= 3)
            for outcome in outcomes {
                Self.expectRefused(outcome, body: #"{"err":"too_large","r":1}"#)
            }

            for framing in [OversizedPost.Framing.declared, .chunked] {
                let web = try await offPool { try OversizedPost.send(port: port, path: "/j/login", size: Self.form, framing: framing) }
                Self.expectRefused(web, body: #"{"err_msg":"请求内容过大","err_no":1021,"r":1}"#)
            }
            // The station is none the worse: an ordinary login is answered as ever.
            let login = try await HTTPFetch.post(base, "/j/app/login",
                                                 form: "app_name=radio_android&version=100&username=nobody&password=x")
            #expect(login.status == 200)
            #expect(login.text == #"{"err":"invalid_user_name","r":1}"#)
        }
    }

    /// A 413 in the station's JSON, marked to close, the connection closed after it, and
    /// far less than the whole form taken.
    private static func expectRefused(_ outcome: OversizedPost.Outcome, body: String) {
        #expect(outcome.status == 413)
        #expect(String(decoding: outcome.body, as: UTF8.self) == body)
        #expect(outcome.header("content-type") == "application/json; charset=utf-8")
        #expect(outcome.header("connection") == "close")
        #expect(outcome.closedByServer)
        // The answer came before the form was all sent: the station did not wait for it.
        #expect(outcome.bodyBytesSent < form, "sent \(outcome.bodyBytesSent) bytes of the body before the answer")
    }
}

import Foundation
import HTTPTypes
import MhzVersion
import NIOCore
import NIOEmbedded
import NIOHTTPTypes
import Synchronization
import TestSupport
import Testing
@testable import Station

/// ``LiveEdgeHandler`` in a pipeline of its own (NIO's `EmbeddedChannel`), answering from a
/// recording ``LiveEdgeSource``: what it takes it answers with exact headers and bytes, and
/// everything else reaches the next handler (Hummingbird's, in the station) untouched and
/// in order.
@Suite("Live edge handler")
struct LiveEdgeHandlerTests {
    /// Answers the targets it was given, and records what it was asked.
    final class Source: LiveEdgeSource {
        let answers: [String: LiveEdgeAnswer]
        let asked = Mutex<[String]>([])

        init(_ answers: [String: LiveEdgeAnswer]) { self.answers = answers }

        func answer(target: String, listener: String) -> LiveEdgeAnswer? {
            asked.withLock { $0.append("\(listener) \(target)") }
            return answers[target]
        }
    }

    private static let playlist = LiveEdgeAnswer(kind: .playlist, body: ByteBuffer(string: "#EXTM3U\n#EXT-X-VERSION:6\n"))
    private static let segment = LiveEdgeAnswer(kind: .segment, body: ByteBuffer(bytes: [0x47, 0x40, 0x11, 0x10, 0x00]))

    private static func channel(_ source: Source) throws -> EmbeddedChannel {
        let channel = EmbeddedChannel(handler: LiveEdgeHandler(source: source))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.7", port: 40_000)).wait()
        return channel
    }

    private static func request(_ path: String, method: HTTPRequest.Method = .get,
                                _ fields: HTTPFields = [:]) -> HTTPRequest {
        HTTPRequest(method: method, scheme: nil, authority: "127.0.0.1", path: path, headerFields: fields)
    }

    /// The parts written out, in order.
    private static func written(_ channel: EmbeddedChannel) throws -> [HTTPResponsePart] {
        var parts: [HTTPResponsePart] = []
        while let part = try channel.readOutbound(as: HTTPResponsePart.self) { parts.append(part) }
        return parts
    }

    /// The parts passed on, in order.
    private static func passed(_ channel: EmbeddedChannel) throws -> [HTTPRequestPart] {
        var parts: [HTTPRequestPart] = []
        while let part = try channel.readInbound(as: HTTPRequestPart.self) { parts.append(part) }
        return parts
    }

    private static func send(_ channel: EmbeddedChannel, _ head: HTTPRequest) throws {
        try channel.writeInbound(HTTPRequestPart.head(head))
        try channel.writeInbound(HTTPRequestPart.end(nil))
    }

    @Test("a playlist and a segment taken: the router's headers in its order, the date of now, the bytes as kept; nothing passed on")
    func answersWhatItTakes() throws {
        let source = Source(["/live/3/128.m3u8": Self.playlist, "/live/3/128/41.ts": Self.segment])
        let channel = try Self.channel(source)
        defer { _ = try? channel.finish() }
        for (path, answer, type, cache) in [("/live/3/128.m3u8", Self.playlist, "application/vnd.apple.mpegurl", "no-cache"),
                                            ("/live/3/128/41.ts", Self.segment, "video/mp2t", "max-age=86400")] {
            let before = Date()
            try Self.send(channel, Self.request(path))
            let parts = try Self.written(channel)
            #expect(parts.count == 3, "\(parts)")
            guard parts.count == 3, case .head(let head) = parts[0], case .body(let body) = parts[1],
                  case .end(nil) = parts[2]
            else { continue }
            #expect(head.status == .ok)
            #expect(head.headerFields.map(\.name.canonicalName) == ["content-type", "cache-control", "content-length", "date", "server"])
            #expect(head.headerFields[.contentType] == type)
            #expect(head.headerFields[.cacheControl] == cache)
            #expect(head.headerFields[.contentLength] == String(answer.body.readableBytes))
            #expect(head.headerFields[.server] == "mhz/\(MhzVersion.number)")
            // The date of the answer, to the second, in RFC 9110's form.
            let date = try #require(head.headerFields[.date])
            let parsed = try #require(Self.imfFixdate.date(from: date), "\(date)")
            #expect(abs(parsed.timeIntervalSince(before)) < 2, "\(date)")
            #expect(body == answer.body)
            #expect(try Self.passed(channel).isEmpty)
        }
        #expect(source.asked.withLock { $0 } == ["127.0.0.7 /live/3/128.m3u8", "127.0.0.7 /live/3/128/41.ts"])
    }

    @Test("what the source does not answer, a HEAD, a body, a request to close: passed on whole and unanswered")
    func passesTheRestOn() throws {
        let source = Source(["/live/3/128.m3u8": Self.playlist])
        let channel = try Self.channel(source)
        defer { _ = try? channel.finish() }
        let others = [
            Self.request("/live/3/128.m3u8?login=ann"),
            Self.request("/live/3/128.m3u8", method: .head),
            Self.request("/live/3/128.m3u8", method: .post, [.contentLength: "0"]),
            Self.request("/live/3/128.m3u8", [.contentLength: "0"]),
            Self.request("/live/3/128.m3u8", [.transferEncoding: "chunked"]),
            Self.request("/live/3/128.m3u8", [.connection: "close"]),
        ]
        for head in others {
            try Self.send(channel, head)
            #expect(try Self.passed(channel) == [.head(head), .end(nil)])
            // The router's answer goes out through the handler untouched.
            let answer = HTTPResponse(status: .notFound, headerFields: [.contentLength: "2"])
            channel.write(HTTPResponsePart.head(answer), promise: nil)
            channel.write(HTTPResponsePart.body(ByteBuffer(string: "no")), promise: nil)
            channel.writeAndFlush(HTTPResponsePart.end(nil), promise: nil)
            #expect(try Self.written(channel) == [.head(answer), .body(ByteBuffer(string: "no")), .end(nil)])
        }
        // Only the `GET`s without a body or a close were put to the source.
        #expect(source.asked.withLock { $0 } == ["127.0.0.7 /live/3/128.m3u8?login=ann"])
        // A connection whose answers back up (not writable): the router's writer waits.
        channel.isWritable = false
        let live = Self.request("/live/3/128.m3u8")
        try Self.send(channel, live)
        #expect(try Self.passed(channel) == [.head(live), .end(nil)])
        #expect(try Self.written(channel).isEmpty)
        #expect(source.asked.withLock { $0 }.count == 1)
    }

    @Test("behind a request passed on and not yet answered, a live request passes on too; once that answer ends, it is taken again")
    func keepsTheOrderOfAnswers() throws {
        let source = Source(["/live/3/128.m3u8": Self.playlist])
        let channel = try Self.channel(source)
        defer { _ = try? channel.finish() }
        let slow = Self.request("/j/app/radio/people")
        let live = Self.request("/live/3/128.m3u8")
        // Pipelined: the router's request, then a live one, before any answer.
        try Self.send(channel, slow)
        try Self.send(channel, live)
        #expect(try Self.passed(channel) == [.head(slow), .end(nil), .head(live), .end(nil)])
        #expect(try Self.written(channel).isEmpty)
        // The router answers both, in order; then the next live request is the handler's.
        for _ in 0..<2 {
            channel.write(HTTPResponsePart.head(HTTPResponse(status: .ok)), promise: nil)
            channel.writeAndFlush(HTTPResponsePart.end(nil), promise: nil)
        }
        #expect(try Self.written(channel).count == 4)
        try Self.send(channel, live)
        #expect(try Self.passed(channel).isEmpty)
        let parts = try Self.written(channel)
        #expect(parts.count == 3)
        #expect(parts.dropFirst().first == .body(Self.playlist.body))
    }

    @Test("over HTTP: a listener polling on one kept-alive connection gets the router's head and bytes; its polls keep the connection past the idle timeout, which closes it once they stop")
    func overHTTP() async throws {
        let data = try TemporaryDirectory(prefix: "mhz-live-edge-handler")
        defer { data.remove() }
        let idle: Duration = .seconds(2)
        let station = try await LiveFixtures.station(data: data.url) { $0.idleTimeout = idle }
        let base = try await station.start()
        try await withCleanup {
            let channel = try await LiveFixtures.channel(base)
            _ = try await LiveFixtures.waitFor(base, channel, "three segments") { $0.entries.count >= 3 }
            let port = try #require(base.port)
            let target = "/live/\(channel)/128.m3u8"
            // Polls every quarter second for two and a half idle timeouts, on one connection.
            // A closed connection fails the test only when no pause between two polls came
            // near the timeout: a whole-suite run can starve this task for seconds, and then
            // the station is right to close it, so the polling starts again on a new one.
            var socket: Int32 = -1
            defer { if socket >= 0 { close(socket) } }
            var polls = 0
            var answer = LoopbackExchange()
            for _ in 0..<3 {
                if socket >= 0 { close(socket) }
                socket = try await offPool { try LoopbackSocket.connectOrFail(port: port) }
                let start = ContinuousClock.now
                var longestPause = Duration.zero
                var answered = ContinuousClock.now
                polls = 0
                var starved = false
                while ContinuousClock.now - start < idle * 2.5 {
                    longestPause = max(longestPause, ContinuousClock.now - answered)
                    let fd = socket
                    let exchange = try? await offPool { try Self.exchange(fd, target) }
                    longestPause = max(longestPause, ContinuousClock.now - answered)
                    guard let exchange, exchange.ending == .enough else {
                        starved = longestPause > idle / 2
                        #expect(starved, "poll \(polls) failed (\(exchange.map { "\($0.ending)" } ?? "send")) after pauses of at most \(longestPause)")
                        break
                    }
                    #expect(exchange.status == 200)
                    answer = exchange
                    answered = ContinuousClock.now
                    polls += 1
                    // A clock, on purpose: a listener's pause between polls, each far shorter
                    // than the station's idle timer (itself a real clock) and all of them
                    // together far longer, which is what the test is about.
                    try await Task.sleep(for: .milliseconds(250))
                }
                if !starved { break }
            }
            #expect(polls >= 8)
            // The same head as the router's answer (a request to close goes to the router),
            // and the same bytes while the window is the same.
            var routed = try await RawHTTP.exchange(port: port, LoopbackExchange.get(target, close: true))
            for _ in 0..<5 where routed.body != answer.body {
                let fd = socket
                answer = try await offPool { try Self.exchange(fd, target) }
                routed = try await RawHTTP.exchange(port: port, LoopbackExchange.get(target, close: true))
            }
            #expect(answer.body == routed.body)
            #expect(answer.head.components(separatedBy: "\r\n").first == "HTTP/1.1 200 OK")
            #expect(answer.headers.map(\.name) == routed.headers.map(\.name))
            #expect(answer.headers.map(\.name) == ["content-type", "cache-control", "content-length", "date", "server"])
            for name in ["content-type", "cache-control", "content-length", "server"] {
                #expect(answer.values(name) == routed.values(name), "\(name)")
            }
            // Left alone, the connection is closed after the idle timeout.
            let fd = socket
            let closed = await eventually(within: .seconds(15)) { LoopbackSocket.isClosedByPeer(fd) }
            #expect(closed)
        } cleanup: {
            await station.stop()
        }
    }

    /// Sends `GET target` on the kept-alive `socket` and reads its answer to the end of its body.
    private static func exchange(_ socket: Int32, _ target: String) throws -> LoopbackExchange {
        guard SocketIO.sendAll(socket, Data(LoopbackExchange.get(target).utf8)) else { throw FetchError.socket("send") }
        return LoopbackExchange.receive(socket, silence: 5) { exchange in
            guard exchange.hasBody, let length = exchange.values("content-length").first.flatMap({ Int($0) }) else { return false }
            return exchange.body.count >= length
        }
    }

    private static let imfFixdate: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter
    }()
}

import Foundation
import NIOCore
import NIOEmbedded
@testable import Station
import Testing
import TestSupport

/// A request target over 8 KiB is a 414 at every length: past NIO's parser's own limit
/// (80 KiB) as much as just over the station's, alone or behind other requests on the
/// connection, while a head whose header lines are too long stays the parser's 400.
@Suite("Target limit")
struct TargetLimitTests {
    static let limit = RequestLimitMiddleware<StationContext>.maximumTargetLength

    /// `/j/app/radio/channels?x=…`, exactly `length` bytes long.
    static func target(length: Int) -> String {
        let path = "/j/app/radio/channels?x="
        return path + String(repeating: "a", count: length - path.utf8.count)
    }

    /// The status codes of the answers in `bytes`, in order.
    static func statuses(_ bytes: Data) -> [Int] {
        String(decoding: bytes, as: UTF8.self).components(separatedBy: "HTTP/1.1 ").dropFirst().compactMap { Int($0.prefix(3)) }
    }

    @Test("a target one byte over the limit, of 80 KiB and of 100 KiB is 414 uri_too_long; one at the limit is answered")
    func everyLength() async throws {
        try await StationFixtures.withDemoStation { _, base in
            let port = try #require(base.port)
            let atLimit = try await RawHTTP.get(port: port, target: Self.target(length: Self.limit))
            #expect(atLimit.status == 200)
            for length in [Self.limit + 1, 80 * 1024, 80 * 1024 + 1, 100 * 1024] {
                let answer = try await RawHTTP.get(port: port, target: Self.target(length: length))
                #expect(answer.status == 414, "\(length) bytes")
                #expect(answer.text == #"{"err":"uri_too_long","r":1}"#, "\(length) bytes")
                #expect(answer.headers["content-type"] == "application/json; charset=utf-8", "\(length) bytes")
            }
        }
    }

    @Test("behind a GET and a POST whose body looks like a long request line, a 100 KiB target is the third answer, a 414")
    func behindOtherRequests() async throws {
        try await StationFixtures.withDemoStation { _, base in
            let port = try #require(base.port)
            // A body that reads like a request line with a long target: only the framing
            // (its Content-Length) tells it from one.
            let body = "GET /" + String(repeating: "b", count: 10_000) + " HTTP/1.1\r\n"
            let request = LoopbackExchange.get("/j/app/radio/channels")
                + "POST /j/app/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                + "Content-Length: \(body.utf8.count)\r\n\r\n" + body
                + "GET \(Self.target(length: 100 * 1024)) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
            let answer = try await RawHTTP.exchange(port: port, request)
            #expect(Self.statuses(answer.bytes) == [200, 200, 414], "\(answer.head)")
            #expect(String(decoding: answer.bytes, as: UTF8.self).hasSuffix(#"{"err":"uri_too_long","r":1}"#))
        }
    }

    @Test("a header line too long for the parser is still its 400 bad_request, not a 414")
    func longHeaderIsNotALongTarget() async throws {
        try await StationFixtures.withDemoStation { _, base in
            let port = try #require(base.port)
            let answer = try await RawHTTP.exchange(port: port, "GET /j/app/radio/channels HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                + "X-Long: " + String(repeating: "c", count: 100 * 1024) + "\r\nConnection: close\r\n\r\n")
            #expect(answer.status == 400)
            #expect(String(decoding: answer.body, as: UTF8.self) == #"{"err":"bad_request","r":1}"#)
        }
    }

    @Test("the guard follows the framing: a body of the declared length, empty lines before a request line, a chunked body left unwatched")
    func framing() {
        let guardHandler = RequestTargetGuard(limit: 10)
        #expect(guardHandler.state == .method)
        // Driven through an embedded channel: bytes in, what passed on out.
        let channel = EmbeddedChannel(handler: guardHandler)
        func send(_ text: String) -> Bool {
            (try? channel.writeInbound(ByteBuffer(string: text))) != nil
        }
        #expect(send("\r\nPOST /short HTTP/1.1\r\nContent-Length: 12\r\n\r\nGET /xxxxxxx"))
        #expect(guardHandler.state == .method)
        #expect(send("GET /123456789 HTTP/1.1\r\n\r\n"))
        #expect(guardHandler.state == .method && !guardHandler.tripped)
        #expect(!send("GET /1234567890 HTTP/1.1\r\n"))
        #expect(guardHandler.tripped)
        let chunked = RequestTargetGuard(limit: 10)
        let other = EmbeddedChannel(handler: chunked)
        #expect((try? other.writeInbound(ByteBuffer(string: "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"))) != nil)
        #expect(chunked.state == .unwatched)
        _ = try? channel.finish()
        _ = try? other.finish()
    }
}

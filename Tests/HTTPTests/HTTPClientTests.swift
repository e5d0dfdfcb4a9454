import Foundation
import HTTP
import TestSupport
import Testing

/// The libcurl client against a real server on 127.0.0.1.
struct HTTPClientTests {
    func server(files: [String: Data]) async throws -> (StaticFileServer, TemporaryDirectory) {
        let root = try TemporaryDirectory(prefix: "mhz-http")
        for (name, data) in files { try data.write(to: root.path(name)) }
        return (try await StaticFileServer(root: root.url), root)
    }

    @Test func getReturnsStatusHeadersAndExactBytes() async throws {
        let body = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let (server, root) = try await server(files: ["blob.bin": body])
        defer { server.stop(); _ = root }
        let client = HTTPClient()
        let response = try await client.perform(HTTPRequest(
            url: server.url("blob.bin"), headers: [.init("X-Probe", "1")]))
        #expect(response.status == 200)
        #expect(response.body == body)
        #expect(response.header("Content-Length") == "200000")
        let seen = try #require(server.recorder.requests(to: "/blob.bin").first)
        #expect(seen.headers["x-probe"] == "1")
        #expect(seen.headers["user-agent"]?.hasPrefix("mhz/") == true)
    }

    @Test func errorStatusesAreResponsesNotErrors() async throws {
        let (server, root) = try await server(files: [:])
        defer { server.stop(); _ = root }
        let response = try await HTTPClient().perform(HTTPRequest(url: server.url("missing")))
        #expect(response.status == 404)
    }

    @Test func connectionsAreReusedAcrossRequests() async throws {
        let server = try RawHTTPServer { _ in RawHTTPServer.answer(200, "OK", body: Data("a".utf8)) }
        defer { server.stop() }
        let client = HTTPClient()
        for _ in 0..<3 { #expect(try await client.perform(HTTPRequest(url: server.url("/a"))).body == Data("a".utf8)) }
        #expect(server.requests.map(\.connection) == [0, 0, 0])
        #expect(server.connectionsAccepted == 1, "three requests over one TCP connection")
        // The count can tell: a second client has handles, and so connections, of its own.
        _ = try await HTTPClient().perform(HTTPRequest(url: server.url("/a")))
        #expect(server.connectionsAccepted == 2)
    }

    @Test func aRefusedConnectionIsATransientTransportError() async throws {
        // Nothing listens on the discard port on loopback.
        await #expect {
            try await HTTPClient(configuration: HTTPConfiguration(retry: .never))
                .perform(HTTPRequest(url: URL(string: "http://127.0.0.1:9/")!))
        } throws: { error in
            guard case .transport(let code, let detail)? = error as? HTTPError else { return false }
            return code == .couldNotConnect && code.isTransient && !detail.isEmpty
        }
    }

    @Test func aBodyOverTheCapStopsTheTransfer() async throws {
        let (server, root) = try await server(files: ["big": Data(count: 300_000)])
        defer { server.stop(); _ = root }
        let client = HTTPClient(configuration: HTTPConfiguration(maxResponseBytes: 100_000))
        await #expect(throws: HTTPError.responseTooLarge(limit: 100_000)) {
            try await client.perform(HTTPRequest(url: server.url("big")))
        }
    }

    @Test func aServerThatNeverAnswersTimesOut() async throws {
        // A listening socket that accepts (via the backlog) but never answers.
        let (fd, port) = try LoopbackSocket.listen(backlog: 4)
        defer { close(fd) }
        // One attempt: retries of timeouts are RetryTests' business.
        let client = HTTPClient(configuration: HTTPConfiguration(connectTimeout: 1, totalTimeout: 1, retry: .never))
        let started = ContinuousClock.now
        await #expect {
            try await client.perform(HTTPRequest(url: URL(string: "http://127.0.0.1:\(port)/")!))
        } throws: { error in
            guard case .transport(let code, let detail)? = error as? HTTPError else { return false }
            // curl's own clock: the wall clock below also counts a loaded scheduler.
            return code == .timedOut && (CurlTiming.milliseconds(in: detail) ?? .max) < 5000
        }
        #expect(ContinuousClock.now - started < .seconds(30), "no hang")
    }

    @Test func postSendsTheBodyAndANonHTTPURLIsRefused() async throws {
        let server = try RawHTTPServer { _ in RawHTTPServer.answer(200, "OK", body: Data("{\"r\":0}".utf8)) }
        defer { server.stop() }
        // Form text, then bytes a C string would cut short or mangle: NUL, 0xFF, UTF-8.
        let body = Data("alias=a%40b.c&form_password=x%20y".utf8) + Data([0x00, 0xFF, 0x0D, 0x0A]) + Data("兆赫".utf8)
        let response = try await HTTPClient().perform(HTTPRequest(
            method: "POST", url: server.url("/j/app/login"),
            headers: [.init("Content-Type", "application/x-www-form-urlencoded")], body: body))
        #expect(response.status == 200 && response.body == Data("{\"r\":0}".utf8))
        let seen = try #require(server.requests.first)
        #expect(server.requests.count == 1)
        #expect(seen.method == "POST" && seen.target == "/j/app/login")
        #expect(seen.body == body)
        #expect(seen.header("content-length") == String(body.count))
        #expect(seen.header("content-type") == "application/x-www-form-urlencoded")
        #expect(seen.header("expect") == nil, "no 100-continue round trip")

        await #expect(throws: HTTPError.invalidURL("file:///etc/passwd")) {
            try await HTTPClient().perform(HTTPRequest(url: URL(string: "file:///etc/passwd")!))
        }
        #expect(HTTPRequest(method: "POST", url: URL(string: "http://x/")!).idempotent == false)
        #expect(HTTPRequest(url: URL(string: "http://x/")!).idempotent == true)
    }
}

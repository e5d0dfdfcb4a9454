import Backoff
import Foundation
import HTTP
import TestSupport
import Testing

/// Retries: only transient failures, only idempotent requests, with growing delays, and
/// never a login — counted at a recording server on 127.0.0.1.
struct RetryTests {
    let quick = RetryPolicy(maxRetries: 2, backoff: Backoff(initial: 0.05, cap: 2))

    @Test func thePolicyDecidesDelaysInOnePlace() {
        let get = HTTPRequest(url: URL(string: "http://x/")!)
        let post = HTTPRequest(method: "POST", url: URL(string: "http://x/")!)
        let policy = RetryPolicy(maxRetries: 3, backoff: Backoff(initial: 0.5, cap: 1.5))
        let unavailable = Result<HTTPResponse, HTTPError>.success(HTTPResponse(status: 503, body: Data()))
        #expect(policy.delay(after: unavailable, of: get, retriesSoFar: 0) == 0.5)
        #expect(policy.delay(after: unavailable, of: get, retriesSoFar: 1) == 1.0)
        #expect(policy.delay(after: unavailable, of: get, retriesSoFar: 2) == 1.5)
        #expect(policy.delay(after: unavailable, of: get, retriesSoFar: 3) == nil)
        #expect(policy.delay(after: unavailable, of: post, retriesSoFar: 0) == nil)
        for status in [200, 404, 500, 403] {
            #expect(policy.delay(after: .success(HTTPResponse(status: status, body: Data())), of: get, retriesSoFar: 0) == nil)
        }
        for status in [408, 429, 502, 503, 504] {
            #expect(policy.delay(after: .success(HTTPResponse(status: status, body: Data())), of: get, retriesSoFar: 0) == 0.5)
        }
        let refused = Result<HTTPResponse, HTTPError>.failure(.transport(.couldNotConnect, detail: "refused"))
        #expect(policy.delay(after: refused, of: get, retriesSoFar: 0) == 0.5)
        #expect(policy.delay(after: .failure(.invalidURL("ftp://x")), of: get, retriesSoFar: 0) == nil)
        #expect(policy.delay(after: .failure(.responseTooLarge(limit: 1)), of: get, retriesSoFar: 0) == nil)
        let patient = Result<HTTPResponse, HTTPError>.success(
            HTTPResponse(status: 429, headers: [("retry-after", "1")], body: Data()))
        #expect(policy.delay(after: patient, of: get, retriesSoFar: 0) == 1)
        let tooPatient = Result<HTTPResponse, HTTPError>.success(
            HTTPResponse(status: 503, headers: [("retry-after", "120")], body: Data()))
        #expect(policy.delay(after: tooPatient, of: get, retriesSoFar: 0) == nil)
        #expect(RetryPolicy.never.delay(after: unavailable, of: get, retriesSoFar: 0) == nil)
    }

    @Test func a503IsRetriedUntilItClears() async throws {
        let server = try await DoubanTestServer()
        defer { server.stop() }
        server.script("/j/app/radio/channels", [.status(503), .status(503)])
        let client = HTTPClient(configuration: HTTPConfiguration(retry: quick))
        let response = try await client.perform(HTTPRequest(url: server.baseURL.appendingPathComponent("j/app/radio/channels")))
        #expect(response.status == 200)
        #expect(server.calls(to: "/j/app/radio/channels").count == 3)
    }

    @Test func retriesEndAndTheLastStatusComesBack() async throws {
        let server = try await DoubanTestServer()
        defer { server.stop() }
        server.script("/j/app/radio/channels", [.status(502), .status(503), .status(503), .status(503)])
        let client = HTTPClient(configuration: HTTPConfiguration(retry: quick))
        let response = try await client.perform(HTTPRequest(url: server.baseURL.appendingPathComponent("j/app/radio/channels")))
        #expect(response.status == 503)
        #expect(server.calls(to: "/j/app/radio/channels").count == 3)
    }

    @Test func aLoginAndA500AreNeverRetried() async throws {
        let server = try await DoubanTestServer()
        defer { server.stop() }
        server.script("/j/app/login", [.status(503), .status(503)])
        server.script("/j/app/radio/channels", [.status(500), .status(500)])
        let client = HTTPClient(configuration: HTTPConfiguration(retry: quick))
        let login = try await client.perform(HTTPRequest(
            method: "POST", url: server.baseURL.appendingPathComponent("j/app/login"), body: Data("a=1".utf8)))
        #expect(login.status == 503)
        #expect(server.calls(to: "/j/app/login").count == 1)
        let broken = try await client.perform(HTTPRequest(url: server.baseURL.appendingPathComponent("j/app/radio/channels")))
        #expect(broken.status == 500)
        #expect(server.calls(to: "/j/app/radio/channels").count == 1)
    }

    @Test func retryAfterIsHonoured() async throws {
        let server = try await DoubanTestServer()
        defer { server.stop() }
        server.script("/j/app/radio/channels", [.status(429, headers: ["Retry-After": "1"])])
        let client = HTTPClient(configuration: HTTPConfiguration(retry: quick))
        let started = ContinuousClock.now
        let response = try await client.perform(HTTPRequest(url: server.baseURL.appendingPathComponent("j/app/radio/channels")))
        #expect(response.status == 200)
        #expect(ContinuousClock.now - started >= .seconds(1))
        #expect(server.calls(to: "/j/app/radio/channels").count == 2)
    }

    @Test func aRefusedConnectionIsRetriedUntilTheServerIsUp() async throws {
        let port = try Self.freePort()
        // Retries for up to ~20 s: the server may be slow to start on a busy machine.
        let client = HTTPClient(configuration: HTTPConfiguration(retry: RetryPolicy(maxRetries: 12, backoff: Backoff(initial: 0.3, cap: 2))))
        let url = URL(string: "http://127.0.0.1:\(port)/j/app/radio/channels")!
        let request = Task { try await client.perform(HTTPRequest(url: url)) }
        try await Task.sleep(for: .milliseconds(150))
        let server = try await DoubanTestServer(port: port)
        defer { server.stop() }
        let response = try await request.value
        #expect(response.status == 200)
        #expect(server.calls(to: "/j/app/radio/channels").count == 1)
    }

    @Test func aRefusedLoginFailsAtOnceEvenIfTheServerComesUp() async throws {
        let port = try Self.freePort()
        let client = HTTPClient(configuration: HTTPConfiguration(retry: RetryPolicy(maxRetries: 5, backoff: Backoff(initial: 0.3, cap: 2))))
        let url = URL(string: "http://127.0.0.1:\(port)/j/app/login")!
        let request = Task { try await client.perform(HTTPRequest(method: "POST", url: url, body: Data("a=1".utf8))) }
        try await Task.sleep(for: .milliseconds(150))
        let server = try await DoubanTestServer(port: port)
        defer { server.stop() }
        await #expect {
            try await request.value
        } throws: { error in
            guard case .transport(let code, _)? = error as? HTTPError else { return false }
            return code == .couldNotConnect
        }
        // The request has ended (with that error): a retried login would have reached the
        // server once it was up, and succeeded.
        #expect(server.calls.isEmpty)
    }

    /// A port nothing listens on (bound, read, closed: the kernel hands it out again only
    /// after cycling through the ephemeral range).
    static func freePort() throws -> Int {
        let (fd, port) = try LoopbackSocket.listen(backlog: 1)
        close(fd)
        return port
    }
}

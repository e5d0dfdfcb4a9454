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

    @Test func aDroppedConnectionIsRetriedUntilTheServerIsUp() async throws {
        let server = try await DoubanTestServer()
        defer { server.stop() }
        // The proxy stands for a server that is not up yet: it closes each connection unread.
        let proxy = try FaultProxy(upstream: server.baseURL)
        defer { proxy.stop() }
        proxy.setMode(.drop(reset: false))
        // Retries for up to ~20 s: the test may be slow to let the server through on a busy machine.
        let client = HTTPClient(configuration: HTTPConfiguration(retry: RetryPolicy(maxRetries: 12, backoff: Backoff(initial: 0.3, cap: 2))))
        let url = proxy.baseURL.appendingPathComponent("j/app/radio/channels")
        let request = Task { try await client.perform(HTTPRequest(url: url)) }
        // The server comes up only after the first attempt was cut off: the answer can come
        // from a retry alone.
        try await waitUntil("the first attempt dropped") { proxy.counts.dropped >= 1 }
        proxy.setMode(.passThrough)
        let response = try await request.value
        #expect(response.status == 200)
        #expect(server.calls(to: "/j/app/radio/channels").count == 1)
        #expect(proxy.counts.forwarded == 1)
    }

    @Test func aRefusedLoginFailsAtOnceEvenIfTheServerComesUp() async throws {
        // A retry would come a second after a failure: the server is up long before that.
        let client = HTTPClient(configuration: HTTPConfiguration(retry: RetryPolicy(maxRetries: 5, backoff: Backoff(initial: 1, cap: 2))))
        let body = Data("a=1".utf8)
        // Refused (nothing listens): libcurl's failure to connect, which ends the login.
        let port = try Self.freePort()
        let refused = URL(string: "http://127.0.0.1:\(port)/j/app/login")!
        await #expect {
            try await client.perform(HTTPRequest(method: "POST", url: refused, body: body))
        } throws: { error in
            guard case .transport(let code, _)? = error as? HTTPError else { return false }
            return code == .couldNotConnect
        }
        // Whether a failed login is tried again shows at a server that comes up right after
        // the first attempt failed: the proxy drops that attempt's connection unread, then
        // lets every later one through.
        let server = try await DoubanTestServer()
        defer { server.stop() }
        let proxy = try FaultProxy(upstream: server.baseURL)
        defer { proxy.stop() }
        proxy.setMode(.drop(reset: false))
        let url = proxy.baseURL.appendingPathComponent("j/app/login")
        let request = Task { try await client.perform(HTTPRequest(method: "POST", url: url, body: body)) }
        try await waitUntil("the login's first attempt dropped") { proxy.counts.dropped >= 1 }
        proxy.setMode(.passThrough)
        await #expect {
            try await request.value
        } throws: { error in
            guard case .transport(let code, _)? = error as? HTTPError else { return false }
            return code.isTransient
        }
        // The request has ended (with that error): a retried login would have passed the
        // proxy to the server, and succeeded.
        #expect(proxy.counts.dropped == 1 && proxy.counts.forwarded == 0)
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

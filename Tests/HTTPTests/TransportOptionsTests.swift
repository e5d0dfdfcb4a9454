import Backoff
import Foundation
import HTTP
import TestSupport
import Testing

/// The transport's other promises: a proxy from configuration, compression offered, a
/// clear User-Agent, and the two ways a request can take too long.
struct TransportOptionsTests {
    @Test func aConfiguredProxyCarriesTheRequest() async throws {
        // The recording server plays the proxy: libcurl sends it the absolute URL.
        let proxy = try await DoubanTestServer()
        defer { proxy.stop() }
        let client = HTTPClient(configuration: HTTPConfiguration(proxy: proxy.baseURL.absoluteString, retry: .never))
        let response = try await client.perform(HTTPRequest(url: URL(string: "http://radio.invalid/j/app/radio/channels")!))
        #expect(response.status == 200)
        let seen = try #require(proxy.calls(to: "/j/app/radio/channels").first)
        #expect(seen.headers["host"] == "radio.invalid")
    }

    @Test func compressionIsOfferedAndTheAgentNamed() async throws {
        let server = try await DoubanTestServer()
        defer { server.stop() }
        _ = try await HTTPClient().perform(HTTPRequest(url: server.baseURL.appendingPathComponent("j/app/radio/channels")))
        let seen = try #require(server.calls.first)
        #expect(seen.headers["accept-encoding"]?.contains("gzip") == true)
        #expect(seen.headers["user-agent"]?.hasPrefix("mhz/") == true)
        #expect(HTTPConfiguration().verifyTLS)
    }

    @Test func aFiftyMegabyteAnswerStopsAtTheCap() async throws {
        let server = try await DoubanTestServer()
        defer { server.stop() }
        server.script("/j/app/radio/people", [.huge(count: 50 << 20)])
        let client = HTTPClient(configuration: HTTPConfiguration(retry: .never))
        await #expect(throws: HTTPError.responseTooLarge(limit: 8 << 20)) {
            try await client.perform(HTTPRequest(url: server.baseURL.appendingPathComponent("j/app/radio/people")))
        }
    }

    @Test func anAnswerThatNeverComesTimesOutAndEachRetryToo() async throws {
        let silent = try SilentListener()
        let client = HTTPClient(configuration: HTTPConfiguration(
            connectTimeout: 1, totalTimeout: 1, retry: RetryPolicy(maxRetries: 1, backoff: Backoff(initial: 0.1, cap: 8))))
        let started = ContinuousClock.now
        await #expect {
            try await client.perform(HTTPRequest(url: silent.url.appendingPathComponent("j/app/radio/people")))
        } throws: { error in
            guard case .transport(let code, let detail)? = error as? HTTPError else { return false }
            return code == .timedOut && (CurlTiming.milliseconds(in: detail) ?? .max) < 5000
        }
        // Two attempts of 1 s each; the upper bound only says "no hang" on a loaded machine.
        let elapsed = ContinuousClock.now - started
        #expect(elapsed >= .seconds(2) && elapsed < .seconds(30), "\(elapsed)")
        #expect(silent.drainConnections() == 2, "one connection per attempt")
    }
}

import Foundation
import HTTP
import TestSupport
import Testing

/// The two timeouts, each on its own: a connection that is never made ends at the
/// connect timeout however long the total one is, and an answer that never comes ends at
/// the total timeout however long the connect one is. The figures compared are libcurl's
/// own (in its error text), which a loaded scheduler does not stretch; the bounds are far
/// from the other timeout so that load cannot blur which one fired.
struct TimeoutTests {
    /// The milliseconds libcurl names in a timeout ("after 1000 ms" when connecting,
    /// "after 1001 milliseconds" for the whole operation).
    static func milliseconds(in detail: String) -> Int? {
        guard let after = detail.range(of: "after ", options: .backwards) else { return nil }
        let digits = detail[after.upperBound...].prefix { $0.isNumber }
        let unit = detail[after.upperBound...].dropFirst(digits.count)
        guard unit.hasPrefix(" ms") || unit.hasPrefix(" milliseconds") else { return nil }
        return Int(digits)
    }

    @Test func aConnectionThatIsNeverMadeEndsAtTheConnectTimeout() async throws {
        let listener = try FullBacklogListener()
        let client = HTTPClient(configuration: HTTPConfiguration(connectTimeout: 1, totalTimeout: 120, retry: .never))
        let started = ContinuousClock.now
        await #expect {
            try await client.perform(HTTPRequest(url: listener.url.appendingPathComponent("j/app/radio/people")))
        } throws: { error in
            guard case .transport(let code, let detail)? = error as? HTTPError else { return false }
            let spent = Self.milliseconds(in: detail) ?? .max
            return code == .timedOut && code.isTransient && spent >= 900 && spent < 30_000
        }
        #expect(ContinuousClock.now - started < .seconds(90), "ended well before the total timeout")
    }

    @Test func anAnswerThatNeverComesEndsAtTheTotalTimeout() async throws {
        let silent = try SilentListener()
        let client = HTTPClient(configuration: HTTPConfiguration(connectTimeout: 120, totalTimeout: 1, retry: .never))
        let started = ContinuousClock.now
        await #expect {
            try await client.perform(HTTPRequest(url: silent.url.appendingPathComponent("j/app/radio/people")))
        } throws: { error in
            guard case .transport(let code, let detail)? = error as? HTTPError else { return false }
            let spent = Self.milliseconds(in: detail) ?? .max
            return code == .timedOut && spent >= 900 && spent < 30_000
        }
        #expect(ContinuousClock.now - started < .seconds(90), "no hang")
        #expect(silent.drainConnections() == 1, "the connection itself was made")
    }
}

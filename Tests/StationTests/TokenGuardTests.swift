import Foundation
import RadioAPI
@testable import Station
import Testing

/// Token guessing is held off per address: slowed, then refused for a while, in Douban's
/// error shape; requests answered in-process are never counted.
@Suite("Token guard")
struct TokenGuardTests {
    private static let limits = TokenGuard.Limits(slowAfter: 2, refuseAfter: 4, delay: .milliseconds(300),
                                                  lockout: .seconds(60))

    @Test("open, then slowed after slowAfter failures, then refused after refuseAfter; other addresses unaffected")
    func verdicts() {
        let guardian = TokenGuard(limits: Self.limits)
        #expect(guardian.verdict(for: "10.0.0.1") == .open)
        guardian.recordFailure(from: "10.0.0.1")
        #expect(guardian.verdict(for: "10.0.0.1") == .open)
        guardian.recordFailure(from: "10.0.0.1")
        #expect(guardian.verdict(for: "10.0.0.1") == .slowed(.milliseconds(300)))
        guardian.recordFailure(from: "10.0.0.1")
        guardian.recordFailure(from: "10.0.0.1")
        guard case .refused(let remaining) = guardian.verdict(for: "10.0.0.1") else {
            Issue.record("not refused after 4 failures")
            return
        }
        #expect(remaining > .seconds(50) && remaining <= .seconds(60))
        #expect(guardian.verdict(for: "10.0.0.2") == .open)
        // In-process requests have no address: never counted, never held off.
        for _ in 0..<10 { guardian.recordFailure(from: nil) }
        #expect(guardian.verdict(for: nil) == .open)
    }

    @Test("over HTTP: wrong tokens answer expired until the address is refused with too_many_attempts, even with a right token")
    func overHTTP() async throws {
        try await StationFixtures.withDemoStation(tokenGuard: Self.limits) { station, base in
            let alice = try await StationFixtures.signIn("alice", station: station, base: base)
            let people = "/j/app/radio/people?app_name=radio_android&version=100&channel=0&type=n&sid="
            for guess in ["0000000001", "0000000002", "0000000003", "0000000004"] {
                let answer = try await HTTPFetch.get(base, people + "&user_id=1000001&expire=1&token=\(guess)")
                #expect(answer.text == #"{"err":"expired","r":1}"#)
            }
            #expect(try await HTTPFetch.get(base, people + alice).text == #"{"err":"too_many_attempts","r":1}"#)
            #expect(try await HTTPFetch.get(base, "/j/app/radio/liked_songs?app_name=radio_android&version=100" + alice).text
                    == #"{"err":"too_many_attempts","r":1}"#)
            // The embedded station's in-process answers are not held off.
            let inProcess = await station.respond(method: "GET", path: "/j/app/radio/people",
                                                  query: "app_name=radio_android&version=100&channel=0&type=n&sid=")
            #expect(try APIDecoder.playlist(inProcess.body, for: .new).songs.count == 5)
        }
    }
}

import Foundation
@testable import Station
import Testing
import TestSupport

/// A station that cannot listen says why in the system's words (`strerror`'s, getaddrinfo's),
/// not in NIO's Swift description of the failed call (`bind(descriptor:ptr:bytes:): … (errno: 99)`).
@Suite("Bind failures")
struct BindFailureTests {
    /// Starts a station on `host` and returns the reason its start failed with.
    private static func reason(host: String) async throws -> String? {
        let data = try await StationFixtures.freshDataDirectory()
        var configuration = StationConfiguration(library: nil, dataDirectory: data.url, host: host, seed: 7, rescanInterval: nil)
        configuration.analysesSound = false
        let station = try await Station(configuration: configuration)
        do throws(StationError) {
            _ = try await station.start()
            await station.stop()
            return nil
        } catch {
            guard case .bindFailed(_, let reason) = error else {
                Issue.record("unexpected \(error)")
                return nil
            }
            withExtendedLifetime(data) {}
            return reason
        }
    }

    @Test("an address this machine does not have, and a name nothing resolves: the system's words, no call, no errno")
    func systemWords() async throws {
        // 192.0.2.1 is TEST-NET-1 (RFC 5737): never an address of this machine.
        let unassigned = try await Self.reason(host: "192.0.2.1")
        #expect(unassigned == String(cString: strerror(EADDRNOTAVAIL)))
        let unknown = try await Self.reason(host: "no-such-host.invalid")
        // getaddrinfo(3)'s words: no such name, or (where no resolver answers) a failure to ask.
        #expect([EAI_NONAME, EAI_AGAIN, EAI_FAIL].map { String(cString: gai_strerror($0)) }.contains(unknown ?? ""), "\(unknown ?? "")")
        for reason in [unassigned, unknown] {
            #expect(reason.map { !$0.contains("errno") && !$0.contains("(") && !$0.contains(")") } == true, "\(reason ?? "")")
        }
    }
}

import Foundation
import HTTP
import Radio
import RadioAPI
import Settings
import TerminalUI
import TestSupport
import Testing
@testable import mhz

/// A station on HTTPS whose certificate nobody trusts (`openssl s_server`, self-signed):
/// through the seam it is ``ServiceFailure/untrusted(_:)`` with one line saying what to
/// do, in the terminal UI's words and the command line's; `verify_tls = false` in the
/// config, and only that, lets mhz read its channels.
struct TLSStationTests {
    static let channels = Data(#"{"channels":[{"name":"私人兆赫","channel_id":0},{"name":"华语","channel_id":"1"}]}"#.utf8)

    /// A runtime of the seam's pointed at `server`, with `config`'s HTTP settings.
    static func runtime(_ seam: Seam, server: URL, config: Config) throws -> RadioRuntime {
        let own = try seam.runtime(.app, config: config)
        return RadioRuntime(paths: own.paths, config: config, family: .app, baseURL: server,
                            sessionKey: RadioRuntime.sessionKey(server: server), station: nil, http: own.http)
    }

    @Test func anUntrustedCertificateIsTypedAndWordedAndVerifyTLSFalseReadsTheStation() async throws {
        let station = try await TLSTestServer(files: ["j/app/radio/channels": Self.channels])
        defer { station.stop() }
        let seam = try await Seam()
        defer { seam.server.stop() }

        let strict = try Self.runtime(seam, server: station.baseURL, config: Config())
        var caught: ServiceFailure?
        do {
            _ = try await strict.stationClient(logger: seam.log.logger).channels()
        } catch {
            caught = error
        }
        let detail = "SSL certificate problem: self-signed certificate"
        #expect(caught == .untrusted(detail))
        #expect(ErrorText.describe(.service(.untrusted(detail))) == "Station has a TLS certificate that is not trusted "
            + "(\(detail)) — check --server; set verify_tls = false in the config only if you trust this server.")
        #expect(ErrorText.describe(.untrusted(detail), for: .command(server: station.baseURL.absoluteString))
            == "\(station.baseURL.absoluteString) has a TLS certificate that is not trusted (\(detail)): check "
            + "--server; set verify_tls = false in the config only if you trust this server")

        var trusting = Config()
        trusting.verifyTLS = false
        let lenient = try Self.runtime(seam, server: station.baseURL, config: trusting)
        let listed = try await lenient.stationClient(logger: seam.log.logger).channels()
        #expect(listed == [ChannelInfo(id: "0", name: "私人兆赫"), ChannelInfo(id: "1", name: "华语")])
    }

    @Test func theCommandLineSaysSoInOneLineAndTheConfigSwitchLetsItThrough() async throws {
        let station = try await TLSTestServer(files: ["j/app/radio/channels": Self.channels])
        defer { station.stop() }
        let home = try TemporaryDirectory(prefix: "mhz-cli-tls")
        let arguments = ["channels", "--server", station.baseURL.absoluteString, "--data-dir", home.path("data").path]
        let refused = try await BuiltMhz.run(arguments, home: home.url)
        #expect(refused.status == 1)
        #expect(refused.stderr == "mhz: \(station.baseURL.absoluteString) has a TLS certificate that is not trusted "
            + "(SSL certificate problem: self-signed certificate): check --server; set verify_tls = false in the "
            + "config only if you trust this server\n")

        let config = home.path("config.toml")
        try "verify_tls = false\n".write(to: config, atomically: true, encoding: .utf8)
        let listed = try await BuiltMhz.run(arguments + ["--config", config.path], home: home.url)
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout == "0  私人兆赫\n1  华语\n")
    }
}

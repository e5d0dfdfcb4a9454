import Foundation
import HTTP
import TestSupport
import Testing

/// `mhz serve` with `--tls-cert/--tls-key` (a self-signed pair made by the real openssl):
/// HTTPS that a client without verification logs in and plays through, plain HTTP to the
/// same port refused; a bad pair is one line and exit 1 before anything binds; and plain
/// HTTP beyond loopback starts with the exact warning, on every start.
@Suite(.serialized)
struct ServeTLSTests {
    /// A client that does not verify the station's certificate. Each test makes its own and
    /// lets it go before it stops the station: a client kept for the whole run would hold its
    /// connections open, and the station waits for them when it stops.
    private static func insecureClient() -> HTTPClient {
        HTTPClient(configuration: HTTPConfiguration(connectTimeout: 30, totalTimeout: 60, verifyTLS: false, retry: .never))
    }

    /// Logs in over HTTPS and lists the personal channel, whose song the station serves
    /// under its own HTTPS address; returns the token. Its client (and its connections)
    /// goes when it returns.
    private static func logInAndList(_ base: URL) async throws -> String {
        let insecure = insecureClient()
        let login = try await insecure.perform(HTTPRequest(
            method: "POST", url: URL(string: base.absoluteString + "/j/app/login")!,
            headers: [.init("Content-Type", "application/x-www-form-urlencoded")],
            body: Data("app_name=radio_android&version=100&username=dana&password=\(Setup.password)".utf8)))
        let json = try #require(try JSONSerialization.jsonObject(with: login.body) as? [String: Any])
        #expect(json["err"] as? String == "ok")
        let token = try #require(json["token"] as? String)
        let list = try await insecure.perform(HTTPRequest(url: URL(string: base.absoluteString
            + "/j/app/radio/people?app_name=radio_android&version=100&user_id=1000001&expire=1&token=\(token)"
            + "&channel=0&type=n&sid=")!))
        let playlist = try #require(try JSONSerialization.jsonObject(with: list.body) as? [String: Any])
        let song = try #require((playlist["song"] as? [[String: Any]])?.first?["url"] as? String)
        #expect(song.hasPrefix(base.absoluteString + "/media/"))
        return token
    }

    @Test func serveWithACertificateServesHTTPSAndRefusesPlainHTTP() async throws {
        let setup = try await Setup.make()
        let server = try BuiltMhz(["serve", "--data-dir", setup.data, "--port", "0", "--library", setup.music,
                                 "--host", "0.0.0.0", "--tls-cert", setup.cert.path, "--tls-key", setup.key.path],
                                home: setup.home.url, environment: ["MHZ_LOG_LEVEL": "trace"])
        defer { server.kill() }
        let base = try await server.servedURL()
        #expect(base.scheme == "https" && base.host == "127.0.0.1")
        // TLS on a wildcard address: no warning.
        #expect(!server.stderr.contains("warning"))

        let token = try await Self.logInAndList(base)

        // Plain HTTP to the TLS port gets no HTTP answer.
        let plain = URL(string: "http://127.0.0.1:\(base.port!)/j/app/radio/channels")!
        await #expect(throws: HTTPError.self) { _ = try await Self.insecureClient().perform(HTTPRequest(url: plain)) }

        // A pair that does not match: one line, exit 1, and before binding (the port is
        // taken by the server above, yet the complaint is about the key).
        let mismatched = try await BuiltMhz.run(
            ["serve", "--data-dir", setup.home.path("other").path, "--port", "\(base.port!)", "--library", setup.music,
             "--tls-cert", setup.cert.path, "--tls-key", setup.otherKey.path], home: setup.home.url)
        #expect(mismatched.status == 1)
        #expect(mismatched.stderr == "mhz: the key \(setup.otherKey.path) is not the private key of the certificate "
            + "\(setup.cert.path): check --tls-cert and --tls-key\n")
        let missing = try await BuiltMhz.run(
            ["serve", "--data-dir", setup.data, "--port", "0", "--library", setup.music,
             "--tls-cert", setup.home.path("nothing.pem").path, "--tls-key", setup.key.path], home: setup.home.url)
        #expect(missing.status == 1)
        #expect(missing.stderr == "mhz: cannot use \(setup.home.path("nothing.pem").path) for TLS (no such file):"
            + " check --tls-cert and --tls-key\n")
        // One without the other is a usage error.
        let half = try await BuiltMhz.run(["serve", "--data-dir", setup.data, "--tls-cert", setup.cert.path],
                                        home: setup.home.url)
        #expect(half.status == 2)
        #expect(half.stderr.contains("--tls-cert and --tls-key go together: give both or neither"))

        server.terminate()
        #expect(try await server.exit() == 0)
        // The station's trace log (stderr) holds neither the password nor the token.
        #expect(!server.stderr.contains(Setup.password))
        #expect(!server.stderr.contains(token))
    }

    @Test func plainHTTPBeyondLoopbackWarnsOnEveryStartAndLoopbackDoesNot() async throws {
        let setup = try await Setup.make()
        let warning = "mhz: warning: serving plain HTTP on 0.0.0.0: passwords and tokens cross the network in clear;"
            + " give --tls-cert/--tls-key to serve HTTPS"
        for _ in 0..<2 {
            // At notice: the lines asked about, without the info lines of the scan and the analysis.
            let server = try BuiltMhz(["serve", "--data-dir", setup.data, "--port", "0", "--library", setup.music,
                                     "--host", "0.0.0.0"], home: setup.home.url, environment: ["MHZ_LOG_LEVEL": "notice"])
            defer { server.kill() }
            let base = try await server.servedURL()
            #expect(base.scheme == "http")
            let lines = server.stderr.split(separator: "\n").map(String.init)
            #expect(lines.count == 2)
            #expect(lines.first == warning)
            #expect(lines.last?.hasPrefix("mhz: serving 1 songs from ") == true)
            server.terminate()
            #expect(try await server.exit() == 0)
        }
        for host in ["127.0.0.1", "127.1.2.3", "localhost", "::1"] {
            let server = try BuiltMhz(["serve", "--data-dir", setup.data, "--port", "0", "--library", setup.music,
                                     "--host", host], home: setup.home.url)
            defer { server.kill() }
            _ = try await server.servedURL()
            #expect(!server.stderr.contains("warning"), "--host \(host): \(server.stderr)")
            server.terminate()
            #expect(try await server.exit() == 0)
        }
    }

    /// A home with a music folder of one song, an account `dana`, and two self-signed pairs.
    private struct Setup {
        static let password = "s3cret-pass-7"
        let home: TemporaryDirectory
        let data: String
        let music: String
        let cert: URL
        let key: URL
        let otherKey: URL

        static func make() async throws -> Setup {
            let home = try TemporaryDirectory(prefix: "mhz-serve-tls")
            let music = home.path("music")
            try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
            let setup = Setup(home: home, data: home.path("data").path, music: music.path, cert: home.path("cert.pem"),
                              key: home.path("key.pem"), otherKey: home.path("other-key.pem"))
            try await offPool {
                try MediaFactory.tone(at: music.appendingPathComponent("one.mp3"), seconds: 1)
                try TLSTestServer.makeSelfSignedPair(certificate: setup.cert, key: setup.key)
                try TLSTestServer.makeSelfSignedPair(certificate: home.path("other-cert.pem"), key: setup.otherKey)
            }
            let added = try await BuiltMhz.run(["serve", "--add-user", "dana", "--password-stdin", "--data-dir", setup.data],
                                             home: home.url, stdin: password + "\n")
            guard added.status == 0 else { throw TestSupportError.toolFailed("add-user: \(added.stderr)") }
            return setup
        }
    }
}

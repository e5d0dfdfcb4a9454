import Foundation
import HTTP
@testable import Station
import TestSupport
import Testing

/// The station over HTTPS with a self-signed certificate made by the real openssl: a
/// client that does not verify gets the same answers, with song links in `https`; plain
/// HTTP to the same port gets none; a key that is not the certificate's, or a file that
/// is no PEM, fails when the station is created, before anything binds.
@Suite("Station TLS")
struct StationTLSTests {
    private static let insecure = HTTPClient(configuration: HTTPConfiguration(
        connectTimeout: 30, totalTimeout: 60, maxRedirects: 0, verifyTLS: false, retry: .never))
    private static let verifying = HTTPClient(configuration: HTTPConfiguration(
        connectTimeout: 30, totalTimeout: 60, maxRedirects: 0, retry: .never))

    @Test("HTTPS answers the API with https links; plain HTTP and a verifying client get nothing")
    func servesHTTPS() async throws {
        let files = try TemporaryDirectory(prefix: "mhz-station-tls")
        let cert = files.path("cert.pem"), key = files.path("key.pem")
        try await offPool { try TLSTestServer.makeSelfSignedPair(certificate: cert, key: key) }
        let data = try await StationFixtures.freshDataDirectory()
        let station = try await Station(configuration: StationConfiguration(
            library: nil, dataDirectory: data.url, tls: StationTLS(certificate: cert, key: key), seed: 7,
            rescanInterval: nil))
        let base = try await station.start()
        try await withCleanup {
            #expect(base.scheme == "https")
            let people = try await Self.insecure.perform(HTTPRequest(url: URL(string: base.absoluteString
                + "/j/app/radio/people?app_name=radio_android&version=100&channel=0&type=n&sid=")!))
            #expect(people.status == 200)
            let json = try #require(try JSONSerialization.jsonObject(with: people.body) as? [String: Any])
            let songs = try #require(json["song"] as? [[String: Any]])
            #expect(songs.count == 5)
            let link = try #require(songs.first?["url"] as? String)
            #expect(link.hasPrefix(base.absoluteString + "/media/"))
            // The song itself comes over TLS too.
            let song = try await Self.insecure.perform(HTTPRequest(url: URL(string: link)!))
            #expect(song.status == 200 && song.body.count > 1000)

            // Plain HTTP to the TLS port: no HTTP answer at all.
            var plain = base.absoluteString
            plain.replaceSubrange(plain.range(of: "https")!, with: "http")
            await #expect(throws: HTTPError.self) {
                _ = try await Self.insecure.perform(HTTPRequest(url: URL(string: plain + "/j/app/radio/channels")!))
            }
            // A client that verifies refuses the self-signed certificate.
            await #expect(throws: HTTPError.self) {
                _ = try await Self.verifying.perform(HTTPRequest(url: URL(string: base.absoluteString + "/j/app/radio/channels")!))
            }
        } cleanup: {
            await station.stop()
        }
    }

    @Test("a key that is not the certificate's, a missing file and a file that is no PEM fail at creation")
    func badPairs() async throws {
        let files = try TemporaryDirectory(prefix: "mhz-station-tls-bad")
        let cert = files.path("cert.pem"), key = files.path("key.pem")
        let otherCert = files.path("other-cert.pem"), otherKey = files.path("other-key.pem")
        try await offPool {
            try TLSTestServer.makeSelfSignedPair(certificate: cert, key: key)
            try TLSTestServer.makeSelfSignedPair(certificate: otherCert, key: otherKey)
        }
        let junk = files.path("junk.pem")
        try Data("not a certificate\n".utf8).write(to: junk)
        let data = try await StationFixtures.freshDataDirectory()
        func create(_ tls: StationTLS) async -> StationError? {
            do {
                let station = try await Station(configuration: StationConfiguration(
                    library: nil, dataDirectory: data.url, tls: tls, rescanInterval: nil))
                _ = station
                return nil
            } catch {
                return error
            }
        }
        #expect(await create(StationTLS(certificate: cert, key: otherKey))
                == .tlsMismatch(certificate: cert.path, key: otherKey.path))
        #expect(await create(StationTLS(certificate: files.path("missing.pem"), key: key))
                == .tlsUnreadable(path: files.path("missing.pem").path, reason: "no such file"))
        #expect(await create(StationTLS(certificate: junk, key: key))
                == .tlsUnreadable(path: junk.path, reason: "not a PEM certificate"))
        #expect(await create(StationTLS(certificate: cert, key: junk))
                == .tlsUnreadable(path: junk.path, reason: "not a PEM private key"))
    }
}

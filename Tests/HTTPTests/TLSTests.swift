import Foundation
import HTTP
import TestSupport
import Testing

/// TLS verification against a real HTTPS server on 127.0.0.1 (`openssl s_server`) whose
/// certificate is self-signed: refused by default with the typed TLS error, read when the
/// configuration explicitly turns verification off.
struct TLSTests {
    static let hello = Data("hello over TLS\n".utf8)

    @Test func aSelfSignedCertificateIsRefusedByDefault() async throws {
        let server = try await TLSTestServer(files: ["hello.txt": Self.hello])
        defer { server.stop() }
        // Retries stay at their default: a failed verification must not be retried.
        let client = HTTPClient()
        #expect(client.configuration.verifyTLS)
        await #expect {
            try await client.perform(HTTPRequest(url: server.url("hello.txt")))
        } throws: { error in
            guard case .tls(let code, let detail)? = error as? HTTPError else { return false }
            return code == .peerFailedVerification && code.isTLSVerification && !code.isTransient
                && detail.contains("self-signed certificate") && !detail.contains("\n")
        }
        #expect(!HTTPError.tls(.peerFailedVerification, detail: "x").isTransient)
    }

    @Test func verificationTurnedOffReadsTheAnswer() async throws {
        let server = try await TLSTestServer(files: ["hello.txt": Self.hello])
        defer { server.stop() }
        let client = HTTPClient(configuration: HTTPConfiguration(verifyTLS: false, retry: .never))
        let response = try await client.perform(HTTPRequest(url: server.url("hello.txt")))
        #expect(response.status == 200)
        #expect(response.body == Self.hello)
    }
}

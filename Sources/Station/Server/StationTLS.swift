import Foundation
import HummingbirdTLS
import NIOSSL

/// The certificate and key a station serves HTTPS with (`mhz serve --tls-cert/--tls-key`),
/// both PEM files. Without them the station speaks plain HTTP, which is what the embedded
/// station and loopback use.
public struct StationTLS: Sendable, Equatable {
    /// The certificate chain, leaf first (PEM).
    public var certificate: URL
    /// The leaf's private key (PEM, unencrypted: the server starts unattended).
    public var key: URL

    /// Names the two files; nothing is read until the station is created.
    public init(certificate: URL, key: URL) {
        self.certificate = certificate
        self.key = key
    }

    /// Reads both files and checks that the key belongs to the certificate, so a wrong
    /// pair fails before anything binds rather than at the first client's handshake.
    ///
    /// - Throws: ``StationError/tlsUnreadable(path:reason:)`` for a file that cannot be
    ///   read or holds no PEM certificate or key; ``StationError/tlsMismatch(certificate:key:)``
    ///   when the key is not the certificate's.
    func serverConfiguration() throws(StationError) -> TLSConfiguration {
        let chain: [NIOSSLCertificate]
        do {
            chain = try NIOSSLCertificate.fromPEMFile(certificate.path)
        } catch {
            throw .tlsUnreadable(path: certificate.path, reason: Self.reason(file: certificate, kind: "certificate"))
        }
        // An empty chain parses from a file with no PEM block in it.
        guard !chain.isEmpty else { throw .tlsUnreadable(path: certificate.path, reason: "no PEM certificate in it") }
        let privateKey: NIOSSLPrivateKey
        do {
            privateKey = try NIOSSLPrivateKey(file: key.path, format: .pem)
        } catch {
            throw .tlsUnreadable(path: key.path, reason: Self.reason(file: key, kind: "private key"))
        }
        let configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(privateKey))
        // BoringSSL compares the key with the leaf's public key when a context loads them.
        do {
            _ = try NIOSSLContext(configuration: configuration)
        } catch {
            throw .tlsMismatch(certificate: certificate.path, key: key.path)
        }
        return configuration
    }

    /// A short reason: the system's words for a file that is missing or unreadable, else
    /// "not a PEM certificate/private key" (BoringSSL's error stack says nothing a person
    /// can act on).
    private static func reason(file: URL, kind: String) -> String {
        if !FileManager.default.fileExists(atPath: file.path) { return "no such file" }
        if !FileManager.default.isReadableFile(atPath: file.path) { return "permission denied" }
        return "not a PEM \(kind)"
    }
}

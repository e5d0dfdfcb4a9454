import Foundation

/// An HTTPS server on 127.0.0.1 with a freshly generated self-signed certificate: the
/// real `openssl s_server` in its `-WWW` mode, which serves the files of a directory
/// (`GET /a/b` answers `./a/b` with `HTTP/1.0 200 ok`). A client that verifies
/// certificates must refuse it; one told not to must read the files.
///
/// The certificate names 127.0.0.1 (subject and subjectAltName), so the only thing wrong
/// with it is that nobody trusts its issuer: a refusal is about trust, not the host name.
public final class TLSTestServer: Sendable {
    /// `https://127.0.0.1:<port>`.
    public let baseURL: URL
    private let process: Process
    private let input: Pipe
    private let root: TemporaryDirectory

    /// Generates the key and certificate, writes `files` (path → bytes, paths relative
    /// to the server's root, `j/app/radio/channels`), starts the server and returns once
    /// it has said which port it accepts on.
    ///
    /// - Throws: ``TestSupportError/toolFailed(_:)`` when openssl is missing or fails;
    ///   ``TestSupportError/timeout(_:)`` when the server never names its port.
    public init(files: [String: Data]) async throws {
        root = try TemporaryDirectory(prefix: "mhz-tls")
        for (path, data) in files {
            let url = root.path(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url)
        }
        try Self.makeSelfSignedPair(certificate: root.path("cert.pem"), key: root.path("key.pem"))
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.currentDirectoryURL = root.url
        // Port 0: the kernel picks a free one and s_server prints it ("ACCEPT 127.0.0.1:43125").
        process.arguments = ["s_server", "-accept", "127.0.0.1:0", "-cert", "cert.pem", "-key", "key.pem", "-WWW"]
        // Held open for the server's life: s_server must never see its stdin end.
        input = ChildLaunch.pipe()
        let output = ChildLaunch.pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let said = Locked(Data())
        // Started first: a launch that fails leaves no reader blocked on the pipe.
        try ChildLaunch.run(process)
        PipeReader.drain(output.fileHandleForReading, name: "openssl-s_server") { chunk in
            said.withLock { $0.append(chunk) }
        }
        // Generous: the port is printed at once on an idle machine, later on a busy one.
        let port = try? await waitForValue("s_server's port", within: .seconds(60)) { [process] () throws -> Int? in
            if let port = Self.port(in: String(decoding: said.value, as: UTF8.self)) { return port }
            guard process.isRunning else { throw TestSupportError.serverDidNotStart }
            return nil
        }
        guard let port else {
            process.killAndReap()
            throw TestSupportError.timeout("openssl s_server named no port: \(String(decoding: said.value, as: UTF8.self))")
        }
        baseURL = URL(string: "https://127.0.0.1:\(port)")!
    }

    /// Stops the server and waits for it to be gone. `s_server` ignores SIGTERM and, in
    /// `-WWW` mode, never reads its stdin, so only SIGKILL ends it.
    public func stop() {
        try? input.fileHandleForWriting.close()
        process.killAndReap()
    }

    deinit { stop() }

    /// A URL on the server.
    public func url(_ path: String) -> URL { baseURL.appendingPathComponent(path) }

    /// The port in s_server's `ACCEPT 127.0.0.1:<port>` line, once the whole line has
    /// arrived (a line cut off mid-number would name another port).
    static func port(in text: String) -> Int? {
        guard let start = text.range(of: "ACCEPT "),
              let end = text[start.upperBound...].firstIndex(of: "\n"),
              let colon = text[start.upperBound..<end].lastIndex(of: ":")
        else { return nil }
        return Int(text[text.index(after: colon)..<end].trimmingCharacters(in: .whitespaces))
    }

    /// Generates a fresh self-signed certificate for 127.0.0.1 (subject and
    /// subjectAltName) and its P-256 key, both PEM, with the real openssl.
    ///
    /// - Throws: ``TestSupportError/toolFailed(_:)`` when openssl is missing or fails.
    public static func makeSelfSignedPair(certificate: URL, key: URL) throws {
        try openssl(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                     "-keyout", key.path, "-out", certificate.path, "-days", "2",
                     "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"],
                    in: certificate.deletingLastPathComponent())
    }

    private static func openssl(_ arguments: [String], in directory: URL) throws {
        try Tool.succeed("/usr/bin/openssl", arguments, directory: directory)
    }
}

import Foundation
import Synchronization

/// HLS test streams made by the project's copy of `make-hls-fixture.sh` (in
/// `Tests/Fixtures/`, with its source line): plain multi-bitrate, AES-128 with explicit and
/// implicit IVs, key rotation, byte ranges and fMP4, 23.9 s of a 440 Hz tone each, verified
/// by the script itself. Generated once per test process (it runs ffmpeg about twenty
/// times), off the cooperative pool, into a temporary folder removed at exit.
public enum HLSFixture {
    /// The generated tree.
    public struct Streams: Sendable {
        /// The output folder (`clear/master.m3u8`, `aes-explicit-iv/index.m3u8`, …).
        public let folder: URL
        /// `expected.env` as a dictionary (`DURATION`, `SEGMENTS`, `KEY_HEX`, …).
        public let expected: [String: String]

        /// A path inside the folder.
        public func path(_ relative: String) -> URL { folder.appendingPathComponent(relative) }

        /// The stream length in seconds the script was asked for.
        public var duration: Double { Double(expected["DURATION"] ?? "") ?? 23.9 }
    }

    private static let generation = Mutex<Task<Streams, any Error>?>(nil)

    /// The streams, generating them on first use.
    /// - Throws: `TestSupportError.toolFailed` with the script's output when it fails.
    public static func streams() async throws -> Streams {
        let task = generation.withLock { task in
            if let task { return task }
            let created = Task { try await offPool { try generate() } }
            task = created
            return created
        }
        return try await task.value
    }

    /// The script, found relative to this source file: tests read nothing outside the
    /// repository.
    static var script: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/make-hls-fixture.sh")
    }

    private static func generate() throws -> Streams {
        let folder = TemporaryDirectory.processShared.appendingPathComponent("hls")
        var environment = ProcessInfo.processInfo.environment
        environment["SERVE_CHECK"] = "0"
        let made = try Tool.run("/bin/bash", [script.path, folder.path], environment: environment, mergingErrors: true)
        guard made.status == 0 else { throw TestSupportError.toolFailed("make-hls-fixture.sh: " + made.text) }
        let env = (try? String(contentsOf: folder.appendingPathComponent("expected.env"), encoding: .utf8)) ?? ""
        var expected: [String: String] = [:]
        for line in env.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { expected[String(parts[0])] = String(parts[1]) }
        }
        return Streams(folder: folder, expected: expected)
    }
}

import Foundation
import HTTP
import MhzVersion
import Testing
import TestSupport

/// One version, everywhere mhz says it: `mhz --version` (with the commit it was built from),
/// the station's `Server` header, the User-Agent of mhz's requests.
struct VersionTests {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("mhz --version prints the version and the commit the binary was built from, and exits 0")
    func versionLine() async throws {
        let head = try await offPool { try Tool.run("git", ["-C", Self.repository.path, "rev-parse", "HEAD"]) }
        let commit = String(head.text.prefix(12))
        #expect(head.status == 0 && commit.count == 12, "\(head.errors)")
        let version = try await BuiltMhz.run(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout == "mhz \(MhzVersion.number) (commit \(commit))\n", "built before the last commit? \(version.stdout)")
        #expect(version.stderr.isEmpty)
        // The number is MAJOR.MINOR.PATCH.
        let parts = MhzVersion.number.split(separator: ".")
        #expect(parts.count == 3 && parts.allSatisfy { Int($0) != nil }, "\(MhzVersion.number)")
    }

    @Test("the station's answers carry Server: mhz/VERSION, and mhz's requests say it in their User-Agent")
    func serverAndUserAgent() async throws {
        let home = try TemporaryDirectory(prefix: "mhz-version")
        defer { home.remove() }
        let music = home.path("music")
        try await offPool {
            try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
            try MediaFactory.tone(at: music.appendingPathComponent("a.flac"), seconds: 1)
        }
        let station = try BuiltMhz(["serve", "--data-dir", home.path("data").path, "--port", "0", "--library", music.path],
                                   home: home.url)
        try await station.whileRunning { station in
            let base = try await station.servedURL()
            for path in ["/j/app/radio/channels", "/", "/nothing-here"] {
                let root = base.absoluteString.hasSuffix("/") ? String(base.absoluteString.dropLast()) : base.absoluteString
                let url = root + path
                let head = try await offPool { try Tool.run("curl", ["-sS", "-D", "-", "-o", "/dev/null", url]) }
                let server = head.text.split(separator: "\r\n").first { $0.lowercased().hasPrefix("server:") }
                #expect(server.map { $0.dropFirst("server:".count).trimmingCharacters(in: .whitespaces) }
                            == "mhz/\(MhzVersion.number)", "\(path): \(head.text)")
            }
            station.terminate()
            #expect(try await station.exit() == 0)
        }
        #expect(HTTPConfiguration().userAgent == "mhz/\(MhzVersion.number) (+https://github.com/mhz-radio/mhz)")
    }
}

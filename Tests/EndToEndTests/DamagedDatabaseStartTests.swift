import Foundation
import TestSupport
import Testing

/// A damaged `mhz.sqlite` at start (overwritten, cut short): the built mhz keeps it aside,
/// says so once, and plays on a new database.
struct DamagedDatabaseStartTests {
    @Test func aDamagedDatabaseIsKeptAsideAndMhzPlaysOnANewOne() async throws {
        let server = try await DoubanTestServer()
        defer { server.stop() }
        let home = try TemporaryDirectory(prefix: "mhz-damaged-db")
        let data = home.path("data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        let garbage = Data(repeating: 0x5A, count: 8192)
        try garbage.write(to: data.appendingPathComponent("mhz.sqlite"))
        let arguments = ["--headless", "--server", server.baseURL.absoluteString, "--audio-output", "null",
                         "--data-dir", data.path]
        let environment = ["XDG_CONFIG_HOME": home.path("config").path, "HOME": home.url.path]
        let mhz = try BuiltMhz(arguments, environment: environment)
        try await mhz.whileRunning { mhz in
            _ = try await mhz.waitFor("playing")
            mhz.send("quit")
            #expect(try await mhz.exit() == 0)
        }
        // The damaged file is kept byte for byte beside the new one.
        let names = try FileManager.default.contentsOfDirectory(atPath: data.path)
        let kept = try #require(names.first { $0.hasPrefix("mhz.sqlite.damaged-") && !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") })
        #expect(try Data(contentsOf: data.appendingPathComponent(kept)) == garbage)
        // One line on stderr, and the same news as the first event on stdout.
        #expect(mhz.stderr == "mhz: mhz.sqlite was damaged (file is not a database): kept as \(kept) and started anew "
            + "— saved positions, unsent reports and the download list begin empty\n")
        let first = try #require(mhz.events.first)
        #expect(first.name == "error")
        #expect(first["message"] == "The database was damaged (file is not a database): kept as \(kept) and started anew — "
            + "saved positions, unsent reports and the download list begin empty.")
        // The new database is whole: the next start says nothing.
        try await BuiltMhz(arguments, environment: environment).whileRunning { again in
            _ = try await again.waitFor("playing")
            again.send("quit")
            #expect(try await again.exit() == 0)
            #expect(again.stderr.isEmpty)
        }
    }
}

import Foundation
import TestSupport
import Testing

/// The built mhz with its data directory on a real file system that fills up: a 4 MiB
/// tmpfs mounted in a mount namespace of mhz's own (`unshare`), so nothing outlives mhz,
/// filled from outside through `/proc/PID/root`.
struct FullDiskTests {
    /// Writes zeros to `path` until the file system is full; returns the bytes written and
    /// the errno that stopped it.
    static func fill(_ path: String) -> (bytes: Int, errno: Int32) {
        let fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return (0, errno) }
        defer { close(fd) }
        let block = [UInt8](repeating: 0, count: 64 * 1024)
        var total = 0
        while true {
            let written = block.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if written < 0 { return (total, errno) }
            if written == 0 { return (total, 0) }
            total += written
        }
    }

    @Test func aFullDiskIsSaidInWordsPlaybackGoesOnAndTheLikeReachesTheStationOnce() async throws {
        var server = try await DoubanTestServer()
        let port = try #require(server.baseURL.port)
        let home = try TemporaryDirectory(prefix: "mhz-full")
        let data = home.path("data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        // The station is shut down after mhz is killed, however the test ends; the one
        // running then (the first, or the one started on its address after it).
        try await withCleanup {
            try await BuiltMhz(
                ["--headless", "--server", server.baseURL.absoluteString, "--audio-output", "null",
                 "--data-dir", data.path, "--channel", "0"],
                environment: ["XDG_CONFIG_HOME": home.path("config").path, "HOME": home.url.path,
                              "XDG_RUNTIME_DIR": home.path("run").path],
                prelude: ["mount -t tmpfs -o size=4m mhz-full-disk '\(data.path)'"],
                launcher: ["/usr/bin/unshare", "--mount", "--map-root-user"]).whileRunning { mhz in
                let playing = try await mhz.waitFor("playing")
                let sid = try #require(playing.event["sid"])

                // The disk fills up, and the station goes away: the like can neither be written
                // nor sent.
                let filler = "/proc/\(mhz.pid)/root\(data.path)/filler"
                let filled = Self.fill(filler)
                #expect(filled.errno == ENOSPC, "filled \(filled.bytes) bytes")
                await server.shutDown()
                mhz.send("like")
                let full = try await mhz.waitFor("error", after: playing.index) { ($0["message"] ?? "").hasPrefix("The disk is full") }
                #expect(full.event["message"] == "The disk is full: could not save progress or reports — playback goes on "
                        + "and mhz saves again when there is room; free some space on the data directory's disk.")
                let liked = try await mhz.waitFor("liked", after: playing.index)
                #expect(liked.event["sid"] == sid)
                // Asked until the like is counted: the event may be told before the outbox has it.
                let waiting = try await mhz.status(after: liked.index) { $0.number("pending_reports") == 1 }
                #expect(waiting.event["sid"] == sid, "playback goes on")

                // Room again, and the station back on its address: the like is written, then sent
                // once; the radio plays on.
                #expect(unlink(filler) == 0)
                server = try await DoubanTestServer(port: port)
                func likes() -> [String?] {
                    server.calls(to: "/j/app/radio/people").filter { $0.parameter("type") == "r" }.map { $0.parameter("sid") }
                }
                _ = await eventually(within: .seconds(30)) { !likes().isEmpty }
                #expect(likes() == [sid])
                mhz.send("skip")
                let next = try await mhz.waitFor("playing", after: waiting.index, timeout: 30)
                #expect(next.event["sid"] != sid)
                // The skip's `s` went behind the like on the same line: once it arrived, nothing
                // before it can come again.
                _ = await eventually(within: .seconds(30)) {
                    server.calls(to: "/j/app/radio/people").contains { $0.parameter("type") == "s" }
                }
                let feedback = server.calls(to: "/j/app/radio/people").compactMap { call -> String? in
                    guard let type = call.parameter("type"), ["r", "s"].contains(type) else { return nil }
                    return "\(type) \(call.parameter("sid") ?? "-")"
                }
                #expect(feedback == ["r \(sid)", "s \(sid)"])
                mhz.send("quit")
                #expect(try await mhz.exit() == 0)
            }
        } cleanup: {
            await server.shutDown()
        }
    }
}

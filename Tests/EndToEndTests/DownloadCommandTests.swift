import Foundation
import TestSupport
import Testing

/// `mhz download` and `mhz downloads`, the real binary against a misbehaving local server:
/// a kill -9 mid-file, failures with one line each, a full disk, the list and its actions.
@Suite(.serialized)
struct DownloadCommandTests {
    let served: TemporaryDirectory
    let home: TemporaryDirectory
    let server: FaultyMediaServer
    let blob: Data

    init() throws {
        served = try TemporaryDirectory(prefix: "mhz-dl-served")
        home = try TemporaryDirectory(prefix: "mhz-dl-home")
        // Not all alike, so an offset error shows; a plain URL's file is kept byte for byte.
        var generator = SystemRandomNumberGenerator()
        blob = Data((0..<1_500_000).map { _ in UInt8.random(in: 0...255, using: &generator) })
        try blob.write(to: served.path("big.mp3"))
        server = try FaultyMediaServer(root: served.url)
    }

    var downloads: URL { home.path("data/downloads") }

    func mhz(_ arguments: [String], fileSizeLimitKiB: Int? = nil) throws -> MhzProcess {
        let process = try MhzProcess(arguments: arguments + ["--data-dir", home.path("data").path],
                                     environment: ["HOME": home.url.path, "XDG_CONFIG_HOME": home.path("config").path],
                                     fileSizeLimitKiB: fileSizeLimitKiB)
        process.closeInput()
        return process
    }

    func size(_ url: URL) -> Int { (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? -1 }

    static func sha256sum(_ url: URL) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        process.arguments = [url.path]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return String(text.prefix(64))
    }

    @Test func killedMidFileItContinuesFromTheBytesOnDiskAndTheFileIsWhole() async throws {
        // 1.5 MB at 150 kB/s: ten seconds, so the kill lands midway even when the progress
        // line reaches the test late on a busy machine.
        server.script("/big.mp3") { _, start in start == nil ? .throttle(bytesPerSecond: 150_000) : .serve }
        let first = try mhz(["download", "--json", server.url("big.mp3")])
        try await first.waitFor("download", timeout: 30) { ($0.number("bytes") ?? 0) > 400_000 }
        first.signal(SIGKILL)
        _ = try await first.waitForExit()
        let part = downloads.appendingPathComponent("big.mp3.part")
        let kept = size(part)
        // Bytes reach the file 256 kB at a time: at least one such step was written.
        #expect(kept >= 256 * 1024 && kept < blob.count, "\(kept)")
        #expect(!FileManager.default.fileExists(atPath: downloads.appendingPathComponent("big.mp3").path))

        let second = try mhz(["download", "--json", server.url("big.mp3")])
        #expect(try await second.waitForExit(timeout: 60) == 0, "\(second.errorOutput)")
        let final = downloads.appendingPathComponent("big.mp3")
        #expect(try Self.sha256sum(final) == (try Self.sha256sum(served.path("big.mp3"))))
        #expect(!FileManager.default.fileExists(atPath: part.path))
        // Exactly one plain GET, then one Range request from the bytes on disk, answered
        // with the rest only.
        try await waitUntil { server.requests(to: "/big.mp3").count == 2 }
        let requests = server.requests(to: "/big.mp3").sorted { ($0.rangeStart ?? -1) < ($1.rangeStart ?? -1) }
        #expect(requests.map(\.rangeStart) == [nil, kept])
        #expect(requests[1].status == 206)
        #expect(requests[1].sent == blob.count - kept, "the bytes already on disk were not fetched again")
        let done = try #require(second.all.last { $0.name == "download" })
        #expect(done["state"] == "completed")
        #expect(done["id"] == "1", "the same task, not a second one")
        #expect(done["path"] == final.path)
        #expect(done["title"] == "big")
        #expect(done.number("bytes") == Double(blob.count))
        #expect(done.fields["sid"] is NSNull && done.fields["error"] is NSNull)
    }

    @Test func failedDownloadsExitOneWithOneLineEach() async throws {
        server.script("/gone.mp3") { _, _ in .status(404) }
        server.script("/login.mp3") { _, _ in .html }
        let run = try mhz(["download", server.url("big.mp3"), server.url("gone.mp3"), server.url("login.mp3")])
        #expect(try await run.waitForExit(timeout: 60) == 1)
        let lines = run.errorOutput.split(separator: "\n").map(String.init).sorted()
        #expect(lines.count == 2, "\(run.errorOutput)")
        #expect(lines.first?.hasPrefix("mhz: download 2 (gone): the server has no such file (HTTP 404)") == true, "\(lines)")
        #expect(lines.last?.hasPrefix("mhz: download 3 (login): the server sent a web page (text/html; charset=utf-8) instead of audio")
                == true, "\(lines)")
        #expect(run.lines.contains("1 completed: big → \(downloads.appendingPathComponent("big.mp3").path)"), "\(run.lines)")
        #expect(FileManager.default.contents(atPath: downloads.appendingPathComponent("big.mp3").path) == blob)
        #expect(try FileManager.default.contentsOfDirectory(atPath: downloads.path).sorted() == ["big.mp3"],
                "nothing is left of the failed ones")
    }

    @Test func aFullDiskFailsTheTaskWithItsReasonAndKeepsTheBytes() async throws {
        let run = try mhz(["download", server.url("big.mp3")], fileSizeLimitKiB: 200)
        #expect(try await run.waitForExit(timeout: 60) == 1)
        #expect(run.errorOutput.contains("mhz: download 1 (big): no space left for \(downloads.appendingPathComponent("big.mp3.part").path): free some space, then retry"),
                "\(run.errorOutput)")
        #expect(size(downloads.appendingPathComponent("big.mp3.part")) == 200 * 1024)
        let list = try mhz(["downloads", "--json"])
        #expect(try await list.waitForExit() == 0)
        let row = try #require(list.all.first)
        #expect(row["state"] == "failed")
        #expect(row["error"]?.hasPrefix("no space left") == true)
        // With room again, a resume continues from the bytes kept.
        let resume = try mhz(["downloads", "resume", "1"])
        #expect(try await resume.waitForExit(timeout: 60) == 0, "\(resume.errorOutput)")
        #expect(FileManager.default.contents(atPath: downloads.appendingPathComponent("big.mp3").path) == blob)
        #expect(server.requests(to: "/big.mp3").last?.rangeStart == 200 * 1024)
    }

    @Test func theListAndRemove() async throws {
        let get = try mhz(["download", server.url("big.mp3")])
        #expect(try await get.waitForExit(timeout: 60) == 0)
        let list = try mhz(["downloads"])
        #expect(try await list.waitForExit() == 0)
        #expect(list.lines == ["   1  completed 1.5 MB  big  \(downloads.appendingPathComponent("big.mp3").path)"])
        let remove = try mhz(["downloads", "remove", "1"])
        #expect(try await remove.waitForExit() == 0)
        #expect(!FileManager.default.fileExists(atPath: downloads.appendingPathComponent("big.mp3").path))
        let empty = try mhz(["downloads"])
        #expect(try await empty.waitForExit() == 0)
        #expect(empty.lines.first?.hasPrefix("no downloads") == true)
        let unknown = try mhz(["downloads", "pause", "9"])
        #expect(try await unknown.waitForExit() == 1)
        #expect(unknown.errorOutput == "mhz: there is no download 9: `mhz downloads` lists them\n")
        let usage = try mhz(["downloads", "stop", "1"])
        #expect(try await usage.waitForExit() == 2)
    }

    func waitUntil(_ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while !condition() {
            guard ContinuousClock.now < deadline else { throw TestSupportError.timeout("condition") }
            try await Task.sleep(for: .milliseconds(50))
        }
    }
}

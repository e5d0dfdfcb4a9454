import Foundation
import HTTP
import TestSupport
import Testing

/// `mhz serve` as a user runs it, abused: it raises its descriptor limit so that every
/// connection can be taken; its memory (the kernel's `VmRSS` of the real
/// process) stays bounded while 500 connections that send nothing are held open and while
/// 10 MB forms are posted, and an ordinary client's channel list comes back unchanged, about
/// as fast as before, while the connections are held.
struct ServeAbuseTests {
    /// Growth of the station's resident memory the abuse may cause: a station that kept
    /// a 10 MB form, or a megabyte a connection, would blow it.
    private static let memoryBound = 64 * 1024 * 1024
    private static let form = 10 * 1024 * 1024

    /// The project's libcurl client, without retries: each request reaches the station once.
    private static let http = HTTPClient(configuration: HTTPConfiguration(totalTimeout: 60, retry: .never))

    @Test func memoryStaysBoundedUnder500IdleConnectionsAnd10MBForms() async throws {
        let home = try TemporaryDirectory(prefix: "mhz-serve-abuse")
        let music = home.path("music")
        try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
        try await offPool { try MediaFactory.tone(at: music.appendingPathComponent("one.mp3"), seconds: 1) }
        // Started with a soft descriptor limit of 256, below the 500 connections: the station
        // raises it to the hard limit, or could not take them all.
        let server = try BuiltMhz(["serve", "--data-dir", home.path("data").path, "--port", "0", "--library", music.path],
                                  home: home.url, prelude: ["ulimit -Sn 256"])
        defer { server.kill() }
        let base = try await server.servedURL()
        let port = try #require(base.port)
        let pid = server.pid
        let limits = try Self.openFileLimits(pid: pid)
        #expect(limits.soft == limits.hard && limits.hard != "256", "Max open files: \(limits)")
        let channelsURL = URL(string: base.absoluteString + "/j/app/radio/channels")!
        let channels = try await Self.http.perform(HTTPRequest(url: channelsURL)).body
        #expect(String(decoding: channels, as: UTF8.self).hasPrefix(#"{"channels":[{"#))
        let ordinary: () async throws -> Void = {
            let answer = try await Self.http.perform(HTTPRequest(url: channelsURL))
            #expect(answer.status == 200)
            #expect(answer.body == channels)
        }

        // Warm up every path the abuse takes, so what they allocate once is in the baseline.
        for _ in 0..<10 { try await ordinary() }
        for framing in [OversizedPost.Framing.declared, .chunked] {
            let refused = try await offPool { try OversizedPost.send(port: port, path: "/j/app/login", size: Self.form,
                                                                      framing: framing) }
            #expect(refused.status == 413)
        }
        let baseline = try ProcessMemory.residentBytes(pid: pid)
        let before = try await Latency.median(samples: 20, ordinary)

        let idle = try await offPool { try IdleConnections(port: port, count: 500) }
        defer { idle.close() }
        // Accepted, each one a descriptor of the station's.
        _ = await eventually(within: .seconds(20)) { ((try? ProcessSockets.accepted(pid: pid, port: port)) ?? 0) >= 500 }
        #expect(try ProcessSockets.accepted(pid: pid, port: port) >= 500)
        let during = try await Latency.median(samples: 20, ordinary)
        let withConnections = try ProcessMemory.residentBytes(pid: pid)
        idle.close()
        print("mhz serve: VmRSS \(baseline / 1024) KiB; with 500 idle connections \(withConnections / 1024) KiB; "
            + "channels p50 before \(before), during \(during)")
        #expect(withConnections - baseline < Self.memoryBound, "VmRSS \(baseline) → \(withConnections) bytes")
        #expect(Latency.isUsual(during, before: before), "p50 before \(before), during 500 idle connections \(during)")

        for (path, framing) in [("/j/app/login", OversizedPost.Framing.declared), ("/j/app/login", .chunked),
                                ("/j/login", .declared), ("/j/login", .chunked), ("/j/app/login", .declared)] {
            let refused = try await offPool { try OversizedPost.send(port: port, path: path, size: Self.form, framing: framing) }
            #expect(refused.status == 413)
            #expect(refused.closedByServer)
        }
        let afterForms = try ProcessMemory.residentBytes(pid: pid)
        print("mhz serve: VmRSS after five 10 MB forms \(afterForms / 1024) KiB")
        #expect(afterForms - baseline < Self.memoryBound, "VmRSS \(baseline) → \(afterForms) bytes")
        try await ordinary()
    }

    /// The soft and hard limits of `Max open files` in `/proc/<pid>/limits`, as written.
    private static func openFileLimits(pid: Int32) throws -> (soft: String, hard: String) {
        let table = try String(contentsOfFile: "/proc/\(pid)/limits", encoding: .utf8)
        // "Max open files            20000                20000                files"
        guard let line = table.split(separator: "\n").first(where: { $0.hasPrefix("Max open files") }) else {
            throw TestSupportError.toolFailed("no Max open files in /proc/\(pid)/limits")
        }
        let words = line.dropFirst("Max open files".count).split(separator: " ")
        guard words.count >= 2 else { throw TestSupportError.toolFailed("Max open files: \(line)") }
        return (String(words[0]), String(words[1]))
    }
}

import Foundation
import TestSupport
import Testing

/// `mhz serve`'s restart on SIGHUP runs the command again in the same process; what its
/// parent handed it stays open through the restart, as it would through any other moment
/// of the process's life. A supervisor that learns of the process's end when a pipe or
/// socket it handed over closes (Foundation's `Process` among them) must not take a
/// restart for an exit.
struct ServeRestartDescriptorTests {
    @Test("SIGHUP: descriptor 7, handed over by the parent, stays open on the same file through two restarts")
    func aRestartKeepsWhatTheParentHandedOver() async throws {
        let home = try TemporaryDirectory(prefix: "mhz-serve-fds")
        let music = home.path("music")
        try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
        try await offPool { try MediaFactory.tone(at: music.appendingPathComponent("one.mp3"), seconds: 1) }
        let lifeline = home.path("lifeline")
        // The shell opens descriptor 7 (without close-on-exec) and then becomes mhz.
        let server = try BuiltMhz(["serve", "--data-dir", home.path("data").path, "--port", "0", "--library", music.path],
                                  home: home.url, prelude: ["exec 7>>'\(lifeline.path)'"])
        try await server.whileRunning { server in
            _ = try await server.servedURL()
            #expect(Self.target(of: 7, in: server.pid) == lifeline.path)
            for restart in 2...3 {
                server.signal(SIGHUP)
                // Each run says it serves once it is up.
                try await waitUntil("restart \(restart) serving: \(server.stderr)", within: .seconds(60)) {
                    server.stderr.components(separatedBy: "\n").filter { $0.hasPrefix("mhz: serving ") }.count >= restart
                }
                #expect(Self.target(of: 7, in: server.pid) == lifeline.path, "after restart \(restart - 1)")
            }
            server.terminate()
            #expect(try await server.exit() == 0, "\(server.stderr)")
        }
    }

    /// What descriptor `descriptor` of process `pid` is open on; nil when it is closed.
    private static func target(of descriptor: Int32, in pid: Int32) -> String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(descriptor)")
    }
}

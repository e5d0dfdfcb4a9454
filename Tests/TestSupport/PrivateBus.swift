import Foundation

/// A dbus-daemon of the test's own on a socket in a temporary directory: a session bus with
/// no service directories (so nothing is activated behind a test's back: no playerctld, no
/// notification daemon) and a policy that lets every connection own any name and monitor.
///
/// The test process's own environment never names it: its address goes to `DesktopBus` as a
/// parameter and to child processes in their environment (`environment`).
public final class PrivateBus: Sendable {
    /// The daemon's address, as it printed it (`unix:path=…,guid=…`).
    public let address: String
    private let process: Process
    private let directory: TemporaryDirectory

    /// Starts the daemon and returns once it has printed its address (it listens by then).
    public init() async throws {
        directory = try TemporaryDirectory(prefix: "mhz-dbus")
        let config = directory.path("session.conf")
        try """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>unix:path=\(directory.path("bus").path)</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
        </busconfig>
        """.write(to: config, atomically: true, encoding: .utf8)
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        process.arguments = ["--config-file=\(config.path)", "--nofork", "--print-address=1"]
        let output = ChildLaunch.pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        let printed = Locked(Data())
        try ChildLaunch.run(process)
        PipeReader.drain(output.fileHandleForReading, name: "dbus-daemon") { chunk in
            printed.withLock { $0.append(chunk) }
        }
        let line = try? await waitForValue("dbus-daemon's address", within: .seconds(30)) { [process] () throws -> String? in
            let text = String(decoding: printed.value, as: UTF8.self)
            if let end = text.firstIndex(of: "\n") { return String(text[..<end]) }
            guard process.isRunning else { throw TestSupportError.toolFailed(text) }
            return nil
        }
        guard let line, line.hasPrefix("unix:") else {
            process.killAndReap()
            throw TestSupportError.toolFailed("dbus-daemon printed no address: \(String(decoding: printed.value, as: UTF8.self))")
        }
        address = line
    }

    /// The environment of a child process that is to use this bus as its session bus.
    public var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = address
        return environment
    }

    /// Ends the daemon (every connection on it ends with it) and waits until it is gone.
    public func stop() { process.killAndReap() }

    deinit { stop() }
}

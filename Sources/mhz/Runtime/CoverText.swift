import Dispatch
import Foundation
import TerminalUI

/// A song's cover drawn for the terminal UI's now-playing screen: chafa's symbol output
/// in the 256-colour palette, read into `CoverArt` so ncurses can draw it cell by cell.
enum CoverText {
    /// How long chafa may take before it is killed. A cover takes it tens of
    /// milliseconds; a file that makes it hang must not keep a thread and a process.
    static let timeout = DispatchTimeInterval.seconds(5)

    /// chafa's arguments for at most `columns` × `rows` cells: symbols only, colours as
    /// 256-colour SGR codes (what `CoverArt(sgr:)` reads and most terminals show), no
    /// terminal queries or cursor codes (`--polite on`), and one still frame should the
    /// file be an animation.
    static func arguments(for image: URL, columns: Int, rows: Int) -> [String] {
        ["--format", "symbols", "--colors", "256", "--polite", "on", "--animate", "off",
         "--size", "\(columns)x\(rows)", image.path]
    }

    /// The renderer `TerminalApp` calls off its UI thread.
    static let renderer: CoverRenderer = { file, columns, rows in art(of: file, columns: columns, rows: rows) }

    /// `image` drawn by chafa in at most `columns` × `rows` cells, or nil when chafa is not
    /// on `environment`'s PATH, fails, draws nothing or is still running after `timeout`
    /// (it is then killed). Blocks until chafa has ended.
    static func art(of image: URL, columns: Int, rows: Int,
                    environment: [String: String] = ProcessInfo.processInfo.environment,
                    timeout: DispatchTimeInterval = timeout) -> CoverArt? {
        guard columns > 0, rows > 0, let chafa = CaptchaViewer.chafa(environment: environment) else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: chafa)
        process.arguments = arguments(for: image, columns: columns, rows: rows)
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        // SIGKILL, not Process.terminate's SIGTERM: chafa inherits SIGTERM ignored (the
        // radio's `SignalTrap` ignores it to catch it) or blocked (test-runner threads).
        let watchdog = DispatchWorkItem { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
        // A blocking read to the end: readabilityHandler crashes in this process.
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        watchdog.cancel()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else { return nil }
        let art = CoverArt(sgr: String(decoding: data, as: UTF8.self))
        return art.height == 0 ? nil : art
    }
}

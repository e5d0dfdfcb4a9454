import Foundation
import TerminalUI

/// The harness's cover renderer: chafa run as mhz's `CoverText` runs it (same arguments,
/// found on PATH the same way), read with `CoverArt(sgr:)`. The harness cannot link the
/// `mhz` executable, so this is a copy; the tests of `CoverText` itself are in
/// NetworkTests. Nil when chafa is not on PATH or fails, as there.
enum ChafaCover {
    /// Draws `file` in at most `columns` × `rows` cells.
    static func render(_ file: URL, columns: Int, rows: Int) -> CoverArt? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        guard let chafa = path.split(separator: ":").map({ "\($0)/chafa" })
            .first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: chafa)
        process.arguments = ["--format", "symbols", "--colors", "256", "--polite", "on", "--animate", "off",
                             "--size", "\(columns)x\(rows)", file.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        let art = CoverArt(sgr: String(decoding: data, as: UTF8.self))
        return art.height == 0 ? nil : art
    }
}

import Foundation

/// Finds external tools on PATH. The benchmarks install nothing: a tool that is not there
/// is reported as missing, and its measurements are left out.
public enum Executable {
    /// The full path of `name` on PATH, or nil when it is not installed.
    public static func find(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Throws ``BenchError/noMhz(path:)`` unless `path` is an executable file: the mhz a
    /// benchmark measures, checked before anything is set up for it.
    public static func requireMhz(_ path: String) throws(BenchError) {
        guard FileManager.default.isExecutableFile(atPath: path) else { throw .noMhz(path: path) }
    }
}

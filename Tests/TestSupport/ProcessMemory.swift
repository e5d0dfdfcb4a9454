import Foundation

/// A process's memory as the kernel accounts it, from `/proc/<pid>/status`.
public enum ProcessMemory {
    /// The resident set (`VmRSS`) of process `pid`, in bytes.
    /// - Throws: `TestSupportError.toolFailed` when the file cannot be read or has no
    ///   `VmRSS` line (the process has ended).
    public static func residentBytes(pid: Int32) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        // "VmRSS:\t   12345 kB"
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kilobytes = line.split(separator: " ", omittingEmptySubsequences: true)
                .compactMap({ Int($0.trimmingCharacters(in: .whitespaces)) }).first
        else { throw TestSupportError.toolFailed("no VmRSS in /proc/\(pid)/status") }
        return kilobytes * 1024
    }
}

import Foundation

/// What a result depends on besides mhz: the machine and the tools, printed above the table
/// so a number is never read without them.
enum Machine {
    /// Lines: date, cores, CPU, RAM, OS, kernel, and the versions of the tools found.
    static func describe(tools: [String: String?]) -> [String] {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model = cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .map { $0.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "" } ?? "unknown"
        let meminfo = (try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8)) ?? ""
        let memKiB = meminfo.split(separator: "\n").first { $0.hasPrefix("MemTotal:") }
            .flatMap { Double($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
        let release = (try? String(contentsOfFile: "/etc/os-release", encoding: .utf8)) ?? ""
        let os = release.split(separator: "\n").first { $0.hasPrefix("PRETTY_NAME=") }
            .map { $0.dropFirst("PRETTY_NAME=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) } ?? "unknown"
        var name = utsname()
        uname(&name)
        let kernel = withUnsafeBytes(of: &name.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let formatter = ISO8601DateFormatter()
        var lines = ["date: \(formatter.string(from: Date()))",
                     "machine: \(ProcessInfo.processInfo.activeProcessorCount) cores (nproc), \(model), "
                         + String(format: "%.1f GiB RAM", memKiB / 1_048_576) + ", \(os), Linux \(kernel)",
                     "load average at start: \(loadAverage())"]
        for (tool, version) in tools.sorted(by: { $0.key < $1.key }) {
            lines.append("\(tool): \(version ?? "not found")")
        }
        return lines
    }

    /// The first line `executable arguments` prints, or nil.
    static func version(_ executable: String?, _ arguments: [String]) -> String? {
        guard let executable else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        guard (try? process.run()) != nil else { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).split(separator: "\n").first.map(String.init)
    }

    /// `/proc/loadavg`'s first three fields.
    static func loadAverage() -> String {
        let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? ""
        return text.split(separator: " ").prefix(3).joined(separator: " ")
    }
}

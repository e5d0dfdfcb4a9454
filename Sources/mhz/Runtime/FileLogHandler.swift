import Foundation
import Logging
import Synchronization

/// A swift-log handler appending lines to a file, so the terminal UI's screen stays clean
/// and problems can still be read afterwards (`mhz.log` in the data dir).
struct FileLogHandler: LogHandler {
    private let sink: Sink
    private let label: String
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .info

    /// One open file shared by every logger.
    final class Sink: Sendable {
        private let handle: Mutex<FileHandle?>

        init(url: URL) {
            if !FileManager.default.fileExists(atPath: url.path) {
                // A file that cannot be made shows as no handle just below.
                _ = FileManager.default.createFile(atPath: url.path, contents: nil, attributes: [.posixPermissions: 0o600])
            }
            let handle = try? FileHandle(forWritingTo: url)
            _ = try? handle?.seekToEnd()
            self.handle = Mutex(handle)
        }

        func write(_ line: String) {
            handle.withLock { _ = try? $0?.write(contentsOf: Data(line.utf8)) }
        }
    }

    init(label: String, sink: Sink) {
        self.label = label
        self.sink = sink
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        let extra = merged.isEmpty ? "" : " " + merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        let stamp = Self.timestamp()
        sink.write("\(stamp) \(event.level) \(label): \(event.message)\(extra)\n")
    }

    /// Now in UTC as ISO 8601 to the second (`2026-11-24T17:14:23Z`), through the C
    /// library: Foundation's ISO 8601 style would resolve the local time zone through ICU,
    /// loading megabytes of its data for a log line.
    static func timestamp(_ seconds: time_t = time(nil)) -> String {
        var clock = seconds
        var parts = tm()
        guard gmtime_r(&clock, &parts) != nil else { return "?" }
        var buffer = [CChar](repeating: 0, count: 32)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%SZ", &parts)
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

import Downloads
import Foundation

/// Shows download events on stdout: a progress bar per task redrawn in place on a
/// terminal, one JSON object per line with `--json`, else one plain line per change of state.
final class DownloadProgressPrinter: @unchecked Sendable {
    /// How events are written.
    enum Style {
        /// Bars redrawn in place (stdout is a terminal).
        case bars
        /// One JSON line per event.
        case json
        /// One line per change of state (stdout is a pipe or a file).
        case lines
    }

    private let style: Style
    private var order: [Int64] = []
    private var shown: [Int64: DownloadTask] = [:]
    private var drawnLines = 0
    private let lock = NSLock()

    /// A printer in `style`.
    init(style: Style) { self.style = style }

    /// The style for this process's stdout: bars on a terminal, lines otherwise.
    static func style(json: Bool) -> Style {
        json ? .json : (isatty(STDOUT_FILENO) == 1 ? .bars : .lines)
    }

    /// Writes one event.
    func show(_ event: DownloadEvent) {
        lock.lock()
        defer { lock.unlock() }
        switch style {
        case .json:
            write(DownloadJSON.line(event.task) + "\n")
        case .lines:
            guard !event.isProgress else { return }
            write(Self.plain(event.task) + "\n")
        case .bars:
            if shown[event.task.id] == nil { order.append(event.task.id) }
            shown[event.task.id] = event.task
            redraw()
        }
    }

    private func redraw() {
        var out = drawnLines > 0 ? "\u{1B}[\(drawnLines)A" : ""
        let width = Self.terminalWidth()
        for id in order {
            guard let task = shown[id] else { continue }
            out += "\r\u{1B}[2K" + Self.bar(task, width: width) + "\n"
        }
        drawnLines = order.count
        write(out)
    }

    /// `  3 running  [#######.......]  48%  1.2 MB/2.5 MB  640 kB/s  Artist - Title`
    static func bar(_ task: DownloadTask, width: Int) -> String {
        let state = task.state.name.padding(toLength: 9, withPad: " ", startingAt: 0)
        var line = String(format: "%3lld ", task.id) + state + " "
        if let total = task.total, total > 0 {
            let fraction = min(1, Double(task.bytes) / Double(total))
            let cells = 20, filled = Int(fraction * Double(cells))
            line += "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: cells - filled) + "] "
            line += String(format: "%3.0f%%  ", fraction * 100)
            line += "\(DownloadText.size(task.bytes))/\(DownloadText.size(total))  "
        } else {
            line += DownloadText.size(task.bytes) + "  "
        }
        if task.state == .running, task.rate > 0 { line += "\(DownloadText.size(Int64(task.rate)))/s  " }
        line += DownloadText.name(task)
        if let reason = DownloadText.reason(task) { line += " — " + reason }
        return String(line.prefix(max(20, width - 1)))
    }

    /// `3 completed: Artist - Title → /path` and the like.
    static func plain(_ task: DownloadTask) -> String {
        var line = "\(task.id) \(task.state.name): \(DownloadText.name(task))"
        if task.state == .completed { line += " → \(task.record.path)" }
        if let reason = DownloadText.reason(task) { line += " — " + reason }
        return line
    }

    private static func terminalWidth() -> Int {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }

    private func write(_ text: String) { FileHandle.standardOutput.write(Data(text.utf8)) }
}

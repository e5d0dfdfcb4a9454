import Radio

/// The downloads view (`D`): every download with its state, a progress bar and its rate,
/// the selected one paused or resumed with `p`, canceled with `x`, retried with `r`.
///
/// The value holds only the selection; the downloads come from each snapshot, so the view
/// follows them as they move without a stale row.
public struct DownloadsView: Sendable, Equatable {
    /// What a key press asks of the caller.
    public enum Outcome: Sendable, Equatable {
        /// Nothing beyond redrawing.
        case stay
        /// Close the view.
        case close
        /// Send this command (about the selected download); the view stays open.
        case send(RadioCommand)
    }

    /// The selected download's id; nil selects the first.
    public private(set) var selectedID: Int64?

    /// Opens the view with `id` selected.
    public init(selecting id: Int64?) { selectedID = id }

    /// Where the selection is in `items`, or nil when there are none.
    public func selectedIndex(_ items: [DownloadItem]) -> Int? {
        guard !items.isEmpty else { return nil }
        return items.firstIndex { $0.id == selectedID } ?? 0
    }

    /// Applies one key press to the view of `items`.
    public mutating func handle(_ key: Key, items: [DownloadItem], keymap: Keymap) -> Outcome {
        let action = keymap.action(for: key, in: [.downloads])
        if action == .close { return .close }
        guard let index = selectedIndex(items) else { return .stay }
        let item = items[index]
        switch action {
        case .moveSelection(let step):
            selectedID = items[min(items.count - 1, max(0, index + step))].id
            return .stay
        case .pauseDownload:
            switch item.state {
            case .paused: return .send(.downloadControl(.resume, id: item.id))
            case .queued, .running, .waiting: return .send(.downloadControl(.pause, id: item.id))
            case .completed, .failed, .canceled: return .stay
            }
        case .cancelDownload:
            return item.state == .completed || item.state == .canceled ? .stay : .send(.downloadControl(.cancel, id: item.id))
        case .retryDownload:
            switch item.state {
            case .failed, .canceled, .paused, .waiting: return .send(.downloadControl(.retry, id: item.id))
            case .queued, .running, .completed: return .stay
            }
        default:
            return .stay
        }
    }

    // MARK: - Rendering

    /// The view as plain lines, exactly `height` × `width`.
    public func render(_ snapshot: RadioSnapshot, width: Int, height: Int, keymap: Keymap = .standard) -> [String] {
        frame(snapshot, width: width, height: height, keymap: keymap).lines
    }

    /// The view with a style per line; the selected row is `.selected`, failed rows alert.
    public func frame(_ snapshot: RadioSnapshot, width: Int, height: Int, keymap: Keymap = .standard) -> Frame {
        let margin = Frame.margin(width: width)
        let indent = String(repeating: " ", count: margin)
        let inner = max(0, width - 2 * margin)
        let items = snapshot.downloads.items
        let active = snapshot.downloads.active.count
        var frame = Frame(width: width)
        let showHints = height >= 4
        if height >= 3 {
            frame.append(DisplayWidth.spread(" Downloads", (active > 0 ? "\(active) active, " : "") + "\(items.count) ",
                                             to: width), style: .header)
        }
        let rows = max(0, height - frame.lines.count - (showHints ? 1 : 0))
        if items.isEmpty {
            if rows > 0 { frame.append(indent + "No downloads yet: press d while a song plays.", style: .dim) }
        } else {
            let selected = selectedIndex(items) ?? 0
            let first = Frame.firstRow(centring: selected, rows: rows, count: items.count)
            for index in first..<min(items.count, first + rows) {
                let item = items[index]
                let style: Frame.Style = index == selected ? .selected : (item.state == .failed ? .alert : .plain)
                frame.append(indent + Self.row(item, selected: index == selected, width: inner), style: style)
            }
        }
        if showHints {
            while frame.lines.count < height - 1 { frame.appendBlank() }
            frame.append(indent + keymap.hintLine(for: [.downloads], columns: inner), style: .dim)
        }
        frame.fit(height: height)
        return frame
    }

    /// `> Artist - Title            running [#####.....] 48% 320 kB/s`, the reason after a
    /// failed or waiting one.
    static func row(_ item: DownloadItem, selected: Bool, width: Int) -> String {
        var right = item.state.rawValue
        if let total = item.total, total > 0, item.state != .completed {
            let fraction = min(1, Double(item.bytes) / Double(total))
            let filled = Int(fraction * 10)
            right += " [" + String(repeating: "#", count: filled) + String(repeating: ".", count: 10 - filled) + "]"
            right += " \(Int(fraction * 100))%"
        }
        if item.state == .running, item.rate > 0 { right += " " + Self.rate(item.rate) }
        var left = (selected ? "> " : "  ") + (item.artist.isEmpty ? item.title : "\(item.artist) - \(item.title)")
        if let reason = item.reason, item.state == .failed || item.state == .waiting { left += " — " + reason }
        return DisplayWidth.spread(left, right, to: width)
    }

    /// `640 kB/s`, `1.2 MB/s`.
    static func rate(_ bytesPerSecond: Double) -> String {
        if bytesPerSecond >= 1_000_000 { return "\(Double(Int(bytesPerSecond / 100_000)) / 10) MB/s" }
        return "\(Int(bytesPerSecond / 1000)) kB/s"
    }
}

import Radio

/// The downloads view (`D`): every download with its state, a progress bar and its rate,
/// the selected one paused or resumed with `p`, canceled with `x`, retried with `r`.
///
/// The value holds only the selection; the downloads come from each snapshot, so the view
/// follows them as they move without a stale row.
public struct DownloadsView: Sendable, Equatable {
    /// The selection, by download id; none selects the first.
    private var list: ScrollingList<Int64>

    /// The selected download's id; nil selects the first.
    public var selectedID: Int64? { list.selectedID }

    /// Opens the view with `id` selected.
    public init(selecting id: Int64?) { list = ScrollingList(selecting: id) }

    /// Applies one key press to the view of `items`; a command is about the selected
    /// download, and the view stays open.
    public mutating func handle(_ key: Key, items: [DownloadItem], keymap: Keymap) -> ViewOutcome<RadioCommand> {
        let action = keymap.action(for: key, in: [.downloads])
        let ids = items.map(\.id)
        if let outcome = list.handle(action, ids: ids) { return outcome }
        guard let index = list.selectedIndex(in: ids) else { return .stay }
        let item = items[index]
        switch action {
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
        let items = snapshot.downloads.items
        let active = snapshot.downloads.active.count
        let screen = ListScreen(title: "Downloads", summary: (active > 0 ? "\(active) active, " : "") + "\(items.count)",
                                hints: .downloads)
        return list.frame(items.map(\.id), screen: screen, empty: "No downloads yet: press d while a song plays.",
                          width: width, height: height, keymap: keymap) { index, mark, width in
            (Self.row(items[index], mark: mark, width: width), items[index].state == .failed ? .alert : .plain)
        }
    }

    /// `> Artist - Title            running [#####.....] 48% 320 kB/s`, the reason after a
    /// failed or waiting one.
    static func row(_ item: DownloadItem, mark: String, width: Int) -> String {
        var right = item.state.rawValue
        if let total = item.total, total > 0, item.state != .completed {
            let fraction = min(1, Double(item.bytes) / Double(total))
            let filled = Int(fraction * 10)
            right += " [" + String(repeating: "#", count: filled) + String(repeating: ".", count: 10 - filled) + "]"
            right += " \(Int(fraction * 100))%"
        }
        if item.state == .running, item.rate > 0 { right += " " + Self.rate(item.rate) }
        var left = mark + (item.artist.isEmpty ? item.title : "\(item.artist) - \(item.title)")
        if let reason = item.reason, item.state == .failed || item.state == .waiting { left += " — " + reason }
        return DisplayWidth.spread(left, right, to: width)
    }

    /// `640 kB/s`, `1.2 MB/s`.
    static func rate(_ bytesPerSecond: Double) -> String {
        if bytesPerSecond >= 1_000_000 { return "\(Double(Int(bytesPerSecond / 100_000)) / 10) MB/s" }
        return "\(Int(bytesPerSecond / 1000)) kB/s"
    }
}

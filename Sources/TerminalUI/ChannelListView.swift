import Radio

/// The channel list: every channel the station offers, the one playing marked `♪`, the
/// ones broadcast live marked `live` beside their id, a selection moved with the arrows or
/// j/k, Enter to switch, `L` to listen to the selected channel's live broadcast, and
/// type-to-filter by name or id (case-insensitive; CJK typed through an input method works
/// like any letter).
///
/// Typing and single-letter keys share the keyboard, so: while no filter is being
/// typed, keys bound in the channel-list context (j, k, q, c…) act; any other printable
/// character starts the filter, and from then on every printable character goes into
/// it. `/` (`list-filter`) starts an empty filter explicitly, for names that begin with
/// a bound letter.
/// Backspace edits the filter; Esc clears it, and a second Esc closes the list.
///
/// The value holds only what the user did (filter, selected id); the channels come from
/// each snapshot, so a list refreshed by the station never leaves a stale selection.
public struct ChannelListView: Sendable, Equatable {
    /// What a key press asks of the caller.
    public enum Outcome: Sendable, Equatable {
        /// Nothing beyond redrawing the list.
        case stay
        /// Close the list.
        case close
        /// Close the list and send this command (a channel switch).
        case send(RadioCommand)
    }

    /// The text typed so far.
    public private(set) var filter = ""
    /// Whether printable keys go into the filter rather than to bindings.
    public private(set) var isFiltering = false
    /// The id of the selected channel; nil selects the first visible one.
    public private(set) var selectedID: String?

    /// Opens the list with `id` (usually the current channel) selected.
    public init(selecting id: String?) {
        selectedID = id
    }

    /// The channels the filter lets through, in the station's order.
    public func visibleChannels(_ channels: [ChannelInfo]) -> [ChannelInfo] {
        guard !filter.isEmpty else { return channels }
        let needle = filter.lowercased()
        return channels.filter { $0.name.lowercased().contains(needle) || $0.id.lowercased().contains(needle) }
    }

    /// Where the selection is within `visibleChannels`, or nil when nothing is visible.
    public func selectedIndex(_ channels: [ChannelInfo]) -> Int? {
        let visible = visibleChannels(channels)
        guard !visible.isEmpty else { return nil }
        return visible.firstIndex { $0.id == selectedID } ?? 0
    }

    /// Applies one key press to the list of `channels`.
    public mutating func handle(_ key: Key, channels: [ChannelInfo], keymap: Keymap) -> Outcome {
        let action = keymap.action(for: key, in: [.channelList])
        if case .character(let character) = key, isFiltering || action == nil {
            filter.append(character)
            isFiltering = true
            reselect(channels)
            return .stay
        }
        if key == .backspace {
            if !filter.isEmpty { filter.removeLast() }
            if filter.isEmpty { isFiltering = false }
            reselect(channels)
            return .stay
        }
        switch action {
        case .moveSelection(let step):
            let visible = visibleChannels(channels)
            if let index = selectedIndex(channels) {
                selectedID = visible[min(visible.count - 1, max(0, index + step))].id
            }
            return .stay
        case .choose:
            guard let index = selectedIndex(channels) else { return .stay }
            return .send(.channel(visibleChannels(channels)[index].id))
        case .chooseLive:
            // Sent for an unmarked channel too: the radio says why it cannot (not broadcast).
            guard let index = selectedIndex(channels) else { return .stay }
            return .send(.liveChannel(visibleChannels(channels)[index].id))
        case .startFilter:
            isFiltering = true
            return .stay
        case .close:
            guard isFiltering else { return .close }
            filter = ""
            isFiltering = false
            return .stay
        default:
            return .stay
        }
    }

    /// Keeps the selection on a visible channel after the filter changed.
    private mutating func reselect(_ channels: [ChannelInfo]) {
        let visible = visibleChannels(channels)
        if !visible.contains(where: { $0.id == selectedID }) { selectedID = visible.first?.id }
    }

    // MARK: - Rendering

    /// The list as plain lines, exactly `height` × `width`.
    public func render(_ snapshot: RadioSnapshot, width: Int, height: Int, keymap: Keymap = .standard) -> [String] {
        frame(snapshot, width: width, height: height, keymap: keymap).lines
    }

    /// The list with a style per line; the selected row is `.selected`.
    public func frame(_ snapshot: RadioSnapshot, width: Int, height: Int, keymap: Keymap = .standard) -> Frame {
        let margin = Frame.margin(width: width)
        let indent = String(repeating: " ", count: margin)
        let inner = max(0, width - 2 * margin)
        let visible = visibleChannels(snapshot.channels)
        let count = filter.isEmpty ? "\(snapshot.channels.count)" : "\(visible.count) of \(snapshot.channels.count)"

        var chrome = (header: height >= 3, filter: height >= 4, hints: height >= 5)
        if isFiltering && !chrome.filter && height >= 2 { chrome = (false, true, false) }
        var frame = Frame(width: width)
        if chrome.header {
            frame.append(DisplayWidth.spread(" Channels", count + " ", to: width), style: .header)
        }
        if chrome.filter {
            let prompt = isFiltering ? "Filter: \(filter)▏" : "Type to filter by name or id"
            frame.append(indent + prompt, style: isFiltering ? .plain : .dim)
        }
        let rows = max(0, height - frame.lines.count - (chrome.hints ? 1 : 0))
        if visible.isEmpty {
            let empty = snapshot.channels.isEmpty ? "No channels yet." : "No channel matches “\(filter)”."
            if rows > 0 { frame.append(indent + empty, style: .dim) }
        } else {
            let selected = selectedIndex(snapshot.channels) ?? 0
            // Keep the selection in the middle third once the list scrolls; derived from
            // the selection alone so rendering stays a pure function.
            let first = Frame.firstRow(centring: selected, rows: rows, count: visible.count)
            for index in first..<min(visible.count, first + rows) {
                let channel = visible[index]
                let playing = channel.id == snapshot.channel?.id ? " ♪" : ""
                // The mark beside the id: it stays when a narrow screen cuts the name.
                let row = DisplayWidth.spread((index == selected ? "> " : "  ") + channel.name + playing,
                                              channel.live ? "live \(channel.id)" : channel.id, to: inner)
                frame.append(indent + row, style: index == selected ? .selected : .plain)
            }
        }
        if chrome.hints {
            while frame.lines.count < height - 1 { frame.appendBlank() }
            frame.append(indent + keymap.hintLine(for: [.channelList], columns: inner), style: .dim)
        }
        frame.fit(height: height)
        return frame
    }
}

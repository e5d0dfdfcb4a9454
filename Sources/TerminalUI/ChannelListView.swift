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
    /// The text typed so far.
    public private(set) var filter = ""
    /// Whether printable keys go into the filter rather than to bindings.
    public private(set) var isFiltering = false
    /// The selection among the visible channels, by id; none selects the first.
    private var list: ScrollingList<String>

    /// The id of the selected channel; nil selects the first visible one.
    public var selectedID: String? { list.selectedID }

    /// Opens the list with `id` (usually the current channel) selected.
    public init(selecting id: String?) {
        list = ScrollingList(selecting: id)
    }

    /// The channels the filter lets through, in the station's order.
    public func visibleChannels(_ channels: [ChannelInfo]) -> [ChannelInfo] {
        guard !filter.isEmpty else { return channels }
        let needle = filter.lowercased()
        return channels.filter { $0.name.lowercased().contains(needle) || $0.id.lowercased().contains(needle) }
    }

    /// Where the selection is within `visibleChannels`, or nil when nothing is visible.
    public func selectedIndex(_ channels: [ChannelInfo]) -> Int? {
        list.selectedIndex(in: visibleChannels(channels).map(\.id))
    }

    /// Applies one key press to the list of `channels`; choosing a channel closes the list.
    public mutating func handle(_ key: Key, channels: [ChannelInfo], keymap: Keymap) -> ViewOutcome<RadioCommand> {
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
        case .startFilter:
            isFiltering = true
            return .stay
        case .close where isFiltering:
            filter = ""
            isFiltering = false
            return .stay
        default:
            break
        }
        let visible = visibleChannels(channels), ids = visible.map(\.id)
        if let outcome = list.handle(action, ids: ids) { return outcome }
        guard let index = list.selectedIndex(in: ids) else { return .stay }
        switch action {
        case .choose:
            return .chose(.channel(visible[index].id))
        case .chooseLive:
            // Sent for an unmarked channel too: the radio says why it cannot (not broadcast).
            return .chose(.liveChannel(visible[index].id))
        default:
            return .stay
        }
    }

    /// Keeps the selection on a visible channel after the filter changed.
    private mutating func reselect(_ channels: [ChannelInfo]) {
        let visible = visibleChannels(channels)
        if !visible.contains(where: { $0.id == selectedID }) { list.select(visible.first?.id) }
    }

    // MARK: - Rendering

    /// The list as plain lines, exactly `height` × `width`.
    public func render(_ snapshot: RadioSnapshot, width: Int, height: Int, keymap: Keymap = .standard) -> [String] {
        frame(snapshot, width: width, height: height, keymap: keymap).lines
    }

    /// The list with a style per line; the selected row is `.selected`.
    public func frame(_ snapshot: RadioSnapshot, width: Int, height: Int, keymap: Keymap = .standard) -> Frame {
        let visible = visibleChannels(snapshot.channels)
        let count = filter.isEmpty ? "\(snapshot.channels.count)" : "\(visible.count) of \(snapshot.channels.count)"
        let prompt = isFiltering ? ListScreen.Prompt("Filter: \(filter)▏", style: .plain, insistent: true)
            : ListScreen.Prompt("Type to filter by name or id", style: .dim, insistent: false)
        let screen = ListScreen(title: "Channels", summary: count, hints: .channelList, prompt: prompt)
        let empty = snapshot.channels.isEmpty ? "No channels yet." : "No channel matches “\(filter)”."
        return list.frame(visible.map(\.id), screen: screen, empty: empty, width: width, height: height,
                          keymap: keymap) { index, mark, width in
            let channel = visible[index]
            let playing = channel.id == snapshot.channel?.id ? " ♪" : ""
            // The mark beside the id: it stays when a narrow screen cuts the name.
            let row = DisplayWidth.spread(mark + channel.name + playing, channel.live ? "live \(channel.id)" : channel.id,
                                          to: width)
            return (row, .plain)
        }
    }
}

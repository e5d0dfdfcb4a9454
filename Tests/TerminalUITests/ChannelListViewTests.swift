import Radio
import Testing
@testable import TerminalUI
@testable import TUIHarness

/// The channel list: filtering, moving, choosing, closing, and its rendering.
@Suite struct ChannelListViewTests {
    static let channels = Fixtures.channels
    static let keymap = Keymap.standard

    /// Types each character of `text` into `list`.
    static func type(_ text: String, into list: inout ChannelListView) {
        for character in text {
            #expect(list.handle(.character(character), channels: channels, keymap: keymap) == .stay)
        }
    }

    static func names(_ list: ChannelListView) -> [String] {
        list.visibleChannels(channels).map(\.name)
    }

    @Test func filtersByNameCaseInsensitively() {
        var list = ChannelListView(selecting: nil)
        Self.type("JAZZ", into: &list)
        #expect(Self.names(list) == ["Jazz FM"])
        list = ChannelListView(selecting: nil)
        Self.type("mhz", into: &list)
        #expect(Self.names(list) == ["华语MHz", "欧美MHz"])
    }

    @Test func filtersByCJKAndById() {
        var list = ChannelListView(selecting: nil)
        Self.type("日本", into: &list)
        #expect(Self.names(list) == ["日本語チャンネル"])
        list = ChannelListView(selecting: nil)
        Self.type("-3", into: &list)
        #expect(Self.names(list) == ["红心兆赫"])
        list = ChannelListView(selecting: nil)
        Self.type("153", into: &list)
        #expect(Self.names(list) == ["Kids"])
    }

    @Test func movesAndChoosesWithEnter() {
        var list = ChannelListView(selecting: "1")
        #expect(list.selectedIndex(Self.channels) == 0)
        #expect(list.handle(.down, channels: Self.channels, keymap: Self.keymap) == .stay)
        #expect(list.handle(.character("j"), channels: Self.channels, keymap: Self.keymap) == .stay)
        #expect(list.selectedID == "7")
        #expect(list.handle(.character("k"), channels: Self.channels, keymap: Self.keymap) == .stay)
        #expect(list.handle(.enter, channels: Self.channels, keymap: Self.keymap) == .chose(.channel("2")))
    }

    @Test func movementStopsAtTheEnds() {
        var list = ChannelListView(selecting: "1")
        _ = list.handle(.up, channels: Self.channels, keymap: Self.keymap)
        #expect(list.selectedID == "1")
        _ = list.handle(.pageDown, channels: Self.channels, keymap: Self.keymap)
        #expect(list.selectedID == "153")
    }

    @Test func filteringMovesSelectionToAVisibleChannelAndEnterPlaysIt() {
        var list = ChannelListView(selecting: "1")
        Self.type("fm", into: &list)
        #expect(list.selectedID == "7")
        #expect(list.handle(.enter, channels: Self.channels, keymap: Self.keymap) == .chose(.channel("7")))
    }

    @Test func boundLettersTypeOnceFilteringStarted() {
        var list = ChannelListView(selecting: nil)
        Self.type("ki", into: &list)   // "k" is bound (up) but no filter yet…
        #expect(list.filter == "i", "k moved the selection, i started the filter")
        Self.type("ds", into: &list)
        #expect(Self.names(list) == ["Kids"])
        var slash = ChannelListView(selecting: nil)
        #expect(slash.handle(.character("/"), channels: Self.channels, keymap: Self.keymap) == .stay)
        Self.type("kid", into: &slash)
        #expect(Self.names(slash) == ["Kids"])
        #expect(slash.handle(.character("q"), channels: Self.channels, keymap: Self.keymap) == .stay)
        #expect(slash.filter == "kidq")
    }

    @Test func backspaceAndEscape() {
        var list = ChannelListView(selecting: nil)
        Self.type("xyz", into: &list)
        #expect(Self.names(list) == [])
        #expect(list.handle(.enter, channels: Self.channels, keymap: Self.keymap) == .stay)
        _ = list.handle(.backspace, channels: Self.channels, keymap: Self.keymap)
        #expect(list.filter == "xy")
        #expect(list.handle(.escape, channels: Self.channels, keymap: Self.keymap) == .stay)
        #expect(list.filter == "" && !list.isFiltering)
        #expect(list.handle(.escape, channels: Self.channels, keymap: Self.keymap) == .close)
        #expect(list.handle(.character("c"), channels: Self.channels, keymap: Self.keymap) == .close)
        #expect(list.handle(.character("q"), channels: Self.channels, keymap: Self.keymap) == .close)
    }

    @Test func rendersWithCurrentMarkedAndSelection() {
        var list = ChannelListView(selecting: "1")
        _ = list.handle(.down, channels: Self.channels, keymap: Self.keymap)
        let frame = list.frame(Fixtures.chinese, width: 40, height: 10)
        #expect(frame.lines == NowPlayingViewTests.board("""
            | Channels                             6 |
            |  Type to filter by name or id          |
            |    华语MHz ♪                        1  |
            |  > 欧美MHz                          2  |
            |    Jazz FM                          7  |
            |    红心兆赫                        -3  |
            |    日本語チャンネル                61  |
            |    Kids                           153  |
            |                                        |
            |  ↑ up  enter choose  esc close         |
            """))
        #expect(frame.styles[3] == .selected)
        #expect(frame.styles[2] == .plain)
    }

    /// A station's live channels carry `live` beside their id, kept when the name is cut;
    /// `L` asks for the selected channel's broadcast (the radio refuses one not marked).
    @Test func marksLiveChannelsAndLListensToTheSelectedOne() {
        let channels = [ChannelInfo(id: "0", name: "私人兆赫"), ChannelInfo(id: "1", name: "Ambient", live: true),
                        ChannelInfo(id: "12", name: "Chiptune Classics", live: true)]
        let snapshot = RadioSnapshot(channel: channels[0], channels: channels)
        var list = ChannelListView(selecting: "0")
        #expect(list.handle(.down, channels: channels, keymap: Self.keymap) == .stay)
        #expect(list.render(snapshot, width: 30, height: 6) == NowPlayingViewTests.board("""
            | Channels                   3 |
            | Type to filter by name or id |
            |   私人兆赫 ♪               0 |
            | > Ambient             live 1 |
            |   Chiptune Classics  live 12 |
            | enter choose  esc close      |
            """))
        #expect(list.render(snapshot, width: 20, height: 6)[4] == "   Chiptun… live 12 ")
        #expect(list.handle(.character("L"), channels: channels, keymap: Self.keymap) == .chose(.liveChannel("1")))
        var first = ChannelListView(selecting: "0")
        #expect(first.handle(.character("L"), channels: channels, keymap: Self.keymap) == .chose(.liveChannel("0")))
    }

    @Test func rendersFilterAndScrollsToTheSelection() {
        var list = ChannelListView(selecting: "153")
        Self.type("1", into: &list)
        #expect(list.render(Fixtures.chinese, width: 30, height: 4) == NowPlayingViewTests.board("""
            | Channels              3 of 6 |
            | Filter: 1▏                   |
            |   日本語チャンネル        61 |
            | > Kids                   153 |
            """))
        for width in [1, 5, 20, 40, 120] {
            for height in [0, 1, 2, 3, 4, 5, 30] {
                let lines = list.render(Fixtures.chinese, width: width, height: height)
                #expect(lines.count == height && lines.allSatisfy { DisplayWidth.width(of: $0) == width })
            }
        }
    }
}

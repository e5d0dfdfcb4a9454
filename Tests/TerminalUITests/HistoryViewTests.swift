import Foundation
import Radio
import Testing
@testable import TerminalUI

/// The history view: newest first, a row per song with its heart, how it left and when,
/// CJK titles cut by display width; its keys send `past` commands about the selected sid.
struct HistoryViewTests {
    private let now = Date(timeIntervalSince1970: 100_000)

    private func entry(_ sid: String, _ title: String, ago: Double, outcome: ListenOutcome = .ended,
                       liked: Bool = false, otherStation: Bool = false) -> ListenEntry {
        ListenEntry(track: Track(sid: sid, title: title, artist: "A", liked: liked, url: ""), channel: "0",
                    startedAt: now.addingTimeInterval(-ago), listened: 30, outcome: outcome, otherStation: otherStation)
    }

    private var entries: [ListenEntry] {
        [entry("3", "夜に駆ける夜に駆ける", ago: 30, outcome: .skipped),
         entry("2", "Two", ago: 600, liked: true),
         entry("1", "One", ago: 7200, outcome: .trashed, otherStation: true)]
    }

    @Test func theRowsShowHeartOutcomeAndAgeFittedByDisplayWidth() {
        var snapshot = RadioSnapshot()
        snapshot.history = entries
        let lines = HistoryView().render(snapshot, width: 40, height: 6, now: now)
        #expect(lines == [
            " History                        3 songs ",
            "  >   A - 夜に駆ける夜に… skipped  now  ",
            "    ♥ A - Two           ended  10m ago  ",
            "      A - One          trashed  2h ago  ",
            "                                        ",
            "  l like  b trash  d download           ",
        ])
        #expect(lines.allSatisfy { DisplayWidth.width(of: $0) == 40 })
    }

    @Test func theKeysSendPastCommandsAboutTheSelectedSong() {
        var view = HistoryView()
        let keymap = Keymap.standard
        #expect(view.handle(.character("l"), entries: entries, keymap: keymap) == .send(.pastSong(.like, sid: "3")))
        #expect(view.handle(.character("j"), entries: entries, keymap: keymap) == .stay)
        #expect(view.handle(.character("l"), entries: entries, keymap: keymap) == .send(.pastSong(.unlike, sid: "2")),
                "song 2 is liked: l unlikes it")
        #expect(view.handle(.character("b"), entries: entries, keymap: keymap) == .send(.pastSong(.trash, sid: "2")))
        #expect(view.handle(.character("d"), entries: entries, keymap: keymap) == .send(.pastSong(.download, sid: "2")))
        // A new song at the top keeps the selection on song 2.
        let grown = [entry("4", "Four", ago: 1)] + entries
        #expect(view.handle(.character("d"), entries: grown, keymap: keymap) == .send(.pastSong(.download, sid: "2")))
        #expect(view.handle(.down, entries: grown, keymap: keymap) == .stay)
        #expect(view.handle(.character("l"), entries: grown, keymap: keymap)
                == .refused(.unsupported("a report about another station's song")),
                "another station's song cannot be reported")
        #expect(view.handle(.character("H"), entries: grown, keymap: keymap) == .close)
    }

    @Test func hOpensTheViewFromTheNowPlayingScreen() {
        var state = InteractionState(keymap: .standard)
        var snapshot = RadioSnapshot()
        snapshot.history = entries
        _ = state.handle(.character("H"), snapshot: snapshot, now: .now)
        #expect(state.mode == .history(HistoryView()))
        #expect(state.handle(.character("b"), snapshot: snapshot, now: .now).commands == [.pastSong(.trash, sid: "3")])
        _ = state.handle(.escape, snapshot: snapshot, now: .now)
        #expect(state.mode == .nowPlaying)
    }
}

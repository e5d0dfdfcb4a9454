import Radio
import Testing
@testable import TerminalUI

/// The lyrics view: the whole sheet, the line being sung highlighted and kept in view,
/// scrolled by the movement keys, unsynced lyrics as plain text, wide characters fitted.
@Suite struct LyricsViewTests {
    static func snapshot(_ lines: [String], synced: Bool = true, current: Int? = nil, sid: String = "1") -> RadioSnapshot {
        var snapshot = RadioSnapshot(track: Track(sid: "1", title: "Song", artist: "Artist", url: "file:///s.mp3"),
                                     position: 3, duration: 60)
        snapshot.lyrics = SongLyrics(sid: sid, lines: lines, isSynced: synced, current: current)
        return snapshot
    }

    static let ten = (0..<10).map { "line \($0)" }

    /// `text` with spaces after it to `columns` columns.
    static func padded(_ text: String, _ columns: Int) -> String {
        text + String(repeating: " ", count: columns - DisplayWidth.width(of: text))
    }

    @Test func theLineBeingSungIsHighlightedInTheMiddle() {
        let view = LyricsView()
        let frame = view.frame(Self.snapshot(Self.ten, current: 5), width: 30, height: 8)
        #expect(frame.lines == [
            " Lyrics: Song          synced ",
            "   line 2                     ",
            "   line 3                     ",
            "   line 4                     ",
            " > line 5                     ",
            "   line 6                     ",
            "   line 7                     ",
            " ↑ up  ↓ down  esc close      ",
        ])
        #expect(frame.styles == [.header, .plain, .plain, .plain, .selected, .plain, .plain, .dim])
        // Near the end the last line stays at the bottom; before the first line the top shows.
        #expect(view.render(Self.snapshot(Self.ten, current: 9), width: 30, height: 8)[1...6]
            .map { $0.trimmingCharacters(in: .whitespaces) } == ["line 4", "line 5", "line 6", "line 7", "line 8", "> line 9"])
        #expect(view.render(Self.snapshot(Self.ten, current: nil), width: 30, height: 8)[1] == Self.padded("   line 0", 30))
    }

    @Test func theMovementKeysScrollUntilTheNextLineIsReached() {
        var view = LyricsView()
        let keymap = Keymap.standard
        let at5 = Self.snapshot(Self.ten, current: 5)
        #expect(view.handle(.character("k"), lyrics: at5.lyrics, height: 8, keymap: keymap) == .stay)
        #expect(view.top(at5.lyrics!, visible: 6) == 1)
        // Down past the end stops with the last line at the bottom.
        for _ in 0..<3 { _ = view.handle(.down, lyrics: at5.lyrics, height: 8, keymap: keymap) }
        #expect(view.top(at5.lyrics!, visible: 6) == 4)
        #expect(view.handle(.pageUp, lyrics: at5.lyrics, height: 8, keymap: keymap) == .stay)
        #expect(view.render(at5, width: 30, height: 8)[1...2] == [Self.padded("   line 0", 30), Self.padded("   line 1", 30)])
        // The next line reached brings the view back to it.
        #expect(view.top(Self.snapshot(Self.ten, current: 6).lyrics!, visible: 6) == 3)
        // So does another song at the same line.
        #expect(view.top(Self.snapshot(Self.ten, current: 5, sid: "2").lyrics!, visible: 6) == 2)
    }

    @Test func unsyncedLyricsArePlainTextThatScrolls() {
        var view = LyricsView()
        let plain = Self.snapshot(["first words", "", "second words", "third", "fourth"], synced: false)
        #expect(view.render(plain, width: 24, height: 5) == [
            " Lyrics: Song  unsynced ",
            " first words            ",
            "                        ",
            " second words           ",
            " ↑ up  esc close        ",
        ])
        _ = view.handle(.character("j"), lyrics: plain.lyrics, height: 5, keymap: .standard)
        _ = view.handle(.character("j"), lyrics: plain.lyrics, height: 5, keymap: .standard)
        let scrolled = view.frame(plain, width: 24, height: 5)
        #expect(scrolled.lines[1...3] == [" second words           ", " third                  ", " fourth                 "])
        #expect(!scrolled.styles.contains(.selected))
        // Scrolled unsynced text stays where it was: no line is ever reached.
        _ = view.handle(.character("j"), lyrics: plain.lyrics, height: 5, keymap: .standard)
        #expect(view.top(plain.lyrics!, visible: 3) == 2)
    }

    @Test func wideCharactersAreFittedToTheWidthAsTitlesAre() {
        let view = LyricsView()
        let lines = view.render(Self.snapshot(["夜曲夜曲夜曲夜曲夜曲夜曲 and more", "短い"], current: 0), width: 20, height: 4)
        #expect(lines[1] == " > 夜曲夜曲夜曲夜…  ")
        #expect(lines[2] == Self.padded("   短い", 20))
        #expect(lines.allSatisfy { DisplayWidth.width(of: $0) == 20 })
    }

    @Test func withoutLyricsTheViewSaysWhy() {
        let view = LyricsView()
        #expect(view.render(RadioSnapshot(), width: 50, height: 4)[1] == Self.padded("  Nothing playing.", 50))
        #expect(view.render(Self.snapshot([]), width: 50, height: 4)[1] == Self.padded("  No lyrics for this song.", 50))
        var asking = Self.snapshot([])
        asking.lyrics = nil
        let askingLine = Self.padded("  Asking the station for the lyrics…", 50)
        #expect(view.render(asking, width: 50, height: 4)[1] == askingLine)
        // Another song's lyrics are not this one's.
        #expect(view.render(Self.snapshot(["x"], sid: "old"), width: 50, height: 4)[1] == askingLine)
    }

    @Test func yOpensTheViewTheNudgeKeysWorkInItAndEscQOrYClose() {
        var state = InteractionState(keymap: .standard)
        let snapshot = Self.snapshot(Self.ten, current: 5)
        let now = ContinuousClock.now
        for close in [Key.escape, .character("q"), .character("y")] {
            #expect(state.handle(.character("y"), snapshot: snapshot, now: now) == InteractionState.Response())
            #expect(state.mode == .lyrics(LyricsView()))
            #expect(state.handle(.character("}"), snapshot: snapshot, now: now).commands == [.lyricsEarlier])
            #expect(state.handle(.character("{"), snapshot: snapshot, now: now).commands == [.lyricsLater])
            // Keys of the now-playing screen do nothing here (n does not skip).
            #expect(state.handle(.character("n"), snapshot: snapshot, now: now).commands == [])
            #expect(state.frame(snapshot, width: 30, height: 8, now: now).lines[0].hasPrefix(" Lyrics: Song"))
            #expect(state.handle(close, snapshot: snapshot, now: now) == InteractionState.Response())
            #expect(state.mode == .nowPlaying, "\(close)")
        }
    }
}

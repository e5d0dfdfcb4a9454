import Radio
import RadioAPI
import Testing

/// Which lyric line is current as a song plays.
@Suite("Lyric tracker")
struct LyricTrackerTests {
    static let sheet = LyricSheet(parsing: "[00:01.00]a\n[00:02.00]b\n[00:02.50]c\n[00:10.00]d")

    static func texts(_ changes: [LyricTracker.Change]) -> [String] { changes.map(\.text) }

    @Test("playing on passes every line reached, in order, each once")
    func playingOn() {
        var tracker = LyricTracker()
        tracker.begin(sid: "7")
        #expect(tracker.receive(Self.sheet, for: "7").isEmpty)
        #expect(tracker.advance(to: 0.5).isEmpty)
        #expect(tracker.advance(to: 1.0) == [.init(sid: "7", index: 0, time: 1, text: "a")])
        #expect(tracker.advance(to: 1.2).isEmpty)
        // 1.2 → 2.7 passes b and c.
        #expect(Self.texts(tracker.advance(to: 2.7)) == ["b", "c"])
        #expect(tracker.advance(to: 3).isEmpty)
    }

    @Test("a seek names only the line now current; a seek before the first line names none")
    func seeks() {
        var tracker = LyricTracker()
        tracker.begin(sid: "7")
        _ = tracker.receive(Self.sheet, for: "7")
        #expect(Self.texts(tracker.advance(to: 11)) == ["d"])
        #expect(Self.texts(tracker.advance(to: 2.1)) == ["b"])
        #expect(tracker.advance(to: 0.2).isEmpty)
        #expect(tracker.current == nil)
        #expect(Self.texts(tracker.advance(to: 1.5)) == ["a"])
    }

    @Test("lyrics arriving late name the line already reached; an answer for another song is dropped")
    func lateAnswers() {
        var tracker = LyricTracker()
        tracker.begin(sid: "7")
        #expect(tracker.advance(to: 2.2).isEmpty)
        #expect(tracker.receive(Self.sheet, for: "8").isEmpty)
        #expect(tracker.sheet == nil)
        #expect(tracker.receive(Self.sheet, for: "7") == [.init(sid: "7", index: 1, time: 2, text: "b")])
    }

    @Test("a nudge of +0.5 s shows lines earlier; unsynced lyrics name no line")
    func nudgeAndUnsynced() {
        var tracker = LyricTracker()
        tracker.begin(sid: "7")
        _ = tracker.receive(Self.sheet, for: "7")
        #expect(tracker.advance(to: 0.6).isEmpty)
        #expect(Self.texts(tracker.setNudge(0.5)) == ["a"])
        #expect(Self.texts(tracker.advance(to: 1.5)) == ["b"])
        tracker.begin(sid: "9")
        #expect(tracker.receive(LyricSheet(parsing: "plain words"), for: "9").isEmpty)
        #expect(tracker.advance(to: 5).isEmpty)
    }

    @Test("the lyrics a front end shows: a synced sheet's lines in time order, unsynced text's lines, none")
    func songLyrics() {
        var synced = SongLyrics(sid: "7", sheet: LyricSheet(parsing: "[00:02.00]b\n[00:01.00]a"))
        #expect(synced == SongLyrics(sid: "7", lines: ["a", "b"], isSynced: true))
        #expect(synced.currentLine == nil)
        synced.current = 1
        #expect(synced.currentLine == "b")
        let plain = SongLyrics(sid: "8", sheet: LyricSheet(parsing: "[ti:x]\none\n\ntwo"))
        #expect(plain == SongLyrics(sid: "8", lines: ["one", "", "two"], isSynced: false))
        #expect(SongLyrics(sid: "9", sheet: nil) == SongLyrics(sid: "9", lines: [], isSynced: false))
    }
}

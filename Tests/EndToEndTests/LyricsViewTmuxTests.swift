import Foundation
import Testing
import TestSupport

/// The lyrics view in the built `mhz`'s terminal UI, in tmux, over its embedded station:
/// `y` shows a sidecar `.lrc`'s whole sheet with the line being sung marked as the song
/// plays, and a sidecar without time tags as plain text; `q` there closes the view, not mhz.
@Suite(.serialized)
struct LyricsViewTmuxTests {
    @Test func yShowsTheWholeSheetFollowingTheSongAndUnsyncedTextAsIs() async throws {
        let home = try TemporaryDirectory(prefix: "mhz-e2e-lyrics-view")
        let library = home.path("music")
        try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
        // Songs long enough to be still playing however late the view is read (the test
        // moves on with n, never waiting a song out).
        try await offPool {
            try MediaFactory.tone(at: library.appendingPathComponent("Side.mp3"), seconds: 20, tags: ["title": "Side"])
            try Data("[ti:Side]\n[00:00.50]one\n[00:01.50]two 二\n[00:03.00]three\n".utf8)
                .write(to: library.appendingPathComponent("Side.lrc"))
            try MediaFactory.tone(at: library.appendingPathComponent("Plain.mp3"), seconds: 20, frequency: 660,
                                  tags: ["title": "Plain"])
            try Data("plain words\n\nsecond plain line\n".utf8).write(to: library.appendingPathComponent("Plain.lrc"))
        }
        let terminal = try TerminalMhz(["--audio-output", "null", "--data-dir", home.path("data").path,
                                        "--library", library.path], home: home.url, columns: 60, rows: 16)
        func lines() -> [String] { ((try? terminal.capture()) ?? []).map { $0.trimmingCharacters(in: .whitespaces) } }

        // Each song in turn (the station's order is its own): at most four, until both were seen.
        var seen: Set<String> = []
        for _ in 0..<4 where seen.count < 2 {
            try await terminal.waitForScreen(containing: "♡")
            try terminal.send("y")
            // The header names the song and, once its lyrics came, whether they are synced;
            // each sheet is read whole from one screen, its header included (an n pressed
            // before may still change the song while the view is open, and the view follows).
            let shown = try await waitForValue("a whole sheet; screen:\n\(terminal.screen)") { () -> [String]? in
                let shown = lines()
                guard let header = shown.first, header.hasSuffix("synced") else { return nil }
                if header.contains("Lyrics: Side") { return shown.contains("> three") ? shown : nil }
                if header.contains("Lyrics: Plain") { return shown.contains("second plain line") ? shown : nil }
                return nil
            }
            if shown[0].contains("Lyrics: Side") {
                // The whole sheet, in order, the last line reached marked.
                let one = try #require(shown.firstIndex(of: "one"), "\(shown)")
                #expect(Array(shown[one...(one + 2)]) == ["one", "two 二", "> three"], "\(shown)")
                #expect(shown[0].hasSuffix("synced") && !shown[0].hasSuffix("unsynced"), "\(shown)")
                seen.insert("Side")
            } else {
                let first = try #require(shown.firstIndex(of: "plain words"), "\(shown)")
                #expect(Array(shown[first...(first + 2)]) == ["plain words", "", "second plain line"], "\(shown)")
                #expect(shown[0].hasSuffix("unsynced") && !shown.contains { $0.contains(">") }, "\(shown)")
                seen.insert("Plain")
            }
            // q closes the view (mhz plays on), n skips to the other song.
            try terminal.send("q")
            try await terminal.waitForScreen(containing: "♡")
            try terminal.send("n")
        }
        #expect(seen == ["Side", "Plain"], "\(terminal.screen)")
        try terminal.send("q")
        #expect(try await terminal.exitStatus() == 0, "\(terminal.screen)")
    }
}

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
        try await offPool {
            try MediaFactory.tone(at: library.appendingPathComponent("Side.mp3"), seconds: 8, tags: ["title": "Side"])
            try Data("[ti:Side]\n[00:00.50]one\n[00:01.50]two 二\n[00:03.00]three\n".utf8)
                .write(to: library.appendingPathComponent("Side.lrc"))
            try MediaFactory.tone(at: library.appendingPathComponent("Plain.mp3"), seconds: 8, frequency: 660,
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
            // The header names the song and, once its lyrics came, whether they are synced.
            try await waitUntil("the lyrics' header; screen:\n\(terminal.screen)") { lines().first?.hasSuffix("synced") == true }
            let header = lines().first ?? ""
            if header.contains("Lyrics: Side") {
                try await terminal.waitForScreen(containing: "> three")
                // The whole sheet, in order, the last line reached marked.
                let shown = lines()
                let one = try #require(shown.firstIndex(of: "one"), "\(terminal.screen)")
                #expect(Array(shown[one...(one + 2)]) == ["one", "two 二", "> three"], "\(terminal.screen)")
                #expect(shown[0].hasSuffix("synced") && !shown[0].hasSuffix("unsynced"), "\(terminal.screen)")
                seen.insert("Side")
            } else if header.contains("Lyrics: Plain") {
                try await terminal.waitForScreen(containing: "second plain line")
                let shown = lines()
                let first = try #require(shown.firstIndex(of: "plain words"), "\(terminal.screen)")
                #expect(Array(shown[first...(first + 2)]) == ["plain words", "", "second plain line"], "\(terminal.screen)")
                #expect(shown[0].hasSuffix("unsynced") && !terminal.screen.contains(">"), "\(terminal.screen)")
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

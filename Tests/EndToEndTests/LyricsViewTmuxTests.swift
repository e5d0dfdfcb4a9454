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
        let command = "cd '\(home.url.path)' && env -i PATH=/usr/bin:/bin HOME='\(home.url.path)' "
            + "XDG_CONFIG_HOME='\(home.url.path)/config' LANG=C.UTF-8 TERM=xterm-256color "
            + "'\(BuiltMhz.executable.path)' --audio-output null --data-dir '\(home.path("data").path)' "
            + "--library '\(library.path)'; echo \"exit=$?\" > '\(home.url.path)/status'; sleep 30"
        let tmux = try TmuxDriver(command: command, columns: 60, rows: 16)
        func screen() -> String { (try? tmux.capture())?.joined(separator: "\n") ?? "" }
        func lines() -> [String] { ((try? tmux.capture()) ?? []).map { $0.trimmingCharacters(in: .whitespaces) } }

        var seen: Set<String> = []
        for _ in 0..<4 where seen.count < 2 {
            #expect(try await tmux.waitForScreen(containing: "♡", seconds: 30), "\(screen())")
            try tmux.send("y")
            // The header names the song and, once its lyrics came, whether they are synced.
            #expect(try await tmux.wait { lines().first?.hasSuffix("synced") == true }, "\(screen())")
            let header = lines().first ?? ""
            if header.contains("Lyrics: Side") {
                #expect(try await tmux.waitForScreen(containing: "> three"), "\(screen())")
                // The whole sheet, in order, the last line reached marked.
                let shown = lines()
                let one = try #require(shown.firstIndex(of: "one"), "\(screen())")
                #expect(Array(shown[one...(one + 2)]) == ["one", "two 二", "> three"], "\(screen())")
                #expect(shown[0].hasSuffix("synced") && !shown[0].hasSuffix("unsynced"), "\(screen())")
                seen.insert("Side")
            } else if header.contains("Lyrics: Plain") {
                #expect(try await tmux.waitForScreen(containing: "second plain line"), "\(screen())")
                let shown = lines()
                let first = try #require(shown.firstIndex(of: "plain words"), "\(screen())")
                #expect(Array(shown[first...(first + 2)]) == ["plain words", "", "second plain line"], "\(screen())")
                #expect(shown[0].hasSuffix("unsynced") && !screen().contains(">"), "\(screen())")
                seen.insert("Plain")
            }
            // q closes the view (mhz plays on), n skips to the other song.
            try tmux.send("q")
            #expect(try await tmux.waitForScreen(containing: "♡"), "\(screen())")
            try tmux.send("n")
        }
        #expect(seen == ["Side", "Plain"], "\(screen())")
        try tmux.send("q")
        let status = home.path("status")
        #expect(try await tmux.wait(seconds: 15) { FileManager.default.fileExists(atPath: status.path) }, "\(screen())")
        #expect(try String(contentsOf: status, encoding: .utf8) == "exit=0\n")
    }
}

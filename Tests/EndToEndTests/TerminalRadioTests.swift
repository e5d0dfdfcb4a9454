import Foundation
import Station
import Store
import TestSupport
import Testing
import MusicLibrary

/// `mhz` as a user meets it: no server configured, a fresh data directory, the terminal UI
/// in tmux. The embedded station synthesizes the demo library, a title from it appears,
/// keys work, and quitting leaves the terminal as it was.
@Suite(.serialized)
struct TerminalRadioTests {
    /// A fresh user's `mhz` in an 80×24 tmux pane: a home without ~/Music (so the embedded
    /// station falls back to the demo library) and, once mhz has exited, its exit status in
    /// `home/status` and `stty -a` of the terminal it left in `home/stty-after.txt`.
    private static func freshMhz(config: String? = nil, audioOutput: String = "null", environment: String = "",
                                 rows: Int = 24) throws
        -> (home: TemporaryDirectory, data: URL, stty: URL, tmux: TmuxDriver)
    {
        let home = try TemporaryDirectory(prefix: "mhz-e2e-home")
        if let config {
            let folder = home.path("config/mhz")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(config.utf8).write(to: folder.appendingPathComponent("config.toml"))
        }
        let data = home.path("data")
        let stty = home.path("stty-after.txt")
        let binary = BuiltMhz.executable.path
        let command = "cd '\(home.url.path)' && env -i PATH=/usr/bin:/bin HOME='\(home.url.path)' "
            + "XDG_CONFIG_HOME='\(home.url.path)/config' LANG=C.UTF-8 TERM=xterm-256color \(environment) "
            + "'\(binary)' --audio-output \(audioOutput) --data-dir '\(data.path)'; echo \"exit=$?\" > '\(home.url.path)/status.tmp'; "
            + "stty -a > '\(stty.path).tmp'; mv '\(stty.path).tmp' '\(stty.path)'; "
            + "mv '\(home.url.path)/status.tmp' '\(home.url.path)/status'; sleep 30"
        return (home, data, stty, try TmuxDriver(command: command, columns: 80, rows: rows))
    }

    /// mhz exited 0 and left the terminal in its normal modes, with no UI on screen.
    private func expectCleanExit(home: TemporaryDirectory, stty: URL, _ tmux: TmuxDriver) async throws {
        let statusFile = home.path("status")
        #expect(try await tmux.wait(seconds: 15) { FileManager.default.fileExists(atPath: statusFile.path) },
                "\(screen(tmux))")
        #expect(try String(contentsOf: statusFile, encoding: .utf8) == "exit=0\n")
        #expect(try await tmux.wait { FileManager.default.fileExists(atPath: stty.path) })
        let modes = Set(try String(contentsOf: stty, encoding: .utf8).split(whereSeparator: \.isWhitespace))
        for mode in ["icanon", "echo", "isig", "icrnl", "opost", "onlcr"] {
            #expect(modes.contains(Substring(mode)), "terminal mode \(mode) restored")
        }
        #expect(try !tmux.capture().contains { $0.contains("♡") || $0.contains("♥") }, "the UI is gone")
    }

    @Test func whatCLibrariesPrintGoesToTheLogNotOverTheScreen() async throws {
        // ALSA with a card that does not exist (whatever cards the machine has) prints its
        // `ALSA lib …` lines to standard error when mpv opens the audio output.
        let (home, data, stty, tmux) = try Self.freshMhz(audioOutput: "alsa", environment: "ALSA_CARD=mhz-no-such-card")
        #expect(try await tmux.waitForScreen(containing: "No audio output", seconds: 60), "\(screen(tmux))")
        let shown = try tmux.capture()
        let log = data.appendingPathComponent("mhz.log")
        #expect(try await tmux.wait(seconds: 15) {
            ((try? String(contentsOf: log, encoding: .utf8)) ?? "").contains("ALSA lib")
        }, "ALSA said nothing: the test proves nothing on this machine")
        #expect(!shown.contains { $0.contains("ALSA") || $0.contains("snd_") }, "\(shown.joined(separator: "\n"))")
        #expect(shown.last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }?.contains("q quit") == true)
        try tmux.send("q")
        try await expectCleanExit(home: home, stty: stty, tmux)
    }

    @Test func theTerminalUIIsDrivenThroughItsControlSocketToo() async throws {
        // A runtime directory shared by the mhz in tmux and the `mhz ctl` beside it.
        let runtime = try TemporaryDirectory(prefix: "mhz-tui-run")
        let (home, data, stty, tmux) = try Self.freshMhz(environment: "XDG_RUNTIME_DIR='\(runtime.url.path)'")
        #expect(try await tmux.waitForScreen(containing: "♡", seconds: 30), "\(screen(tmux))")
        func ctl(_ words: String...) async throws -> [String] {
            let process = try BuiltMhz(["ctl", "--data-dir", data.path] + words,
                                         environment: ["XDG_RUNTIME_DIR": runtime.url.path])
            process.closeInput()
            #expect(try await process.exit() == 0, "\(process.stderr)")
            return process.lines
        }
        // status names the song on screen; like turns its heart red there.
        let status = try #require(try await ctl("status").first)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(status.utf8)) as? [String: Any])
        let title = try #require(object["title"] as? String)
        #expect(try tmux.capture().contains { $0.contains(title + " ♡") })
        #expect(try await ctl("like") == [#"{"command":"like","ok":true}"#])
        #expect(try await tmux.waitForScreen(containing: title + " ♥"), "\(screen(tmux))")
        #expect(try await ctl("quit") == [#"{"command":"quit","ok":true}"#])
        try await expectCleanExit(home: home, stty: stty, tmux)
    }

    @Test func freshStartPlaysTheDemoLibraryAndKeysWork() async throws {
        let (home, data, stty, tmux) = try Self.freshMhz()

        // A title from the demo library shows, with the like mark.
        #expect(try await tmux.waitForScreen(containing: "♡", seconds: 30), "\(screen(tmux))")
        let titles = try LibraryScanner(root: data.appendingPathComponent("station/demo-library")).scan().map(\.title)
        #expect(titles.count >= 8)
        let first = try #require(try shownTitle(tmux, among: titles), "no demo title on screen: \(screen(tmux))")
        #expect(try tmux.capture().contains { $0.contains("私人兆赫") }, "the channel name shows")

        // The elapsed time moves: audio is being clocked.
        #expect(try await tmux.wait(seconds: 20) { try elapsed(tmux).map { $0 >= 2 } ?? false }, "\(screen(tmux))")

        // n: another title.
        try tmux.send("n")
        #expect(try await tmux.wait(seconds: 15) { try shownTitle(tmux, among: titles).map { $0 != first } ?? false },
                "\(screen(tmux))")

        // c: the channel list, with the genre channels; Escape closes it.
        try tmux.send("c")
        #expect(try await tmux.waitForScreen(containing: "Ambient"), "\(screen(tmux))")
        try tmux.send("Escape")
        #expect(try await tmux.wait { try shownTitle(tmux, among: titles) != nil })

        // A resize redraws at the new width: the header's state word moves from column 79
        // to column 49 (tmux only crops what it had, which would cut the word off).
        try tmux.resize(columns: 50, rows: 14)
        #expect(try await tmux.wait { try Self.header(tmux, fits: 49) && shownTitle(tmux, among: titles) != nil },
                "\(screen(tmux))")

        // q: mhz exits 0 and the terminal is back in its normal modes.
        try tmux.send("q")
        try await expectCleanExit(home: home, stty: stty, tmux)
    }

    @Test func aKeyBoundToACommandLineInTheConfigSendsIt() async throws {
        // 30 rows: the help lists the playing screen's 21 keys first and a binding of the
        // config after them, where a 24-row screen cuts it off.
        let (home, _, stty, tmux) = try Self.freshMhz(config: """
            [keys]
            "9" = "volume 40"
            skip = "x"
            """, rows: 30)
        #expect(try await tmux.waitForScreen(containing: "♡", seconds: 30), "\(screen(tmux))")
        #expect(try tmux.capture().contains { $0.contains("vol 100%") }, "\(screen(tmux))")
        try tmux.send("9")
        #expect(try await tmux.waitForScreen(containing: "vol 40%"), "\(screen(tmux))")
        // The help screen lists the binding under its command line, beside the remapped skip.
        try tmux.send("?")
        #expect(try await tmux.wait { try tmux.capture().contains { $0.contains("9") && $0.contains("volume 40") } },
                "\(screen(tmux))")
        #expect(try tmux.capture().contains { $0.contains("x") && $0.contains("skip") }, "\(screen(tmux))")
        try tmux.send("Escape")
        #expect(try await tmux.waitForScreen(containing: "♡"), "\(screen(tmux))")
        try tmux.send("q")
        try await expectCleanExit(home: home, stty: stty, tmux)
    }

    @Test func ctrlCQuitsWithThePositionSavedAndTheTerminalRestored() async throws {
        let (home, data, stty, tmux) = try Self.freshMhz()
        #expect(try await tmux.waitForScreen(containing: "♡", seconds: 30), "\(screen(tmux))")
        #expect(try await tmux.wait(seconds: 20) { try elapsed(tmux).map { $0 >= 2 } ?? false }, "\(screen(tmux))")

        // Ctrl-C reaches mhz as SIGINT through the terminal (curses keeps ISIG on).
        try tmux.send("C-c")
        try await expectCleanExit(home: home, stty: stty, tmux)
        // The position was saved on the way out, near the two seconds the clock showed (the
        // clock is extrapolated between the player's reports; the save is not).
        let database = try MhzDatabase(path: data.appendingPathComponent("mhz.sqlite"))
        let saved = try #require(try database.lastPosition())
        #expect(saved.position >= 1.5, "\(saved)")
        #expect(try database.setting("radio.last_channel") == "0")
    }

    /// Whether the header line (channel name left, state word right) is laid out for
    /// exactly `columns` display columns. The channel name is 私人兆赫: four double-width
    /// characters, each one `Character` but two columns.
    private static func header(_ tmux: TmuxDriver, fits columns: Int) throws -> Bool {
        guard let header = try tmux.capture().first else { return false }
        return header.hasPrefix(" 私人兆赫") && header.hasSuffix("playing") && header.count + 4 == columns
    }

    /// The screen as text, for failure messages.
    private func screen(_ tmux: TmuxDriver) -> String { (try? tmux.capture())?.joined(separator: "\n") ?? "" }

    /// The elapsed seconds the progress line shows (`m:ss / m:ss`), if any.
    private func elapsed(_ tmux: TmuxDriver) throws -> Int? {
        for line in try tmux.capture() {
            guard let slash = line.range(of: " / ") else { continue }
            let clock = line[..<slash.lowerBound].split(separator: " ").last ?? ""
            let parts = clock.split(separator: ":").compactMap { Int($0) }
            if parts.count == 2 { return parts[0] * 60 + parts[1] }
        }
        return nil
    }

    /// The demo title currently on screen, if any.
    private func shownTitle(_ tmux: TmuxDriver, among titles: [String]) throws -> String? {
        let screen = try tmux.capture()
        return titles.first { title in screen.contains { $0.contains(title + " ♡") || $0.contains(title + " ♥") } }
    }
}

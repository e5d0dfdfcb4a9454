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
    /// A fresh user's `mhz` in an 80×24 terminal: a home without ~/Music (so the embedded
    /// station falls back to the demo library), `config` as its config.toml. With `seeded`,
    /// the data folder already holds the demo library, as after a first start: for the tests
    /// whose matter is not that first start.
    private static func freshMhz(config: String? = nil, audioOutput: String = "null", environment: [String: String] = [:],
                                 rows: Int = 24, seeded: Bool = true) async throws -> Fresh {
        let home = try TemporaryDirectory(prefix: "mhz-e2e-home")
        if let config {
            let folder = home.path("config/mhz")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(config.utf8).write(to: folder.appendingPathComponent("config.toml"))
        }
        let data = home.path("data")
        if seeded { try await DemoSeed.copy(to: data.appendingPathComponent("station/demo-library")) }
        let terminal = try TerminalMhz(["--audio-output", audioOutput, "--data-dir", data.path], home: home.url,
                                       environment: environment, rows: rows)
        return Fresh(home: home, data: data, terminal: terminal)
    }

    /// A fresh mhz and its home, which goes (removed) with the value.
    private struct Fresh {
        let home: TemporaryDirectory
        /// Its data folder.
        let data: URL
        let terminal: TerminalMhz
    }

    /// mhz exited 0 and left the terminal in its normal modes, with no UI on screen.
    private func expectCleanExit(_ fresh: Fresh) async throws {
        let terminal = fresh.terminal
        #expect(try await terminal.exitStatus() == 0, "\(terminal.screen)")
        let modes = Set(try terminal.modesAfterExit().split(whereSeparator: \.isWhitespace))
        for mode in ["icanon", "echo", "isig", "icrnl", "opost", "onlcr"] {
            #expect(modes.contains(Substring(mode)), "terminal mode \(mode) restored")
        }
        #expect(try !terminal.capture().contains { $0.contains("♡") || $0.contains("♥") }, "the UI is gone")
    }

    @Test func whatCLibrariesPrintGoesToTheLogNotOverTheScreen() async throws {
        // ALSA with a card that does not exist (whatever cards the machine has) prints its
        // `ALSA lib …` lines to standard error when mpv opens the audio output.
        let fresh = try await Self.freshMhz(audioOutput: "alsa", environment: ["ALSA_CARD": "mhz-no-such-card"])
        let (data, terminal) = (fresh.data, fresh.terminal)
        try await terminal.waitForScreen(containing: "No audio output", within: .seconds(60))
        let shown = try terminal.capture()
        let log = data.appendingPathComponent("mhz.log")
        try await waitUntil("ALSA's lines in the log (ALSA said nothing: the test proves nothing on this machine)") {
            ((try? String(contentsOf: log, encoding: .utf8)) ?? "").contains("ALSA lib")
        }
        #expect(!shown.contains { $0.contains("ALSA") || $0.contains("snd_") }, "\(shown.joined(separator: "\n"))")
        #expect(shown.last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }?.contains("q quit") == true)
        try terminal.send("q")
        try await expectCleanExit(fresh)
    }

    @Test func theTerminalUIIsDrivenThroughItsControlSocketToo() async throws {
        // A runtime directory shared by the mhz in tmux and the `mhz ctl` beside it.
        let runtime = try TemporaryDirectory(prefix: "mhz-tui-run")
        let fresh = try await Self.freshMhz(environment: ["XDG_RUNTIME_DIR": runtime.url.path])
        let (data, terminal) = (fresh.data, fresh.terminal)
        try await terminal.waitForScreen(containing: "♡")
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
        #expect(try terminal.capture().contains { $0.contains(title + " ♡") })
        #expect(try await ctl("like") == [#"{"command":"like","ok":true}"#])
        try await terminal.waitForScreen(containing: title + " ♥")
        #expect(try await ctl("quit") == [#"{"command":"quit","ok":true}"#])
        try await expectCleanExit(fresh)
    }

    @Test func freshStartPlaysTheDemoLibraryAndKeysWork() async throws {
        let fresh = try await Self.freshMhz(seeded: false)
        let (data, terminal) = (fresh.data, fresh.terminal)

        // A title from the demo library shows, with the like mark.
        try await terminal.waitForScreen(containing: "♡")
        let titles = try LibraryScanner(root: data.appendingPathComponent("station/demo-library")).scan().map(\.title)
        #expect(titles.count >= 8)
        let first = try #require(try shownTitle(terminal, among: titles), "no demo title on screen: \(terminal.screen)")
        #expect(try terminal.capture().contains { $0.contains("私人兆赫") }, "the channel name shows")

        // The elapsed time moves: audio is being clocked.
        try await waitUntil("two seconds elapsed; screen:\n\(terminal.screen)") { try elapsed(terminal).map { $0 >= 2 } ?? false }

        // n: another title.
        try terminal.send("n")
        try await waitUntil("another title; screen:\n\(terminal.screen)") {
            try shownTitle(terminal, among: titles).map { $0 != first } ?? false
        }

        // c: the channel list, with the genre channels; Escape closes it.
        try terminal.send("c")
        try await terminal.waitForScreen(containing: "Ambient")
        try terminal.send("Escape")
        try await waitUntil("a title again; screen:\n\(terminal.screen)") { try shownTitle(terminal, among: titles) != nil }

        // A resize redraws at the new width: the header's state word moves from column 79
        // to column 49 (tmux only crops what it had, which would cut the word off).
        try terminal.tmux.resize(columns: 50, rows: 14)
        try await waitUntil("the header laid out for 49 columns; screen:\n\(terminal.screen)") {
            try Self.header(terminal, fits: 49) && shownTitle(terminal, among: titles) != nil
        }

        // q: mhz exits 0 and the terminal is back in its normal modes.
        try terminal.send("q")
        try await expectCleanExit(fresh)
    }

    @Test func aKeyBoundToACommandLineInTheConfigSendsIt() async throws {
        // 30 rows: the help lists the playing screen's 21 keys first and a binding of the
        // config after them, where a 24-row screen cuts it off.
        let fresh = try await Self.freshMhz(config: """
            [keys]
            "9" = "volume 40"
            skip = "x"
            """, rows: 30)
        let terminal = fresh.terminal
        try await terminal.waitForScreen(containing: "♡")
        // The status line shows the volume once the player has reported it, which can come
        // after the song's title (the line says "Loading…" until then).
        try await terminal.waitForScreen(containing: "vol 100%")
        try terminal.send("9")
        try await terminal.waitForScreen(containing: "vol 40%")
        // The help screen lists the binding under its command line, beside the remapped skip.
        try terminal.send("?")
        try await waitUntil("the binding in the help; screen:\n\(terminal.screen)") {
            try terminal.capture().contains { $0.contains("9") && $0.contains("volume 40") }
        }
        #expect(try terminal.capture().contains { $0.contains("x") && $0.contains("skip") }, "\(terminal.screen)")
        try terminal.send("Escape")
        try await terminal.waitForScreen(containing: "♡")
        try terminal.send("q")
        try await expectCleanExit(fresh)
    }

    @Test func ctrlCQuitsWithThePositionSavedAndTheTerminalRestored() async throws {
        let fresh = try await Self.freshMhz()
        let (data, terminal) = (fresh.data, fresh.terminal)
        try await terminal.waitForScreen(containing: "♡")
        try await waitUntil("two seconds elapsed; screen:\n\(terminal.screen)") { try elapsed(terminal).map { $0 >= 2 } ?? false }

        // Ctrl-C reaches mhz as SIGINT through the terminal (curses keeps ISIG on).
        try terminal.send("C-c")
        try await expectCleanExit(fresh)
        // The position was saved on the way out, near the two seconds the clock showed (the
        // clock is extrapolated between the player's reports; the save is not).
        let database = try MhzDatabase(path: data.appendingPathComponent("mhz.sqlite"))
        let saved = try #require(try database.lastPosition())
        #expect(saved.position >= 1.5, "\(saved)")
        #expect(try database.setting("radio.last_channel") == "0")
        withExtendedLifetime(fresh) {}
    }

    /// Whether the header line (channel name left, state word right) is laid out for
    /// exactly `columns` display columns. The channel name is 私人兆赫: four double-width
    /// characters, each one `Character` but two columns.
    private static func header(_ terminal: TerminalMhz, fits columns: Int) throws -> Bool {
        guard let header = try terminal.capture().first else { return false }
        return header.hasPrefix(" 私人兆赫") && header.hasSuffix("playing") && header.count + 4 == columns
    }

    /// The elapsed seconds the progress line shows (`m:ss / m:ss`), if any.
    private func elapsed(_ terminal: TerminalMhz) throws -> Int? {
        for line in try terminal.capture() {
            guard let slash = line.range(of: " / ") else { continue }
            let clock = line[..<slash.lowerBound].split(separator: " ").last ?? ""
            let parts = clock.split(separator: ":").compactMap { Int($0) }
            if parts.count == 2 { return parts[0] * 60 + parts[1] }
        }
        return nil
    }

    /// The demo title currently on screen, if any.
    private func shownTitle(_ terminal: TerminalMhz, among titles: [String]) throws -> String? {
        let screen = try terminal.capture()
        return titles.first { title in screen.contains { $0.contains(title + " ♡") || $0.contains(title + " ♥") } }
    }
}

import Foundation
import TestSupport
import Testing
@testable import TerminalUI

/// Covers on the real screen: the TUIHarness in tmux (256 colours) with a red cover file
/// generated here and drawn by the real chafa, read back with `capture-pane`, colours
/// included. Each terminal ends its tmux server when it goes, failed test or not.
@Suite(.serialized)
struct CoverTmuxTests {
    /// Palette red, which chafa draws a red image in.
    static let red: UInt8 = 196

    /// The harness in a terminal of its own, in `home`, logging to `home/log`; `cover`
    /// becomes its first song's cover; `path` is where it looks for chafa.
    static func harness(in home: TemporaryDirectory, cover: URL?, path: String = "/usr/bin:/bin",
                        columns: Int, rows: Int) throws -> TerminalMhz {
        var environment = ["TERM": "tmux-256color", "MHZ_TUI_LOG": home.path("log").path]
        environment["MHZ_TUI_COVER"] = cover?.path
        return try TerminalMhz([], home: home.url, environment: environment, path: path, columns: columns, rows: rows,
                               program: BuiltProduct.path("TUIHarness"))
    }

    /// A solid red PNG in `directory`.
    static func redCover(in directory: TemporaryDirectory) throws -> URL {
        let file = directory.path("cover.png")
        try MediaFactory.solidImage(at: file, color: "red")
        return file
    }

    /// Each screen row's cell backgrounds, read from tmux's SGR codes.
    static func backgrounds(_ tmux: TmuxDriver) throws -> [[UInt8?]] {
        try tmux.capture(escapes: true).map { row in
            CoverArt(sgr: row).rows.first?.map(\.background) ?? []
        }
    }

    /// The (row, column) of every red cell on the screen.
    static func redCells(_ tmux: TmuxDriver) throws -> Set<[Int]> {
        var cells = Set<[Int]>()
        for (row, backgrounds) in try backgrounds(tmux).enumerated() {
            for (column, background) in backgrounds.enumerated() where background == red { cells.insert([row, column]) }
        }
        return cells
    }

    /// The cells of `area`.
    static func cells(of area: CoverArea) -> Set<[Int]> {
        Set((area.row..<(area.row + area.rows)).flatMap { row in
            (area.column..<(area.column + area.columns)).map { [row, $0] }
        })
    }

    /// The harness's screen without a cover, once paused (so the clock stands still), at
    /// `columns` × `rows`.
    static func plainScreen(columns: Int, rows: Int) async throws -> [String] {
        let home = try TemporaryDirectory(prefix: "mhz-cover-tui-plain")
        let terminal = try harness(in: home, cover: nil, columns: columns, rows: rows)
        try await terminal.waitForScreen(containing: "So What ♥")
        try terminal.send("Space")
        try await terminal.waitForScreen(containing: "paused")
        return try terminal.capture()
    }

    /// Shows the harness with `cover` paused at `columns` × `rows` (chafa looked for on
    /// `path`) and expects its screen to become `plain`, with no coloured cell.
    ///
    /// Where no cover fits, the first frame is already laid out without one (the area is
    /// kept free, at once, only where a cover fits). Where one fits but cannot be drawn,
    /// the first frames keep its area free, and the plain layout comes once the drawing
    /// failed, for good: a file that failed is not drawn again. So the plain screen is the
    /// last one either way, and a cover drawn instead never becomes it.
    static func expectPlain(_ plain: [String], cover: URL, path: String = "/usr/bin:/bin",
                            columns: Int, rows: Int) async throws {
        let home = try TemporaryDirectory(prefix: "mhz-cover-tui")
        let terminal = try harness(in: home, cover: cover, path: path, columns: columns, rows: rows)
        try await terminal.waitForScreen(containing: "So What ♥")
        try terminal.send("Space")
        try await terminal.waitForScreen(containing: "paused")
        try await waitUntil("the screen without a cover; it is:\n\(terminal.screen)\nnot:\n\(plain.joined(separator: "\n"))") {
            try terminal.capture() == plain
        }
        #expect(try !terminal.tmux.capture(escapes: true).joined().contains("48;5;"), "no coloured cell")
    }

    @Test func wideTerminalDrawsTheCoverLeftOfTheSongAndASongWithoutOneTakesItDown() async throws {
        let home = try TemporaryDirectory(prefix: "mhz-cover-tui")
        let terminal = try Self.harness(in: home, cover: try Self.redCover(in: home), columns: 80, rows: 24)
        let tmux = terminal.tmux
        let area = try #require(CoverArea.fitting(width: 80, height: 24))
        let title = String(repeating: " ", count: area.textColumn) + "So What ♥"
        try await waitUntil("the title right of the cover; screen:\n\(terminal.screen)") { try tmux.row(2) == title }
        try await waitUntil("the cover drawn in its area; screen:\n\(((try? tmux.capture(escapes: true)) ?? []))") {
            try Self.redCells(tmux) == Self.cells(of: area)
        }
        #expect(try tmux.row(6).hasPrefix(String(repeating: " ", count: area.textColumn) + "━"))

        // Too narrow: the plain screen; wide again: the cover comes back.
        try tmux.resize(columns: 60, rows: 24)
        try await waitUntil("the plain title; screen:\n\(terminal.screen)") { try tmux.row(2) == "  So What ♥" }
        try await waitUntil("no red cell") { try Self.redCells(tmux).isEmpty }
        try tmux.resize(columns: 80, rows: 24)
        try await waitUntil("the cover again") { try Self.redCells(tmux) == Self.cells(of: area) }

        // The fake radio's next song has no cover.
        try terminal.send("n")
        try await waitUntil("the next song; screen:\n\(terminal.screen)") { try tmux.row(2) == "  晴天 ♡" }
        #expect(try Self.redCells(tmux).isEmpty)

        try terminal.send("q")
        #expect(try await terminal.exitStatus() == 0, "\(terminal.screen)")
        #expect(TerminalAppTmuxTests.logLines(in: home) == ["skip", "quit", "returned"])
    }

    @Test func narrowTerminalShowsTheScreenWithoutCover() async throws {
        let directory = try TemporaryDirectory(prefix: "mhz-cover-tui")
        let cover = try Self.redCover(in: directory)
        let plain = try await Self.plainScreen(columns: 60, rows: 24)
        #expect(plain[2] == "  So What ♥")
        try await Self.expectPlain(plain, cover: cover, columns: 60, rows: 24)
        // Wide but too short is the same.
        try await Self.expectPlain(try await Self.plainScreen(columns: 100, rows: 13), cover: cover, columns: 100, rows: 13)
    }

    @Test func withoutChafaThereIsNoCoverAndNoError() async throws {
        let directory = try TemporaryDirectory(prefix: "mhz-cover-tui")
        let cover = try Self.redCover(in: directory)
        let plain = try await Self.plainScreen(columns: 80, rows: 24)
        #expect(plain[2] == "  So What ♥")
        try await Self.expectPlain(plain, cover: cover, path: "/nonexistent", columns: 80, rows: 24)
    }
}

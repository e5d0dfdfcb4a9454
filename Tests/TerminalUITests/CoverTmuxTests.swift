import Foundation
import TestSupport
import Testing
@testable import TerminalUI

/// Covers on the real screen: the TUIHarness in tmux (256 colours) with a red cover file
/// generated here and drawn by the real chafa, read back with `capture-pane`, colours
/// included. Each `TmuxDriver` ends its tmux server when it goes, failed test or not.
@Suite(.serialized)
struct CoverTmuxTests {
    /// Palette red, which chafa draws a red image in.
    static let red: UInt8 = 196

    /// The harness's command line; `cover` becomes its first song's cover.
    static func command(log: String, cover: URL?, environment: String = "") -> String {
        let coverVariable = cover.map { "MHZ_TUI_COVER='\($0.path)' " } ?? ""
        return "exec env LANG=C.UTF-8 TERM=tmux-256color \(environment) \(coverVariable)MHZ_TUI_LOG='\(log)' "
            + "'\(BuiltProduct.path("TUIHarness"))'"
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

    /// The harness's screen once paused (so the clock stands still), at `columns` × `rows`.
    static func pausedScreen(cover: URL?, environment: String = "", columns: Int, rows: Int) async throws -> [String] {
        let log = TerminalAppTmuxTests.temporaryLog()
        defer { try? FileManager.default.removeItem(atPath: log) }
        let tmux = try TmuxDriver(command: command(log: log, cover: cover, environment: environment),
                                  columns: columns, rows: rows)
        #expect(try await tmux.waitForScreen(containing: "So What ♥"))
        try tmux.send("Space")
        #expect(try await tmux.waitForScreen(containing: "paused"))
        // Long enough for a cover drawing to finish and be drawn, if one were coming.
        try await Task.sleep(for: .milliseconds(600))
        let screen = try tmux.capture()
        #expect(try !tmux.capture(escapes: true).joined().contains("48;5;"), "no coloured cell")
        return screen
    }

    @Test func wideTerminalDrawsTheCoverLeftOfTheSongAndASongWithoutOneTakesItDown() async throws {
        let directory = try TemporaryDirectory(prefix: "mhz-cover-tui")
        let log = TerminalAppTmuxTests.temporaryLog()
        defer { try? FileManager.default.removeItem(atPath: log) }
        let tmux = try TmuxDriver(command: Self.command(log: log, cover: try Self.redCover(in: directory)),
                                  columns: 80, rows: 24)
        let area = try #require(CoverArea.fitting(width: 80, height: 24))
        let title = String(repeating: " ", count: area.textColumn) + "So What ♥"
        #expect(try await tmux.wait { try tmux.row(2) == title })
        let drawn = try await tmux.wait { try Self.redCells(tmux) == Self.cells(of: area) }
        #expect(drawn, "\((try? tmux.capture(escapes: true)) ?? [])")
        #expect(try tmux.row(6).hasPrefix(String(repeating: " ", count: area.textColumn) + "━"))

        // Too narrow: the plain screen; wide again: the cover comes back.
        try tmux.resize(columns: 60, rows: 24)
        #expect(try await tmux.wait { try tmux.row(2) == "  So What ♥" })
        #expect(try await tmux.wait { try Self.redCells(tmux).isEmpty })
        try tmux.resize(columns: 80, rows: 24)
        #expect(try await tmux.wait { try Self.redCells(tmux) == Self.cells(of: area) })

        // The fake radio's next song has no cover.
        try tmux.send("n")
        #expect(try await tmux.wait { try tmux.row(2) == "  晴天 ♡" })
        #expect(try Self.redCells(tmux).isEmpty)

        try tmux.send("q")
        #expect(try await tmux.wait { try tmux.paneIsDead() })
        #expect(TerminalAppTmuxTests.logLines(log) == ["skip", "quit", "returned"])
    }

    @Test func narrowTerminalShowsTheScreenWithoutCover() async throws {
        let directory = try TemporaryDirectory(prefix: "mhz-cover-tui")
        let cover = try Self.redCover(in: directory)
        let plain = try await Self.pausedScreen(cover: nil, columns: 60, rows: 24)
        let withCover = try await Self.pausedScreen(cover: cover, columns: 60, rows: 24)
        #expect(withCover == plain)
        #expect(withCover[2] == "  So What ♥")
        // Wide but too short is the same.
        #expect(try await Self.pausedScreen(cover: cover, columns: 100, rows: 13)
            == Self.pausedScreen(cover: nil, columns: 100, rows: 13))
    }

    @Test func withoutChafaThereIsNoCoverAndNoError() async throws {
        let directory = try TemporaryDirectory(prefix: "mhz-cover-tui")
        let cover = try Self.redCover(in: directory)
        let plain = try await Self.pausedScreen(cover: nil, columns: 80, rows: 24)
        let withoutChafa = try await Self.pausedScreen(cover: cover, environment: "PATH=/nonexistent",
                                                       columns: 80, rows: 24)
        #expect(withoutChafa == plain)
        #expect(withoutChafa[2] == "  So What ♥")
    }
}

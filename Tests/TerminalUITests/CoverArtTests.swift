import Foundation
import TestSupport
import Testing
@testable import TerminalUI

/// `CoverArt(sgr:)` on chafa's real output: exact cells and colours for images whose
/// drawing is known, and the escape codes chafa may write.
@Suite struct CoverArtTests {
    /// chafa 1.12's output for a 64×64 red PNG at `--size 4x2 --colors 256`: the first
    /// cell a reversed space, the rest spaces on red.
    static let redChafaOutput = "\u{1B}[0m\u{1B}[7m\u{1B}[38;5;196m \u{1B}[0m\u{1B}[38;5;1;48;5;196m   \u{1B}[0m\n"
        + "\u{1B}[7m\u{1B}[38;5;196m \u{1B}[0m\u{1B}[38;5;1;48;5;196m   \u{1B}[0m\n"

    /// A cell of a solid red cover: a space on palette red.
    static let red = CoverArt.Cell(" ", background: 196)

    @Test func solidRedIsSpacesOnRed() {
        let art = CoverArt(sgr: Self.redChafaOutput)
        #expect(art == CoverArt(rows: Array(repeating: Array(repeating: Self.red, count: 4), count: 2)))
        #expect(art.width == 4 && art.height == 2)
    }

    @Test func symbolsKeepBothColours() {
        // From chafa's drawing of ffmpeg's test pattern.
        let art = CoverArt(sgr: "\u{1B}[0m\u{1B}[38;5;240;48;5;232m▁\u{1B}[48;5;226m \u{1B}[38;5;46;48;5;201m▇\u{1B}[0m\n")
        #expect(art.rows == [[
            CoverArt.Cell("▁", foreground: 240, background: 232),
            CoverArt.Cell(" ", background: 226),
            CoverArt.Cell("▇", foreground: 46, background: 201),
        ]])
    }

    @Test func reverseSwapsKnownColoursAndIsKeptAgainstTheDefault() {
        let art = CoverArt(sgr: "\u{1B}[7;38;5;1;48;5;2mx\u{1B}[49my\u{1B}[27mz")
        #expect(art.rows == [[
            CoverArt.Cell("x", foreground: 2, background: 1),
            CoverArt.Cell("y", foreground: 1, reverse: true),
            CoverArt.Cell("z", foreground: 1),
        ]])
    }

    @Test func basicBrightTruecolorAndDefaultColours() {
        let art = CoverArt(sgr: "\u{1B}[31;42ma\u{1B}[91;102mb\u{1B}[38;2;255;0;0;48;2;128;128;128mc\u{1B}[39;49md")
        #expect(art.rows == [[
            CoverArt.Cell("a", foreground: 1, background: 2),
            CoverArt.Cell("b", foreground: 9, background: 10),
            CoverArt.Cell("c", foreground: 196, background: 244),
            CoverArt.Cell("d"),
        ]])
    }

    @Test func otherEscapesControlsAndTrailingBlankRowsAreDropped() {
        let art = CoverArt(sgr: "\u{1B}[?25l\u{1B}]0;title\u{07}ab\r\n\u{1B}]8;;x\u{1B}\\c\u{1B}[2Kd\n\n\u{1B}[?25h\n")
        #expect(art.rows == [[CoverArt.Cell("a"), CoverArt.Cell("b")], [CoverArt.Cell("c"), CoverArt.Cell("d")]])
    }

    @Test func wideSymbolsBecomeOneColumn() {
        let art = CoverArt(sgr: "\u{1B}[48;5;9m中e\u{301}")
        #expect(art.rows == [[CoverArt.Cell(" ", background: 9), CoverArt.Cell("e\u{301}", background: 9)]])
    }

    @Test func realChafaDrawsASolidRedCoverAsSpacesOnRed() throws {
        // script/setup --test installs chafa: without it this test fails rather than passes.
        let chafa = try #require(["/usr/bin/chafa", "/usr/local/bin/chafa"].first(where: {
            FileManager.default.isExecutableFile(atPath: $0)
        }), "chafa is not installed")
        let directory = try TemporaryDirectory(prefix: "mhz-cover")
        let image = directory.path("red.png")
        try MediaFactory.solidImage(at: image, color: "red")
        let drawn = try Tool.run(chafa, ["--format", "symbols", "--colors", "256", "--polite", "on", "--size", "24x12",
                                         image.path])
        let art = CoverArt(sgr: drawn.text)
        #expect(art == CoverArt(rows: Array(repeating: Array(repeating: Self.red, count: 24), count: 12)))
    }
}

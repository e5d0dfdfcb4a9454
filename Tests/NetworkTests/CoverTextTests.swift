import Foundation
import TerminalUI
import TestSupport
import Testing
@testable import mhz

/// The terminal UI's covers as the `mhz` target draws them: chafa's exact arguments,
/// real chafa on generated images read into exact cells, and nil, not an error, when
/// chafa is missing or cannot read the file.
struct CoverTextTests {
    /// A cell of a solid red cover: a space on palette red.
    static let red = CoverArt.Cell(" ", background: 196)

    @Test func asksChafaForSymbolsIn256ColoursAndNothingElse() {
        #expect(CoverText.arguments(for: URL(fileURLWithPath: "/data/covers/1.jpg"), columns: 24, rows: 12)
            == ["--format", "symbols", "--colors", "256", "--polite", "on", "--animate", "off",
                "--size", "24x12", "/data/covers/1.jpg"])
    }

    @Test(arguments: ["png", "jpg"])
    func aSolidRedCoverIsSpacesOnRed(format: String) throws {
        let directory = try TemporaryDirectory(prefix: "mhz-cover")
        let image = directory.path("cover.\(format)")
        try MediaFactory.solidImage(at: image, color: "red")
        let started = ContinuousClock.now
        let art = CoverText.art(of: image, columns: 24, rows: 12)
        // chafa takes about 30 ms on a 2-core machine; the bound only catches a hang.
        #expect(ContinuousClock.now - started < .seconds(5))
        #expect(art == CoverArt(rows: Array(repeating: Array(repeating: Self.red, count: 24), count: 12)))
        // A square image keeps its shape in a wider area: 2 columns per row.
        #expect(CoverText.art(of: image, columns: 40, rows: 10).map { [$0.width, $0.height] } == [20, 10])
    }

    @Test func withoutChafaOnPathThereIsNoArt() throws {
        let directory = try TemporaryDirectory(prefix: "mhz-cover")
        let image = directory.path("cover.png")
        try MediaFactory.solidImage(at: image, color: "red")
        #expect(CoverText.art(of: image, columns: 24, rows: 12, environment: ["PATH": "/nonexistent"]) == nil)
    }

    @Test
    func aFileChafaCannotReadHasNoArt() throws {
        let directory = try TemporaryDirectory(prefix: "mhz-cover")
        let garbage = directory.path("cover.png")
        try Data("not an image".utf8).write(to: garbage)
        #expect(CoverText.art(of: garbage, columns: 24, rows: 12) == nil)
        #expect(CoverText.art(of: directory.path("missing.jpg"), columns: 24, rows: 12) == nil)
        #expect(CoverText.art(of: garbage, columns: 0, rows: 12) == nil)
    }

    @Test func aChafaThatHangsIsKilled() throws {
        let directory = try TemporaryDirectory(prefix: "mhz-cover")
        let pidFile = directory.path("pid")
        let fake = directory.path("chafa")
        try ChildLaunch.writeExecutable("#!/bin/sh\necho $$ > '\(pidFile.path)'\nexec sleep 60\n", to: fake)
        let started = ContinuousClock.now
        let art = CoverText.art(of: directory.path("cover.png"), columns: 24, rows: 12,
                                environment: ["PATH": directory.url.path], timeout: .milliseconds(300))
        #expect(art == nil)
        #expect(ContinuousClock.now - started < .seconds(5))
        let pid = try #require(pid_t(String(contentsOf: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(kill(pid, 0) == -1 && errno == ESRCH, "chafa was ended and reaped")
    }
}

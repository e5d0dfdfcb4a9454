import Foundation
import Testing
@testable import TerminalUI

/// When the UI starts drawing a cover, which drawing it shows, and when it keeps the
/// cover's area free.
@Suite struct CoverStateTests {
    /// Two songs' cover files.
    static let first = URL(fileURLWithPath: "/data/covers/1.jpg")
    /// The other song's.
    static let second = URL(fileURLWithPath: "/data/covers/2.png")
    /// The area on an 80 × 24 terminal (24 × 12 cells).
    static let wide = CoverArea.fitting(width: 80, height: 24)
    /// The area on the smallest terminal with one (16 × 8 cells).
    static let small = CoverArea.fitting(width: 70, height: 14)
    /// Some drawing.
    static let art = CoverArt(rows: [[CoverArt.Cell(" ", background: 196)]])

    @Test func oneDrawingPerFileAndSizeAndOneAtATime() {
        var state = CoverState()
        #expect(state.start(for: Self.wide) == nil, "no file yet")
        state.show(Self.first)
        let request = state.start(for: Self.wide)
        #expect(request == CoverState.Request(file: Self.first, columns: 24, rows: 12))
        #expect(state.start(for: Self.small) == nil, "one drawing at a time")
        #expect(state.reserves(Self.wide) && state.art(for: Self.wide) == nil, "kept free while it draws")

        state.finish(request!, art: Self.art)
        #expect(state.art(for: Self.wide) == Self.art)
        #expect(state.start(for: Self.wide) == nil, "already drawn")
        #expect(state.art(for: Self.small) == nil, "drawn for another size")
        #expect(state.start(for: Self.small) == CoverState.Request(file: Self.first, columns: 16, rows: 8))
        #expect(state.start(for: nil) == nil && !state.reserves(nil), "no area, no drawing")
    }

    @Test func aNewFileOrNoneHidesTheOldArtAtOnce() {
        var state = CoverState()
        state.show(Self.first)
        let request = state.start(for: Self.wide)!
        state.finish(request, art: Self.art)
        let revision = state.revision

        state.show(nil)
        #expect(state.art(for: Self.wide) == nil && !state.reserves(Self.wide))
        #expect(state.revision != revision, "the screen must redraw")
        state.show(Self.second)
        #expect(state.art(for: Self.wide) == nil && state.reserves(Self.wide))
    }

    @Test func aDrawingForAnOldFileIsNotShown() {
        var state = CoverState()
        state.show(Self.first)
        let old = state.start(for: Self.wide)!
        state.show(Self.second)
        #expect(state.start(for: Self.wide) == nil, "waits for the running drawing")
        state.finish(old, art: Self.art)
        #expect(state.art(for: Self.wide) == nil)
        #expect(state.start(for: Self.wide) == CoverState.Request(file: Self.second, columns: 24, rows: 12))
    }

    @Test func aFailedDrawingGivesTheLayoutBack() {
        var state = CoverState()
        state.show(Self.first)
        state.finish(state.start(for: Self.wide)!, art: nil)
        #expect(!state.reserves(Self.wide))
        // Another size is tried, but without a blank block meanwhile.
        #expect(state.start(for: Self.small) != nil)
        #expect(!state.reserves(Self.small))
    }
}

@testable import Station
import Testing

/// How a run of a broadcast begins after the last segment published (`LiveRunStart`): the
/// rules the restart tests see through the server, here with the moment chosen.
@Suite("Live run start")
struct LiveRunStartTests {
    /// A segment of 2 s ending at 10 000 ms, at sample 441 000 of the clock, 12 s into
    /// song "7".
    private static let last = LiveSegment(sequence: 41, start: 8_000, duration: 2, title: "A - B", discontinuity: false,
                                          era: 2, cue: LiveCue(clock: 441_000, sid: "7", offset: 12_000))

    private static func length(_ sid: String) -> Int64? { sid == "7" ? 40_000 : nil }

    @Test("nothing before: dated back, a fresh clock, nothing taken up, a break")
    func firstRun() {
        let start = LiveRunStart.after(nil, now: 100_000, datedBack: 6_000, length: Self.length)
        #expect(start == LiveRunStart(start: 94_000, clock: nil, continues: false, resumed: nil))
    }

    @Test("started within the prefill's time: it continues the last segment, its clock and its song")
    func withinPrefill() {
        let start = LiveRunStart.after(Self.last, now: 15_000, datedBack: 6_000, length: Self.length)
        #expect(start == LiveRunStart(start: 10_000, clock: 441_000, continues: true,
                                      resumed: .init(sid: "7", offset: 12_000)))
    }

    @Test("started later: dated back from now, a break, the clock and the song still taken up")
    func later() {
        let start = LiveRunStart.after(Self.last, now: 16_001, datedBack: 6_000, length: Self.length)
        #expect(start == LiveRunStart(start: 10_001, clock: 441_000, continues: false,
                                      resumed: .init(sid: "7", offset: 12_000)))
    }

    @Test("a song gone from the library, or in its last second, is not taken up")
    func songNotTakenUp() {
        var gone = Self.last
        gone.cue?.sid = "8"
        #expect(LiveRunStart.after(gone, now: 15_000, datedBack: 6_000, length: Self.length).resumed == nil)
        var ending = Self.last
        ending.cue?.offset = 39_000
        #expect(LiveRunStart.after(ending, now: 15_000, datedBack: 6_000, length: Self.length).resumed == nil)
        ending.cue?.offset = 38_999
        #expect(LiveRunStart.after(ending, now: 15_000, datedBack: 6_000, length: Self.length).resumed?.offset == 38_999)
        var silent = Self.last
        silent.cue?.sid = nil
        let start = LiveRunStart.after(silent, now: 15_000, datedBack: 6_000, length: Self.length)
        #expect(start.resumed == nil && start.continues && start.clock == 441_000)
    }

    @Test("a segment without a cue, or with a clock out of reason, starts the clock afresh after a break")
    func noCue() {
        var old = Self.last
        old.cue = nil
        #expect(LiveRunStart.after(old, now: 15_000, datedBack: 6_000, length: Self.length)
            == LiveRunStart(start: 10_000, clock: nil, continues: false, resumed: nil))
        for clock in [Int64(-1), 1 << 50, .max] {
            var odd = Self.last
            odd.cue?.clock = clock
            #expect(LiveRunStart.after(odd, now: 15_000, datedBack: 6_000, length: Self.length).clock == nil)
        }
        var negative = Self.last
        negative.cue?.offset = -5
        #expect(LiveRunStart.after(negative, now: 15_000, datedBack: 6_000, length: Self.length).resumed == nil)
    }
}

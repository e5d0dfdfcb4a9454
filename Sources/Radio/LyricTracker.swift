import RadioAPI

/// Which lyric line is current for the song playing, as its position moves: the pure part of
/// following lyrics. Fed the song's sheet when it arrives and every position after it; says
/// which lines became current, in order, so a listener (headless events, the terminal's
/// line) hears each line once as it is reached.
public struct LyricTracker: Sendable, Equatable {
    /// A line that became current.
    public struct Change: Sendable, Equatable {
        /// The song.
        public var sid: String
        /// The line's index in the sheet's ``LyricSheet/lines``.
        public var index: Int
        /// When the line begins in the song, in seconds, as the sheet times it (the
        /// listener's nudge not applied).
        public var time: Double
        /// The line's text.
        public var text: String

        /// Creates a change.
        public init(sid: String, index: Int, time: Double, text: String) {
            self.sid = sid
            self.index = index
            self.time = time
            self.text = text
        }
    }

    /// The song followed, nil before the first.
    public private(set) var sid: String?
    /// Its lyrics, nil while they are asked for or when it has none.
    public private(set) var sheet: LyricSheet?
    /// The listener's nudge in seconds: positive shows lines earlier.
    public private(set) var nudge: Double = 0
    /// The current line, nil before the first line.
    public private(set) var current: Int?
    /// The last position seen, in seconds.
    public private(set) var position: Double = 0

    /// A tracker following nothing.
    public init() {}

    /// Another song began: its lyrics are not known yet.
    public mutating func begin(sid: String, nudge: Double = 0) {
        self.sid = sid
        sheet = nil
        self.nudge = nudge
        current = nil
        position = 0
    }

    /// The lyrics of `sid` arrived (nil: it has none); ignored for a song no longer
    /// followed. Returns the line current at the position already reached.
    public mutating func receive(_ sheet: LyricSheet?, for sid: String) -> [Change] {
        guard sid == self.sid else { return [] }
        self.sheet = sheet
        current = nil
        return move(to: position, passing: false)
    }

    /// The song is at `seconds`: the lines that became current since the last position.
    /// Moving forward a little (playback) passes every line reached, in order; a jump
    /// (a seek, a resumed song) or a move back names only the line now current.
    public mutating func advance(to seconds: Double) -> [Change] {
        let passing = seconds >= position && seconds - position <= Self.continuousStep
        position = seconds
        return move(to: seconds, passing: passing)
    }

    /// Sets the nudge (seconds; positive shows lines earlier). Returns the line now current.
    public mutating func setNudge(_ seconds: Double) -> [Change] {
        nudge = seconds
        return move(to: position, passing: false)
    }

    /// The widest gap between two positions that still counts as playing on (positions
    /// come about four times a second).
    static let continuousStep = 2.0

    private mutating func move(to seconds: Double, passing: Bool) -> [Change] {
        guard let sid, let sheet, sheet.isSynced else { return [] }
        let now = sheet.lineIndex(at: seconds + nudge)
        guard now != current else { return [] }
        let first: Int
        if passing, let current, let now, now > current { first = current + 1 } else { first = now ?? 0 }
        current = now
        guard let now else { return [] }
        return (first...now).map { Change(sid: sid, index: $0, time: sheet.lines[$0].time, text: sheet.lines[$0].text) }
    }
}

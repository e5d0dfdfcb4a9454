import RadioAPI

/// A song's lyrics as a front end shows them: the lines, whether they carry times, and
/// which one is being sung. The radio never sets them (lyrics follow beside it); mhz's
/// terminal front end fills ``RadioSnapshot/lyrics`` from what the lyric follower heard.
public struct SongLyrics: Sendable, Equatable {
    /// The song.
    public var sid: String
    /// The lines: a synced sheet's timed lines in time order (``LyricSheet/lines``, so a
    /// ``LyricTracker/Change/index`` points into them), else the unsynced text's lines;
    /// empty when the song has no lyrics.
    public var lines: [String]
    /// Whether the lines carry times (one of them can be current).
    public var isSynced: Bool
    /// The index of the line being sung; nil before the first line and for unsynced lyrics.
    public var current: Int?

    /// Creates the lyrics of `sid`.
    public init(sid: String, lines: [String], isSynced: Bool, current: Int? = nil) {
        self.sid = sid
        self.lines = lines
        self.isSynced = isSynced
        self.current = current
    }

    /// The lyrics of `sid` read from `sheet` (nil: the song has none), no line current yet.
    public init(sid: String, sheet: LyricSheet?) {
        guard let sheet else {
            self.init(sid: sid, lines: [], isSynced: false)
            return
        }
        self.init(sid: sid, lines: sheet.isSynced ? sheet.lines.map(\.text) : sheet.plainLines,
                  isSynced: sheet.isSynced)
    }

    /// The text of the line being sung, nil when none is.
    public var currentLine: String? {
        current.flatMap { lines.indices.contains($0) ? lines[$0] : nil }
    }
}

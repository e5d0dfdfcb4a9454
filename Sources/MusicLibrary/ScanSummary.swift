import Foundation

/// What one library scan did, for ``Station/rescan()`` and the benchmark.
public struct ScanSummary: Sendable, Equatable {
    /// Playable files found in the folder.
    public var files: Int
    /// Tracks served after the scan (files TagLib could read).
    public var tracks: Int
    /// Files read with TagLib: new or changed ones. An unchanged library reads none.
    public var read: Int
    /// Files that were not in the library before the scan.
    public var added: Int
    /// Files that were in the library before the scan and are gone.
    public var removed: Int
    /// How long the scan took.
    public var duration: Duration

    /// Creates a summary.
    public init(files: Int, tracks: Int, read: Int, added: Int, removed: Int, duration: Duration) {
        self.files = files
        self.tracks = tracks
        self.read = read
        self.added = added
        self.removed = removed
        self.duration = duration
    }
}

extension ScanSummary {
    /// The line a scan that changed something ends with: `library scan: 20 500 files seen,
    /// 1 200 read (800 new), 3 gone, in 42 s`.
    package var closing: String {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return "library scan: \(ProgressPace.counted(files, "file")) seen, \(ProgressPace.grouped(read)) read "
            + "(\(ProgressPace.grouped(added)) new), \(ProgressPace.grouped(removed)) gone, in "
            + (seconds < 10 ? String(format: "%.1f s", seconds) : "\((duration + .milliseconds(500)).components.seconds) s")
    }

    /// The line a scan under way says at most every ``ProgressPace/interval``: `library scan:
    /// read 1 200 of 20 000 new or changed files (20 500 seen), 300 per second, about 1 min left`.
    package static func progress(read: Int, of toRead: Int, seen: Int, pace: ProgressPace,
                                 at now: ContinuousClock.Instant = .now) -> String {
        "library scan: read \(ProgressPace.grouped(read)) of \(ProgressPace.grouped(toRead)) new or changed files "
            + "(\(ProgressPace.grouped(seen)) seen), \(pace.rateText(read, at: now)), "
            + pace.leftText(done: read, of: toRead, at: now)
    }
}

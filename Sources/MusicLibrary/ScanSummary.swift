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

import Foundation
import RadioAPI

/// What the station serves: the scanned tracks, indexed by song id, and the channels built
/// from them. Immutable once built; a rescan builds a new one.
struct Library: Sendable {
    /// The tracks in relative-path order.
    let tracks: [LibraryTrack]
    /// The folder the tracks were scanned from.
    let root: URL
    /// Whether this is the synthesized demo library.
    let isDemo: Bool
    /// The channels over these tracks.
    let catalog: ChannelCatalog
    private let bySID: [String: LibraryTrack]

    /// Indexes `tracks` and builds their channels.
    init(tracks: [LibraryTrack], root: URL, isDemo: Bool) {
        self.tracks = tracks
        self.root = root
        self.isDemo = isDemo
        catalog = ChannelCatalog(tracks: tracks)
        bySID = Dictionary(tracks.map { ($0.sid, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The track with this song id, if any.
    func track(sid: String) -> LibraryTrack? {
        bySID[sid]
    }

    /// The summary the public API exposes.
    var info: LibraryInfo {
        LibraryInfo(trackCount: tracks.count, channels: catalog.channels, genres: catalog.genres,
                    isDemo: isDemo, path: root)
    }

    /// Loads the library for a configuration: the configured folder when it holds playable
    /// files, else the demo library (synthesized on first use).
    ///
    /// Blocking (TagLib reads every file); ``Station`` calls it off the cooperative pool.
    ///
    /// - Throws: ``StationError/libraryUnreadable(path:reason:)`` for a configured folder
    ///   that exists but cannot be listed (falling back to the demo would hide the mistake),
    ///   ``StationError/demoSynthesisFailed(path:reason:)`` when the demo cannot be written.
    static func load(_ configuration: StationConfiguration) throws(StationError) -> Library {
        if let folder = configuration.library {
            let tracks = try LibraryScanner(root: folder).scan()
            if !tracks.isEmpty { return Library(tracks: tracks, root: folder, isDemo: false) }
        }
        let demo = DemoLibrary(directory: configuration.demoLibraryDirectory)
        try demo.ensure()
        let tracks = try LibraryScanner(root: demo.directory).scan()
        guard tracks.count >= DemoLibrary.pieces.count else {
            throw .demoSynthesisFailed(path: demo.directory.path,
                                       reason: "scanned \(tracks.count) of \(DemoLibrary.pieces.count) tracks")
        }
        return Library(tracks: tracks, root: demo.directory, isDemo: true)
    }
}

/// A summary of the library a station serves, for status lines and `mhz serve`.
public struct LibraryInfo: Sendable, Equatable {
    /// How many tracks are served.
    public var trackCount: Int
    /// The listed channels, channel `0` first (as `/j/app/radio/channels` lists them).
    public var channels: [Channel]
    /// The genres that have a channel, in channel order.
    public var genres: [String]
    /// Whether the tracks are the synthesized demo library (no music folder was usable).
    public var isDemo: Bool
    /// The folder the tracks come from.
    public var path: URL

    /// Creates a summary.
    public init(trackCount: Int, channels: [Channel], genres: [String], isDemo: Bool, path: URL) {
        self.trackCount = trackCount
        self.channels = channels
        self.genres = genres
        self.isDemo = isDemo
        self.path = path
    }
}

import Foundation
import RadioAPI

/// What the station serves: the scanned tracks, indexed by song id, and the channels built
/// from them. Immutable once built; a rescan builds a new one and swaps it into the
/// ``LiveLibrary``.
package struct Library: Sendable {
    /// The tracks in relative-path order.
    package let tracks: [LibraryTrack]
    /// The folder the tracks were scanned from.
    package let root: URL
    /// Whether this is the synthesized demo library.
    package let isDemo: Bool
    /// The music folder that held no songs, when the demo library is served in its place.
    package let passedOver: URL?
    /// The channels over these tracks.
    package let catalog: ChannelCatalog
    /// The tracks' artists, albums and genres as integer ids, for the recommender.
    package let facets: LibraryFacets
    private let positions: [String: Int]
    private let coverNames: Set<String>

    /// Indexes `tracks` and builds their channels with the pinned channel ids.
    package init(tracks: [LibraryTrack], root: URL, isDemo: Bool, pins: [String: Int], passedOver: URL? = nil) {
        self.tracks = tracks
        self.root = root
        self.isDemo = isDemo
        self.passedOver = passedOver
        catalog = ChannelCatalog(tracks: tracks, pins: pins)
        facets = LibraryFacets(tracks: tracks)
        positions = Dictionary(tracks.enumerated().map { ($1.sid, $0) }, uniquingKeysWith: { first, _ in first })
        coverNames = Set(tracks.map(\.cover).filter { !$0.isEmpty })
    }

    /// The track with this song id, if any.
    package func track(sid: String) -> LibraryTrack? {
        positions[sid].map { tracks[$0] }
    }

    /// The index in ``tracks`` of the track with this song id, if any.
    package func position(of sid: String) -> Int? {
        positions[sid]
    }

    /// Whether some track of this library has the cover of that file name.
    package func hasCover(_ name: String) -> Bool {
        coverNames.contains(name)
    }

    /// The summary the public API exposes.
    package var info: LibraryInfo {
        LibraryInfo(trackCount: tracks.count, channels: catalog.channels, genres: catalog.genres,
                    isDemo: isDemo, path: root, passedOver: passedOver)
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
    /// The music folder that held no songs, when the demo library is served in its place:
    /// the default folder (a folder the listener named is an error instead, see
    /// `StationConfiguration.fallsBackToDemo`).
    public var passedOver: URL?

    /// Creates a summary.
    public init(trackCount: Int, channels: [Channel], genres: [String], isDemo: Bool, path: URL,
                passedOver: URL? = nil) {
        self.trackCount = trackCount
        self.channels = channels
        self.genres = genres
        self.isDemo = isDemo
        self.path = path
        self.passedOver = passedOver
    }
}

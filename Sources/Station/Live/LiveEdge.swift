import Foundation
import NIOCore

/// What a broadcast's live edge is answered from without building or reading anything per
/// request: each variant's live window playlist as bytes, made once per window (a segment
/// published, or the list trimmed), and the bytes of the newest segments of every variant,
/// as the encoder made them. Both are kept as `ByteBuffer`s, made once, so that an answer
/// (``LiveEdgeHandler``) writes a shared buffer rather than copying the bytes.
///
/// Every listener polls the window playlist about once a target duration and fetches each
/// new segment once, so with many listeners the same few answers are asked for again and
/// again; the answers are the same bytes the playlist text and the archive's files hold.
/// Kept inside ``LiveBroadcast``'s lock.
struct LiveEdge {
    /// The newest segments kept in memory, per variant: the window's.
    static let keptSegments = LiveConfiguration.window

    /// The first and last sequence of the window the playlists list, and how many
    /// segments are in it.
    private struct Key: Equatable {
        var first: Int
        var last: Int
        var count: Int
    }

    private var key: Key?
    private var playlists: [Int: ByteBuffer] = [:]
    /// The newest segments' bytes, oldest first: each one's sequence and its variants'
    /// bytes in ``LiveConfiguration/bitrates`` order.
    private var recent: [(sequence: Int, variants: [ByteBuffer])] = []

    /// An empty edge: the first request makes the playlists of what the archive kept.
    init() {}

    /// The window's playlist of the variant at `kbps`, for `segments` (every segment
    /// kept, oldest first): the one made for the same window, or made now and kept.
    mutating func playlist(kbps: Int, of segments: [LiveSegment], minimumTarget: Int) -> ByteBuffer {
        let window = segments.suffix(LiveConfiguration.window)
        let current = Self.key(of: window)
        if current != key {
            key = current
            playlists = [:]
        }
        if let made = playlists[kbps] { return made }
        let made = ByteBuffer(string: LivePlaylist.media(window, kbps: kbps, kind: .live, minimumTarget: minimumTarget))
        playlists[kbps] = made
        return made
    }

    /// Takes the playlists made outside the lock (``playlists(of:minimumTarget:)``) of the
    /// window of `madeOf`, unless that is another window than the one of `segments` now.
    mutating func adopt(_ made: [Int: ByteBuffer], madeOf: [LiveSegment], segments: [LiveSegment]) {
        let current = Self.key(of: segments.suffix(LiveConfiguration.window))
        guard current == Self.key(of: madeOf.suffix(LiveConfiguration.window)) else { return }
        key = current
        playlists = made
    }

    /// Keeps a published segment's bytes (in ``LiveConfiguration/bitrates`` order), dropping
    /// the oldest past ``keptSegments``.
    mutating func keep(sequence: Int, variants: [ByteBuffer]) {
        recent.append((sequence, variants))
        if recent.count > Self.keptSegments { recent.removeFirst(recent.count - Self.keptSegments) }
    }

    /// The bytes of segment `sequence` of the variant at `kbps`, if kept in memory.
    func segment(kbps: Int, sequence: Int) -> ByteBuffer? {
        guard let variant = LiveConfiguration.bitrates.firstIndex(of: kbps),
              let entry = recent.last(where: { $0.sequence == sequence }), variant < entry.variants.count
        else { return nil }
        return entry.variants[variant]
    }

    /// The playlists of the window of `segments` for every variant, made (outside any lock).
    static func playlists(of segments: [LiveSegment], minimumTarget: Int) -> [Int: ByteBuffer] {
        let window = segments.suffix(LiveConfiguration.window)
        var made: [Int: ByteBuffer] = [:]
        for kbps in LiveConfiguration.bitrates {
            made[kbps] = ByteBuffer(string: LivePlaylist.media(window, kbps: kbps, kind: .live, minimumTarget: minimumTarget))
        }
        return made
    }

    private static func key(of window: ArraySlice<LiveSegment>) -> Key? {
        guard let first = window.first, let last = window.last else { return nil }
        return Key(first: first.sequence, last: last.sequence, count: window.count)
    }
}

import Foundation
import Radio

/// Every song the listener liked, as `mhz download --liked` fetches them: the pages of
/// `/j/app/radio/liked_songs` where the station has that list, else nothing (and the caller
/// draws from the red-heart channel, which brings liked songs at random, a list at a time).
/// What it says when the listing stopped short is the command line's (`LikedSongs.notice`).
public enum LikedSongs {
    /// What the pages brought.
    public struct Listing: Sendable, Equatable {
        /// The songs, newest like first.
        public var tracks: [Track]
        /// False when paging stopped because the next page's request would have been
        /// longer than a station takes (see ``requestTargetLimit``).
        public var complete: Bool

        /// What `tracks` brought, `complete` or not.
        public init(tracks: [Track], complete: Bool) {
            self.tracks = tracks
            self.complete = complete
        }
    }

    /// Songs asked per page. The station pages by `exclude`, the sids already read, so
    /// each page's request is longer than the one before; large pages reach further
    /// before the request grows too long, and mhz's station gives up to 1000 at once.
    public static let pageSize = 500

    /// The longest request target (path and query) sent: mhz's station answers a longer
    /// one with 414 (docs/PROTOCOL.md §9), and 8 KiB is a common limit of servers.
    public static let requestTargetLimit = 8 * 1024

    /// The listener's liked songs, newest like first: pages of `pageSize` until one brings
    /// nothing new (a station may give fewer than asked before its end), `limit` songs came,
    /// or the next request would pass ``requestTargetLimit``. Nil when the station has no
    /// such list (see ``StationClient/likedSongs(count:excluding:)``).
    public static func all(client: StationClient, limit: Int?, pageSize: Int = pageSize) async throws(ServiceFailure)
        -> Listing?
    {
        var songs: [Track] = []
        var seen = Set<String>()
        while limit.map({ songs.count < $0 }) ?? true {
            let asked = min(pageSize, limit.map { $0 - songs.count } ?? pageSize)
            let sids = songs.map(\.sid)
            if !songs.isEmpty, let request = client.endpoints.likedSongs(count: asked, excluding: sids, as: client.session.login),
               targetLength(request.url) > requestTargetLimit {
                return Listing(tracks: songs, complete: false)
            }
            // A list that vanishes after its first page ends the listing where it stands.
            guard let page = try await client.likedSongs(count: asked, excluding: sids) else {
                return songs.isEmpty ? nil : Listing(tracks: songs, complete: true)
            }
            let fresh = page.filter { seen.insert($0.sid).inserted }
            if fresh.isEmpty { break }
            songs += fresh
        }
        return Listing(tracks: songs, complete: true)
    }

    /// The bytes of the request line's target: the path and the query, as sent.
    public static func targetLength(_ url: URL) -> Int {
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        let query = components?.percentEncodedQuery.map { "?" + $0 } ?? ""
        return (components?.percentEncodedPath ?? url.path).utf8.count + query.utf8.count
    }
}

import StationLink

extension LikedSongs {
    /// The line `mhz download --liked` prints when the listing stopped short.
    static func notice(_ listing: Listing) -> String? {
        guard !listing.complete else { return nil }
        return "downloading the \(listing.tracks.count) most recently liked songs: the station pages its list by the songs "
            + "already read, and asking past them would take a request longer than a station accepts"
    }
}

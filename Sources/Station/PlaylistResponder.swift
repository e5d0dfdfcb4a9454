import RadioAPI
import MusicLibrary
import Recommender
import StationStorage

/// The logic of `GET /j/app/radio/people` (docs/PROTOCOL.md §2, §3.1, §7, §9), apart
/// from HTTP: a request's parameters in, an answer out, with the listener's feedback
/// learned on the way.
///
/// - `type` must be one of `n e p s b r u`; all but `n` must name a song (`sid`).
/// - `user_id` with `token` must be a live login, else the answer is
///   `{"r":1,"err":"expired"}`; requests without them are the shared anonymous listener,
///   and their lists carry `"logout":1` (the Windows app's captured traffic).
/// - Every report about a song of the library teaches the listener's profile (see
///   ``ListenerProfile``); `e`, `r` and `u` are then acknowledged with `{"r":0}`.
/// - `n`, `p`, `s` and `b` answer a list chosen by the ``Recommender``: never a trashed
///   song, and not the current song, those in `h` or the ones heard lately while the
///   channel has others.
/// - The red-heart channel `-3` lists the listener's liked songs; anonymous requests get the
///   warning and no songs (fixture F5b).
struct PlaylistResponder: Sendable {
    /// What the endpoint answers.
    enum Answer: Sendable, Equatable {
        /// A song list (or the anonymous red-heart answer).
        case playlist(Playlist)
        /// `{"r":0}`: the report was taken.
        case acknowledged
        /// `{"r":1,"err":word}`.
        case refused(String)
    }

    /// How many songs a list holds when the channel has that many.
    static let listSize = 5

    /// The library served; each request works on one snapshot of it.
    let library: LiveLibrary
    /// What every listener taught the station; reports go there.
    let profiles: ListenerProfiles
    /// Checks the `user_id` and `token` of logged-in requests.
    let accounts: AccountStore
    /// Chooses the songs of each list.
    let recommender: Recommender

    /// Answers one request.
    ///
    /// - Parameters:
    ///   - request: the request, for its query parameters.
    ///   - links: where the songs' `url` and `picture` point (see ``MediaLinks``).
    /// - Throws: ``StationError/databaseFailed(path:reason:)`` when the database fails.
    func answer(_ request: StationRequest, links: MediaLinks) async throws(StationError) -> Answer {
        guard let typeWord = request.parameter("type"), !typeWord.isEmpty else { return .refused("missing_type") }
        guard let type = ReportType(rawValue: typeWord) else { return .refused("invalid_type") }
        let sid = request.parameter("sid") ?? ""
        if type.needsSongID, sid.isEmpty { return .refused("missing_sid") }
        let library = self.library.snapshot
        let channel = nonEmpty(request.parameter("channel")) ?? Channel.personalID
        let members = library.catalog.positions(inChannel: channel)
        guard channel == Channel.redHeartID || members != nil else { return .refused("invalid_channel") }
        // Feedback must name a song of this library, or it would be remembered for nothing.
        let isFeedback = type == .ban || type == .rate || type == .unrate
        let position = library.position(of: sid)
        if isFeedback, position == nil { return .refused("invalid_sid") }

        var listener = ListenerProfiles.anonymous
        let userID = nonEmpty(request.parameter("user_id"))
        let token = nonEmpty(request.parameter("token"))
        if let userID, let token {
            guard try await accounts.isValid(userID: userID, token: token) else { return .refused("expired") }
            listener = ListenerProfiles.key(userID: userID)
        }
        let isAnonymous = listener == ListenerProfiles.anonymous

        if let position, type != .new {
            do throws(StorageError) {
                try await profiles.record(type, position: position, of: library, for: listener)
            } catch {
                throw StationError(database: error)
            }
        }
        guard type.expectsList else { return .acknowledged }
        if channel == Channel.redHeartID, isAnonymous {
            return .playlist(Playlist(songs: [], versionMax: nil, warning: "user_is_ananymous", showQuickStart: 1))
        }

        let history = ReportHistory.parse(request.parameter("h") ?? "").map(\.sid)
        let recommender = self.recommender
        let picks: [(track: LibraryTrack, liked: Bool)]
        do throws(StorageError) {
            picks = try await profiles.draw(for: listener, from: library) { profile, weights, draw in
            let pool = members ?? profile.liked.compactMap { library.position(of: $0) }
            let candidates = pool.filter { !weights.trashed[$0] }
            let recent = Recommender.recentSongs(remembered: profile.recent, history: history, current: sid)
            let chosen = recommender.pick(
                from: candidates, trackCount: library.tracks.count,
                window: Recommender.window(recent: recent, position: library.position(of:)),
                weight: { weights.weight(at: $0, library.facets) },
                count: Self.listSize, listener: listener, draw: draw)
            return chosen.map { (track: library.tracks[$0], liked: profile.likes(library.tracks[$0].sid)) }
            }
        } catch {
            throw StationError(database: error)
        }
        let songs = picks.map { $0.track.song(links: links, liked: $0.liked) }
        return .playlist(Playlist(songs: songs, versionMax: 100, loggedOut: isAnonymous))
    }

    private func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        return text
    }
}

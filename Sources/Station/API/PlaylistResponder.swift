import RadioAPI
import MusicLibrary
import Recommender
import StationStorage

/// The logic of the playlist endpoints of both families (`/j/app/radio/people`,
/// `/j/mine/playlist`, `/j/v2/playlist`; docs/PROTOCOL.md §2, §3, §7, §9), apart from HTTP
/// and from how a family identifies its listener: a request's parameters and the listener
/// in, the songs chosen out, with the listener's feedback learned on the way. Each family's
/// answer is shaped from that by ``StationAPI``.
///
/// - `type` must be one of `n e p s b r u`; all but `n` must name a song of the library
///   (`sid`), else the answer is `invalid_sid`.
/// - Every report about a song of the library teaches the listener's profile (see
///   ``ListenerProfile``); `e` is then acknowledged, every other type answers a list:
///   Douban's app answered every report but `e` with one, and a client that replaces its
///   queue with the songs of a like's answer would otherwise be left with nothing.
/// - Lists are chosen by the ``Recommender``: never a trashed song, and not the current
///   song, those in `h` or the ones heard lately while the channel has others. The
///   request's `variety` (0…1, an mhz extension) turns the dial; each song carries why it
///   was chosen.
/// - The red-heart channel `-3` lists the listener's liked songs; requests without an
///   account get the warning and no songs (fixture F5b).
/// - A trash from the shared anonymous listener (no account, no browser id) is kept to the
///   list it asks: it is not learned, so one client cannot hide a song from every other.
struct PlaylistResponder: Sendable {
    /// What the endpoint answers.
    enum Answer: Sendable, Equatable {
        /// Songs (possibly none) for the listener.
        case list(ServedList)
        /// The short acknowledgement of `e`.
        case acknowledged
        /// `{"r":1,"err":word}`.
        case refused(String)
    }

    /// The songs of a list answer and who they are for.
    struct ServedList: Sendable, Equatable {
        /// The songs chosen, in order.
        var picks: [Pick]
        /// Whether the listener has no account: the shared anonymous one, or a browser.
        var isAnonymous: Bool
        /// The red-heart channel asked anonymously: the warning answer of fixture F5b.
        var needsLogin: Bool
    }

    /// One song of a list.
    struct Pick: Sendable, Equatable {
        /// The track.
        var track: LibraryTrack
        /// Whether this listener gave it a red heart.
        var liked: Bool
        /// Its rating over all listeners (``SongRatings``).
        var rating: Double
        /// Why it was chosen, one sentence in the listener's terms (``PickReason/sentence``);
        /// `nil` where the answer is not a choice (the liked-songs list).
        var reason: String?
        /// The gain (dB) the station levels it by (``Leveling``), from the loudness measured
        /// when the list was chosen; `nil` when it is not levelled.
        var gain: Double?
    }

    /// Who a request speaks for, once its family's credentials were checked.
    enum Listener: Sendable, Equatable {
        /// No credentials: the shared anonymous listener.
        case anonymous
        /// A logged-in account, by its numeric id.
        case user(String)
        /// A web-family client without an account, by its `bid` cookie: a listener of its own.
        case browser(String)
        /// `mhz`'s own process asking its embedded station without an account: the shared
        /// anonymous profile, but the owner of the machine the station runs on, so its trash
        /// is learned as every other report is (no stranger speaks in-process).
        case owner
        /// A live channel's broadcast, by the channel's id: everyone listening to it,
        /// as one listener (``LiveBroadcast``).
        case channel(String)

        /// The profile key (``ListenerProfiles/key(userID:)``).
        var key: String {
            switch self {
            case .anonymous, .owner: return ListenerProfiles.anonymous
            case .user(let id): return ListenerProfiles.key(userID: id)
            case .browser(let bid): return ListenerProfiles.key(browserID: bid)
            case .channel(let id): return "live:\(id)"
            }
        }

        /// Whether it speaks for no account.
        var isAnonymous: Bool {
            switch self {
            case .anonymous, .browser, .owner: return true
            case .user, .channel: return false
            }
        }
    }

    /// How many songs a list holds when the channel has that many.
    static let listSize = 5

    /// The library served; each request works on one snapshot of it.
    let library: LiveLibrary
    /// What every listener taught the station; reports go there.
    let profiles: ListenerProfiles
    /// Chooses the songs of each list.
    let recommender: Recommender
    /// How songs are levelled: each pick's ``Pick/gain``.
    let leveling: Leveling

    /// Answers one request.
    ///
    /// - Parameters:
    ///   - request: the request, for its query parameters.
    ///   - listener: who it speaks for.
    ///   - count: the most songs of a list (``listSize`` unless a family sends fewer).
    /// - Throws: ``StationError/databaseFailed(path:reason:)`` when the database fails.
    func answer(_ request: StationRequest, listener: Listener, count: Int = listSize) async throws(StationError) -> Answer {
        guard let typeWord = request.parameter("type"), !typeWord.isEmpty else { return .refused("missing_type") }
        guard let type = ReportType(rawValue: typeWord) else { return .refused("invalid_type") }
        let sid = request.parameter("sid") ?? ""
        if type.needsSongID, sid.isEmpty { return .refused("missing_sid") }
        // The library and how its tracks sound, taken together: a table belongs to its library.
        let (library, soundTable) = self.library.snapshotWithSound
        let sound: (any SoundSpace)? = soundTable.analysedCount > 0 ? soundTable : nil
        let channel = request.nonEmptyParameter("channel") ?? Channel.personalID
        let members = library.catalog.positions(inChannel: channel)
        guard channel == Channel.redHeartID || members != nil else { return .refused("invalid_channel") }
        // A report about a song must name one of this library, whatever its type, or it
        // would be remembered (or a skip counted) for nothing.
        let position = library.position(of: sid)
        if type.needsSongID, position == nil { return .refused("invalid_sid") }
        let key = listener.key

        // The shared anonymous listener's trash: only this list leaves the song out.
        let ownBan = listener == .anonymous && type == .ban ? position : nil
        if let position, type != .new, ownBan == nil {
            do throws(StorageError) {
                try await profiles.record(type, position: position, of: library, for: key)
            } catch {
                throw StationError(database: error)
            }
        }
        if type == .end { return .acknowledged }
        if channel == Channel.redHeartID, listener.isAnonymous {
            return .list(ServedList(picks: [], isAnonymous: true, needsLogin: true))
        }

        let history = ReportHistory.parse(request.parameter("h") ?? "").map(\.sid)
        let variety = request.parameter("variety").flatMap(Double.init).map(Recommender.clampedVariety)
            ?? Recommender.defaultVariety
        let recommender = self.recommender
        let ratings = profiles.ratings
        let isRedHeart = channel == Channel.redHeartID
        let leveling = self.leveling
        let picks: [Pick]
        do throws(StorageError) {
            picks = try await profiles.draw(for: key, from: library, sound: sound) { taste, draw in
                let profile = taste.profile
                var pool = members ?? profile.liked.compactMap { library.position(of: $0) }
                if let ownBan { pool.removeAll { $0 == ownBan } }
                let window = Recommender.window(remembered: profile.recent, history: history, current: sid,
                                                position: library.position(of:))
                let chosen = recommender.pick(
                    from: pool, trackCount: library.tracks.count, window: window,
                    taste: taste, variety: variety, count: count, listener: key, draw: draw)
                return chosen.map { choice in
                    let track = library.tracks[choice.position]
                    let reason = isRedHeart ? PickReason.likedSong : taste.reason(for: choice.position, explored: choice.explored)
                    return Pick(track: track, liked: profile.likes(track.sid), rating: ratings.rating(of: track.sid),
                                reason: reason.sentence,
                                gain: leveling.gain(at: choice.position, in: soundTable.loudness))
                }
            }
        } catch {
            throw StationError(database: error)
        }
        return .list(ServedList(picks: picks, isAnonymous: listener.isAnonymous, needsLogin: false))
    }

    /// The listener's liked songs, newest like first, for `/j/app/radio/liked_songs`.
    ///
    /// - Parameters:
    ///   - listener: a logged-in account.
    ///   - count: the most songs returned.
    ///   - excluding: sids the client already has (its way of paging).
    func likedSongs(of listener: Listener, count: Int, excluding: Set<String>) async throws(StationError) -> [Pick] {
        let (library, sound) = self.library.snapshotWithSound
        let profile: ListenerProfile
        do throws(StorageError) { profile = try await profiles.profile(for: listener.key) } catch {
            throw StationError(database: error)
        }
        let ratings = profiles.ratings
        let leveling = self.leveling
        return profile.liked.reversed().lazy
            .filter { !excluding.contains($0) }
            .compactMap { library.position(of: $0) }
            .prefix(count)
            .map { position in
                let track = library.tracks[position]
                return Pick(track: track, liked: true, rating: ratings.rating(of: track.sid),
                            gain: leveling.gain(at: position, in: sound.loudness))
            }
    }
}

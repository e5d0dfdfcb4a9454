import Foundation
import HTTP
import Radio
import RadioAPI

/// The radio's ``RadioService`` over a real server: RadioAPI builds the request and
/// decodes the answer, the HTTP layer performs it. The only place that sees both, so the
/// network layers stay ignorant of each other and of the radio.
///
/// It also keeps the login's promises at the seam, where the radio core need not know
/// about sessions:
/// - a refused session (`{"r":1,"err":"expired"}`, or `logout:1` / the anonymous warning
///   in answer to a request that carried a login) ends the session, the same report is
///   sent again anonymously, and the front end is told once through ``ActiveSession``;
/// - the red-heart channel answered with nothing for an anonymous listener becomes
///   ``ServiceFailure/needsLogin(channel:)``, so the listener reads why instead of
///   waiting for songs that cannot come (docs/PROTOCOL.md §7, fixture F5b).
public struct StationClient: RadioService {
    /// Performs requests and maps transport failures.
    public let transport: any APITransport
    /// The server's API family.
    public let endpoints: StationEndpoints
    /// The login requests carry.
    public let session: ActiveSession
    /// The variety dial playlist requests carry (`[radio] variety`, turned by the keys).
    public var variety = VarietyKnob(nil)

    /// A client of the station `endpoints` name, over `transport`, as `session`'s login.
    public init(transport: any APITransport, endpoints: StationEndpoints, session: ActiveSession,
                variety: VarietyKnob = VarietyKnob(nil)) {
        self.transport = transport
        self.endpoints = endpoints
        self.session = session
        self.variety = variety
    }

    /// The server's channel list.
    public func channels() async throws(ServiceFailure) -> [ChannelInfo] {
        session.announcePendingExpiry()
        let body = try await transport.perform(endpoints.channels())
        do {
            return try APIDecoder.channels(body).map { ChannelInfo(id: $0.id, name: $0.name, live: $0.live) }
        } catch {
            throw StationTransport.failure(error)
        }
    }

    /// Sends a report as the current login and returns the playable songs of the answer
    /// (advertisements dropped).
    public func send(_ report: Report) async throws(ServiceFailure) -> [Track] {
        session.announcePendingExpiry()
        let login = session.login
        let body = try await transport.perform(endpoints.playlist(report, as: login, variety: variety.value))
        let playlist: SongList
        do {
            playlist = try APIDecoder.playlist(body, for: report.type)
        } catch {
            if error == .expired, login.isLoggedIn {
                return try await again(report, after: login)
            }
            throw StationTransport.failure(error)
        }
        // An answer for nobody to a request that carried a login: the server dropped the
        // session (zhendi/DoubanFM-CLI re-logs in on `logout:1`; ampm/Douban-FM-sdk resets its login on the warning).
        if login.isLoggedIn, playlist.loggedOut || playlist.isAnonymous {
            return try await again(report, after: login)
        }
        if report.channel == Channel.redHeartID, report.type.expectsList, playlist.songs.isEmpty, !login.isLoggedIn {
            throw .needsLogin(channel: report.channel)
        }
        return playlist.songs.filter { !$0.isAdvertisement }.map(Self.track)
    }

    /// A page of the listener's liked songs from `/j/app/radio/liked_songs`, newest like
    /// first, leaving out `sids`; nil when the station has no such list: the web family,
    /// or a station that answers the route with a 404 or with something that is not JSON
    /// (a web page).
    ///
    /// - Throws: ``ServiceFailure/needsLogin(channel:)`` for the red-heart channel when
    ///   nobody is logged in (a refused session ends first, as in ``send(_:)``), and the
    ///   transport's failures.
    public func likedSongs(count: Int, excluding sids: [String]) async throws(ServiceFailure) -> [Track]? {
        session.announcePendingExpiry()
        let login = session.login
        guard let request = endpoints.likedSongs(count: count, excluding: sids, as: login) else { return nil }
        let body: Data
        do {
            body = try await transport.perform(request)
        } catch .httpStatus(404) {
            return nil
        }
        do {
            return try APIDecoder.likedSongs(body).map(Self.track)
        } catch .notJSON {
            return nil
        } catch .expired where login.isLoggedIn {
            session.expire(login)
            return try await likedSongs(count: count, excluding: sids)
        } catch .server("need_login") {
            throw .needsLogin(channel: Channel.redHeartID)
        } catch {
            throw StationTransport.failure(error)
        }
    }

    /// Ends the refused session and sends the same report anonymously.
    private func again(_ report: Report, after login: Login) async throws(ServiceFailure) -> [Track] {
        session.expire(login)
        // The session is anonymous now, so this recursion ends after one more request.
        return try await send(report)
    }

    /// The radio's track for a song of the wire.
    public static func track(_ song: Song) -> Track {
        var track = Track(sid: song.sid, title: song.title, artist: song.artist, album: song.albumTitle,
                          year: song.publicTime, kbps: song.kbps, length: Double(song.length), liked: song.like,
                          url: song.url, picture: song.picture, sha256: song.sha256, reason: song.reason,
                          gain: song.gain)
        track.ssid = song.ssid
        return track
    }
}

import Foundation
import MusicLibrary
import RadioAPI

/// Both families' API, apart from any transport: each route's answer as a
/// ``StationReply``. The HTTP router serves these over the network; ``Station`` answers
/// them in-process for `mhz`'s embedded station. One implementation, so both give the same
/// bytes for the same request.
struct StationAPI: Sendable {
    /// What the routes answer from.
    let services: StationRouter.Services

    /// `GET /j/app/radio/channels`: the channel list, encoded once per scan.
    func channels() -> StationReply {
        JSONResponse.reply(encoded: services.library.channelListJSON)
    }

    /// `GET|POST /j/app/radio/people`: a playlist answer (see ``PlaylistResponder``), with
    /// song links as `links` says. `user_id` with `token` must be a live login, else the
    /// answer is `{"r":1,"err":"expired"}` (and the address counts a wrong token);
    /// requests without them are anonymous, whose lists carry `"logout":1` (the Windows
    /// app's captured traffic): the listener of their `bid` cookie when they send one, else
    /// the shared anonymous listener, and then the answer sets a `bid` for a client that
    /// keeps cookies (mhz does; Douban's app clients do not, and stay shared).
    func people(_ request: StationRequest, origin: RequestOrigin, links: MediaLinks) async -> StationReply {
        await guarded(origin) { () throws(StationError) -> StationReply in
            guard let listener = try await appListener(request, origin: origin) else {
                return JSONResponse.reply(SongList(error: "expired"))
            }
            var reply: StationReply
            switch try await services.responder.answer(request, listener: listener) {
            case .list(let list) where list.needsLogin:
                reply = JSONResponse.reply(encoded: PlaylistJSON.encode(
                    SongList(songs: [], versionMax: nil, warning: "user_is_ananymous", showQuickStart: 1)))
            case .list(let list):
                let songs = list.picks.map { appSong($0, request: request, links: links) }
                reply = JSONResponse.reply(encoded: PlaylistJSON.encode(
                    SongList(songs: songs, versionMax: 100, loggedOut: list.isAnonymous)))
            case .acknowledged: reply = JSONResponse.reply(Acknowledgement())
            case .refused(let word): reply = JSONResponse.reply(SongList(error: word))
            }
            if listener == .anonymous { reply.cookies.append(WebCookies.browserID(WebCookies.newBrowserID())) }
            return reply
        }
    }

    /// `GET /j/app/radio/liked_songs`: the listener's red-heart songs with every field,
    /// newest like first, at most `count` (default 20, at most 1000), leaving out the sids
    /// of `exclude` (`,` or `|` between them): `{"r":0,"songs":[…]}`. Anonymous requests
    /// are answered `{"r":1,"err":"need_login"}`, a dead token `{"r":1,"err":"expired"}`.
    func likedSongs(_ request: StationRequest, origin: RequestOrigin, links: MediaLinks) async -> StationReply {
        await guarded(origin) { () throws(StationError) -> StationReply in
            guard let listener = try await appListener(request, origin: origin) else {
                return JSONResponse.reply(SongList(error: "expired"))
            }
            guard !listener.isAnonymous else { return JSONResponse.reply(SongList(error: "need_login")) }
            let count = min(max(Int(request.parameter("count") ?? "") ?? 20, 1), 1000)
            let excluded = Set((request.parameter("exclude") ?? "").split(whereSeparator: { $0 == "," || $0 == "|" })
                .map(String.init))
            let picks = try await services.responder.likedSongs(of: listener, count: count, excluding: excluded)
            return JSONResponse.reply(encoded: PlaylistJSON.encode(
                likedSongs: picks.map { appSong($0, request: request, links: links) }))
        }
    }

    /// `POST /j/app/login`: the form fields from the query string and the body alike
    /// (linq/doubanfm sent them in the query of a POST). An address the ``LoginGuard``
    /// refuses gets `{"r":1,"err":"too_many_attempts"}` without its password being
    /// checked; one it holds to a captcha is asked for one as a name past its threshold is.
    func login(query: String?, body: Data, origin: RequestOrigin) async -> StationReply {
        let pairs = (query.map { FormEncoding.decode($0) } ?? []) + FormEncoding.decode(String(decoding: body, as: UTF8.self))
        let verdict = services.loginGuard.verdict(for: origin.address)
        if verdict == .refused { return JSONResponse.reply(AppLoginAnswer.refused("too_many_attempts")) }
        do throws(StationError) {
            let answer = try await services.accounts.login(AppLoginForm(pairs: pairs), captchas: services.captchas,
                                                           captchaRequired: verdict == .captchaRequired)
            if answer.isFailedAttempt { services.loginGuard.recordFailure(from: origin.address) }
            return JSONResponse.reply(answer)
        } catch {
            return JSONResponse.error("internal_error", status: 500)
        }
    }

    /// `GET /j/new_captcha`: a new captcha's id as a JSON string, with a `bid` cookie for a
    /// client that has none.
    func newCaptcha(origin: RequestOrigin) -> StationReply {
        let (id, bid) = services.captchas.issue()
        var reply = JSONResponse.reply(id)
        if origin.cookies["bid"] == nil { reply.cookies = [WebCookies.browserID(bid)] }
        return reply
    }

    /// `GET /misc/captcha?id=&size=`: the captcha as a PNG; nil for an id never issued or
    /// already used.
    func captchaImage(_ request: StationRequest) -> StationReply? {
        let id = request.parameter("id") ?? ""
        guard let answer = services.captchas.answer(for: id) else { return nil }
        let size = request.parameter("size").flatMap(CaptchaImage.Size.init(rawValue:)) ?? .medium
        let png = CaptchaImage(answer: answer, size: size, seed: TrackIdentity.hash(id)).png
        return StationReply(status: 200, contentType: "image/png", body: png, cacheControl: "no-store")
    }

    /// Answers an API request by its method and path, as the router routes it; a path
    /// outside the API is a 404 with `{"r":1,"err":"not_found"}`. Media and covers are
    /// not served here: an in-process caller gets `file://` links to them.
    func respond(method: String, path: String, query: String?, body: Data, origin: RequestOrigin,
                 links: MediaLinks) async -> StationReply {
        let request = StationRequest(method: method, path: path, rawQuery: query)
        switch (method, path) {
        case ("GET", "/j/app/radio/channels"): return channels()
        case ("GET", "/j/app/radio/people"), ("POST", "/j/app/radio/people"):
            return await people(request, origin: origin, links: links)
        case ("GET", "/j/app/radio/liked_songs"): return await likedSongs(request, origin: origin, links: links)
        case ("POST", "/j/app/login"): return await login(query: query, body: body, origin: origin)
        case ("GET", "/j/new_captcha"): return newCaptcha(origin: origin)
        case ("GET", "/misc/captcha"): return captchaImage(request) ?? JSONResponse.error("not_found", status: 404)
        case ("GET", "/j/mine/playlist"): return await webPlaylist(request, family: .classic, origin: origin, links: links)
        case ("GET", "/j/v2/playlist"): return await webPlaylist(request, family: .v2, origin: origin, links: links)
        case ("POST", "/j/login"): return await webLogin(body: body, origin: origin)
        case ("GET", "/partner/logout"): return await webLogout(request, origin: origin)
        case ("GET", "/v2/fm/lyric"), ("POST", "/v2/fm/lyric"), ("GET", "/j/v2/lyric"):
            return await lyric(query: query, body: body)
        default: return JSONResponse.error("not_found", status: 404)
        }
    }

    // MARK: - Shared

    /// The app family's listener: without `user_id` and `token`, the listener of the
    /// request's `bid` cookie, the owner when asked in-process, else the shared anonymous
    /// one; the account for a live login; nil (and a wrong token counted against the
    /// address) for a dead one.
    private func appListener(_ request: StationRequest, origin: RequestOrigin) async throws(StationError)
        -> PlaylistResponder.Listener? {
        guard let userID = request.nonEmptyParameter("user_id"), let token = request.nonEmptyParameter("token") else {
            if let bid = WebCookies.browserID(cookie: origin.cookies["bid"]) { return .browser(bid) }
            return origin == .inProcess ? .owner : .anonymous
        }
        guard try await services.accounts.isValid(userID: userID, token: token) else {
            services.tokenGuard.recordFailure(from: origin.address)
            return nil
        }
        return .user(userID)
    }

    /// The app family's song object for a pick, served in the format the request asks, at
    /// the pick's level.
    func appSong(_ pick: PlaylistResponder.Pick, request: StationRequest, links: MediaLinks) -> Song {
        pick.track.song(links: links, liked: pick.liked, rating: pick.rating,
                        format: ServedFormat.asked(by: request, for: pick.track, gain: pick.gain), gain: pick.gain,
                        reason: pick.reason)
    }

    /// Runs `body` unless the ``TokenGuard`` holds the address off: a refused address gets
    /// `{"r":1,"err":"too_many_attempts"}` at once, a slowed one its answer late. A
    /// database failure is `{"r":1,"err":"internal_error"}` with status 500.
    func guarded(_ origin: RequestOrigin, _ body: () async throws(StationError) -> StationReply) async -> StationReply {
        switch services.tokenGuard.verdict(for: origin.address) {
        case .refused: return JSONResponse.reply(SongList(error: "too_many_attempts"))
        case .slowed(let delay): try? await Task.sleep(for: delay)
        case .open: break
        }
        do throws(StationError) {
            return try await body()
        } catch {
            return JSONResponse.error("internal_error", status: 500)
        }
    }
}

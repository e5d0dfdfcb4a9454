import Foundation
import RadioAPI

/// The web family: `/j/mine/playlist` (classic) and `/j/v2/playlist`, keyed on the `dbcl2`
/// cookie rather than query credentials; `POST /j/login` with a captcha; `/partner/logout`.
extension StationAPI {
    /// The two playlist endpoints of the web family.
    enum WebFamily: Sendable {
        /// `/j/mine/playlist`: lists of up to five songs in the app's song shape. `e` is
        /// acknowledged with `{"r":0}`, as the other playlist routes are, not with the JSON
        /// string `"ok"` gofm recorded: doubanfm.sh's web client pipes every answer to `jq
        /// .song`, which fails on a string and left it silent at each song's end.
        case classic
        /// `/j/v2/playlist`: one song per answer in the v2 shape (fixture F11; taizilongxu/douban.fm
        /// takes `song[0]`); `e` is acknowledged with `{"r":0}` too.
        case v2
    }

    /// `GET /j/mine/playlist` and `GET /j/v2/playlist`. The listener is the account of a
    /// live `dbcl2` cookie; without one, the browser of its `bid` cookie, a listener of its
    /// own (`warning: "user_is_ananymous"`), and with a dead one also `"logout":1` so the
    /// client logs in again (zhendi/DoubanFM-CLI), the address counting a wrong token. A
    /// client without either is the shared anonymous listener for this request, and its
    /// answer sets a `bid` cookie, so that its next requests are its own.
    func webPlaylist(_ request: StationRequest, family: WebFamily, origin: RequestOrigin, links: MediaLinks) async
        -> StationReply {
        await guarded(origin) { () throws(StationError) -> StationReply in
            let bid = WebCookies.browserID(cookie: origin.cookies["bid"])
            var listener = bid.map(PlaylistResponder.Listener.browser) ?? .anonymous
            var lapsed = false
            if let cookie = origin.cookies["dbcl2"], !WebCookies.unquoted(cookie).isEmpty {
                if let userID = try await services.accounts.webUser(cookie: cookie) {
                    listener = .user(userID)
                } else {
                    lapsed = true
                    services.tokenGuard.recordFailure(from: origin.address)
                }
            }
            var reply = try await webAnswer(request, family: family, listener: listener, lapsed: lapsed, links: links)
            if bid == nil { reply.cookies.append(WebCookies.browserID(WebCookies.newBrowserID())) }
            return reply
        }
    }

    /// The web playlist answer for `listener`, in the family's shape.
    private func webAnswer(_ request: StationRequest, family: WebFamily, listener: PlaylistResponder.Listener,
                           lapsed: Bool, links: MediaLinks) async throws(StationError) -> StationReply {
        let count = family == .v2 ? 1 : PlaylistResponder.listSize
        switch try await services.responder.answer(request, listener: listener, count: count) {
        case .acknowledged:
            return JSONResponse.reply(Acknowledgement())
        case .refused(let word):
            return JSONResponse.reply(SongList(error: word))
        case .list(let list):
            let anonymous = list.isAnonymous
            switch family {
            case .classic:
                let songs = list.picks.map { appSong($0, request: request, links: links) }
                var playlist = SongList(songs: songs, versionMax: 100, loggedOut: lapsed,
                                        warning: anonymous ? "user_is_ananymous" : nil,
                                        showQuickStart: list.needsLogin ? 1 : 0)
                if list.needsLogin { playlist.versionMax = nil }
                return JSONResponse.reply(encoded: PlaylistJSON.encode(playlist))
            case .v2:
                let songs = list.picks.map { pick in
                    let format = ServedFormat.asked(by: request, for: pick.track, gain: pick.gain)
                    let song = pick.track.song(links: links, liked: pick.liked, rating: pick.rating, format: format,
                                               gain: pick.gain, reason: pick.reason)
                    return WebSong(song: song, fileExtension: format.fileExtension(of: pick.track), genre: pick.track.genre)
                }
                return JSONResponse.reply(WebPlaylist(songs: songs, isAnonymous: anonymous, sessionLapsed: lapsed,
                                                      showQuickStart: list.needsLogin ? 1 : 0))
            }
        }
    }

    /// `POST /j/login`: the form body (docs/PROTOCOL.md §5.2); on success `user_info` and
    /// the session cookies. An address the ``LoginGuard`` refuses gets
    /// ``WebLoginAnswer/tooManyAttempts`` without its captcha or password being checked.
    func webLogin(body: Data, origin: RequestOrigin) async -> StationReply {
        let form = WebLoginForm(pairs: FormEncoding.decode(String(decoding: body, as: UTF8.self)))
        if services.loginGuard.verdict(for: origin.address) == .refused {
            return JSONResponse.reply(WebLoginAnswer.tooManyAttempts)
        }
        do throws(StationError) {
            let answer = try await services.accounts.webLogin(form, captchas: services.captchas)
            if answer.isFailedAttempt { services.loginGuard.recordFailure(from: origin.address) }
            var reply = JSONResponse.reply(answer)
            if case .success(_, let session) = answer {
                reply.cookies = WebCookies.login(session, remember: form.remember, now: Int(Date().timeIntervalSince1970))
            }
            return reply
        } catch {
            return JSONResponse.error("internal_error", status: 500)
        }
    }

    /// `GET /partner/logout?source=radio&ck=…&no_login=y`: ends the session when `ck` is
    /// its check code and clears the cookies either way; an empty 200, as Douban's
    /// ("Response: None", HakurouKen/douban.fm-api).
    func webLogout(_ request: StationRequest, origin: RequestOrigin) async -> StationReply {
        if let cookie = origin.cookies["dbcl2"], let checkCode = request.nonEmptyParameter("ck") {
            _ = try? await services.accounts.webLogout(cookie: cookie, checkCode: WebCookies.unquoted(checkCode))
        }
        return StationReply(status: 200, contentType: "text/plain; charset=utf-8", body: Data(), cookies: WebCookies.logout)
    }
}

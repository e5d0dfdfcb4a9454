import Foundation
import MusicLibrary
import RadioAPI

/// The app family's API, apart from any transport: each route's answer as a
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
    /// song links as `links` says.
    func people(_ request: StationRequest, links: MediaLinks) async -> StationReply {
        do throws(StationError) {
            return JSONResponse.reply(try await services.responder.answer(request, links: links))
        } catch {
            return JSONResponse.error("internal_error", status: 500)
        }
    }

    /// `POST /j/app/login`: the form fields from the query string and the body alike
    /// (linq/doubanfm sent them in the query of a POST).
    func login(query: String?, body: Data) async -> StationReply {
        let pairs = (query.map { FormEncoding.decode($0) } ?? []) + FormEncoding.decode(String(decoding: body, as: UTF8.self))
        do throws(StationError) {
            return JSONResponse.reply(try await services.accounts.login(LoginForm(pairs: pairs), captchas: services.captchas))
        } catch {
            return JSONResponse.error("internal_error", status: 500)
        }
    }

    /// `GET /j/new_captcha`: a new captcha's id as a JSON string, and the `bid` the HTTP
    /// route sets as a cookie with it.
    func newCaptcha() -> (reply: StationReply, bid: String) {
        let (id, bid) = services.captchas.issue()
        return (JSONResponse.reply(id), bid)
    }

    /// `GET /misc/captcha?id=&size=`: the captcha as a PNG; nil for an id never issued or
    /// already used.
    func captchaImage(_ request: StationRequest) -> StationReply? {
        let id = request.parameter("id") ?? ""
        guard let answer = services.captchas.answer(for: id) else { return nil }
        let size = request.parameter("size").flatMap(CaptchaImage.Size.init(rawValue:)) ?? .medium
        let png = CaptchaImage(answer: answer, size: size, seed: TrackIdentity.hash(id)).png
        return StationReply(status: 200, contentType: "image/png", body: png)
    }

    /// Answers an API request by its method and path, as the router routes it; a path
    /// outside the API is a 404 with `{"r":1,"err":"not_found"}`. Media and covers are
    /// not served here: an in-process caller gets `file://` links to them.
    func respond(method: String, path: String, query: String?, body: Data, links: MediaLinks) async -> StationReply {
        let request = StationRequest(method: method, path: path, rawQuery: query)
        switch (method, path) {
        case ("GET", "/j/app/radio/channels"): return channels()
        case ("GET", "/j/app/radio/people"), ("POST", "/j/app/radio/people"): return await people(request, links: links)
        case ("POST", "/j/app/login"): return await login(query: query, body: body)
        case ("GET", "/j/new_captcha"): return newCaptcha().reply
        case ("GET", "/misc/captcha"): return captchaImage(request) ?? JSONResponse.error("not_found", status: 404)
        default: return JSONResponse.error("not_found", status: 404)
        }
    }
}

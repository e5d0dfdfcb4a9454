import Foundation
import Hummingbird
import MusicLibrary
import RadioAPI

/// Assembles the station's routes and middleware into a Hummingbird router.
///
/// Middleware order, outermost first: the request observer (every request, even ones that
/// fail later), JSON errors (so 404s, bad ranges and internal failures are short JSON
/// words), request limits, the traversal guard (``TraversalGuardMiddleware``: `..` is 404),
/// range repair (see ``RangeRepairMiddleware``), then the file middlewares, which answer
/// `/media/<sid>.<ext>` and `/cover/<name>` when no route matched.
///
/// Routes:
/// - `GET /j/app/radio/channels` → `{"channels":[…]}`
/// - `GET|POST /j/app/radio/people` → playlist answers (see ``PlaylistResponder``)
/// - `POST /j/app/login` → the login answer (see ``AccountStore``)
/// - `GET /j/new_captcha` → a captcha id as a JSON string, with a `bid` cookie
/// - `GET /misc/captcha?id=&size=` → the captcha as a PNG
/// - `GET|HEAD /media/<sid>.<ext>` → the track's bytes, with Range support
/// - `GET|HEAD /cover/<name>` → a cover image, with Range support
enum StationRouter {
    /// The path prefix of the media route.
    static let mediaPrefix = "/media"
    /// The path prefix of the cover route.
    static let coverPrefix = "/cover"

    /// What the routes serve from.
    struct Services: Sendable {
        /// The library being served.
        var library: LiveLibrary
        /// The playlist logic.
        var responder: PlaylistResponder
        /// Users and tokens.
        var accounts: AccountStore
        /// Outstanding captchas.
        var captchas: CaptchaStore
        /// Cover images.
        var covers: CoverStore
    }

    /// Builds the router.
    ///
    /// - Parameters:
    ///   - services: what the routes serve from.
    ///   - observer: the configuration's request observer.
    ///   - fallbackBase: the bound server root, for requests without a usable `Host`.
    static func make(services: Services, observer: (@Sendable (StationRequest) -> Void)?,
                     fallbackBase: @escaping @Sendable () -> String) -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        router.middlewares.add(RequestObserverMiddleware(observer: observer))
        router.middlewares.add(JSONErrorMiddleware())
        router.middlewares.add(RequestLimitMiddleware())
        router.middlewares.add(TraversalGuardMiddleware())
        let media = MediaFileProvider(library: services.library)
        let covers = CoverFileProvider(library: services.library, covers: services.covers)
        router.middlewares.add(RangeRepairMiddleware { path in
            await fileSize(path, media: media, covers: covers)
        })
        router.middlewares.add(
            FileMiddleware(fileProvider: media, urlBasePath: mediaPrefix)
                .withAdditionalMediaTypes(forFileExtensions: MediaFileProvider.mediaTypes))
        router.middlewares.add(
            FileMiddleware(fileProvider: covers, urlBasePath: coverPrefix)
                .withAdditionalMediaTypes(forFileExtensions: CoverFileProvider.mediaTypes))

        let api = StationAPI(services: services)
        router.get("/j/app/radio/channels") { _, _ in Response(api.channels()) }
        let people: @Sendable (Request, BasicRequestContext) async throws -> Response = { request, _ in
            let parameters = StationRequest(method: request.method.rawValue, path: request.uri.path,
                                            rawQuery: request.uri.query)
            let base = mediaBase(authority: request.head.authority) ?? fallbackBase()
            return Response(await api.people(parameters, links: .http(base: base)))
        }
        router.get("/j/app/radio/people", use: people)
        router.post("/j/app/radio/people", use: people)
        router.post("/j/app/login") { request, _ in
            let body = try await request.body.collect(upTo: RequestLimitMiddleware<BasicRequestContext>.maximumBodySize)
            return Response(await api.login(query: request.uri.query, body: Data(buffer: body)))
        }
        router.get("/j/new_captcha") { _, _ in
            let (reply, bid) = api.newCaptcha()
            var response = Response(reply)
            response.setCookie(Cookie(name: "bid", value: bid, path: "/"))
            return response
        }
        router.get("/misc/captcha") { request, _ in
            let parameters = StationRequest(method: request.method.rawValue, path: request.uri.path,
                                            rawQuery: request.uri.query)
            guard let reply = api.captchaImage(parameters) else { throw HTTPError(.notFound) }
            var response = Response(reply)
            response.headers[.cacheControl] = "no-store"
            return response
        }
        return router
    }

    /// The size of the media or cover file a request path names, for ``RangeRepairMiddleware``.
    private static func fileSize(_ path: String, media: MediaFileProvider, covers: CoverFileProvider) async -> Int? {
        if path.hasPrefix(mediaPrefix + "/"), let id = media.getFileIdentifier(String(path.dropFirst(mediaPrefix.count))) {
            return try? await media.getAttributes(id: id)?.size
        }
        if path.hasPrefix(coverPrefix + "/"), let id = covers.getFileIdentifier(String(path.dropFirst(coverPrefix.count))) {
            return try? await covers.getAttributes(id: id)?.size
        }
        return nil
    }

    /// The server root as the client addressed it (`http://<Host>`), so song URLs work
    /// through whatever name or port mapping the client used; `nil` when the header is
    /// missing or holds anything but a host name or address with an optional port (it is
    /// echoed into URLs, so nothing else may pass).
    static func mediaBase(authority: String?) -> String? {
        guard let authority, !authority.isEmpty, authority.count <= 255 else { return nil }
        let allowed = authority.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || ".-:[]_".unicodeScalars.contains(scalar))
        }
        return allowed ? "http://\(authority)" : nil
    }
}

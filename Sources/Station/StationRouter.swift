import Hummingbird
import RadioAPI

/// Assembles the station's routes and middleware into a Hummingbird router.
///
/// Middleware order, outermost first: the request observer (every request, even ones that
/// fail later), JSON errors (so 404s and bad ranges are JSON), then the file middleware,
/// which answers `/media/<sid>.<ext>` when no route matched.
///
/// Routes:
/// - `GET /j/app/radio/channels` → `{"channels":[…]}`
/// - `GET /j/app/radio/people` → playlist answers (see ``PlaylistResponder``)
/// - `GET|HEAD /media/<sid>.<ext>` → the track's bytes, with Range support
enum StationRouter {
    /// The path prefix of the media route.
    static let mediaPrefix = "/media"

    /// Builds the router.
    ///
    /// - Parameters:
    ///   - library: the tracks and channels served.
    ///   - responder: the playlist logic.
    ///   - observer: the configuration's request observer.
    ///   - fallbackBase: the bound server root, for requests without a usable `Host`.
    static func make(library: Library, responder: PlaylistResponder,
                     observer: (@Sendable (StationRequest) -> Void)?,
                     fallbackBase: @escaping @Sendable () -> String) -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        router.middlewares.add(RequestObserverMiddleware(observer: observer))
        router.middlewares.add(JSONErrorMiddleware())
        router.middlewares.add(
            FileMiddleware(fileProvider: MediaFileProvider(library: library), urlBasePath: mediaPrefix)
                .withAdditionalMediaTypes(forFileExtensions: MediaFileProvider.mediaTypes))

        let channels = ChannelList(channels: library.catalog.channels)
        router.get("/j/app/radio/channels") { _, _ in
            JSONResponse.make(channels)
        }
        router.get("/j/app/radio/people") { request, _ in
            let parameters = StationRequest(method: request.method.rawValue, path: request.uri.path,
                                            rawQuery: request.uri.query)
            let base = mediaBase(authority: request.head.authority) ?? fallbackBase()
            return JSONResponse.make(responder.answer(parameters, mediaBase: base))
        }
        return router
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

import Foundation
import HTTPTypes
import Hummingbird
import MusicLibrary
import RadioAPI
import Transcoder

/// Assembles the station's routes and middleware into a Hummingbird router.
///
/// Middleware order, outermost first: the request observer (every request, even ones that
/// fail later), JSON errors (so 404s, bad ranges and internal failures are short JSON
/// words), request limits, the traversal guard (``TraversalGuardMiddleware``: `..` is 404),
/// range repair (see ``RangeRepairMiddleware``), then the file middlewares, which answer
/// `/media/<sid>.<ext>` and `/cover/<name>` when no route matched. A live channel's `GET`
/// skips the lookup and the chain when none of them acts on it (``StationResponder``).
///
/// Routes (each answered by ``StationAPI``, but the web player's):
/// - `GET|HEAD /`, `/web/player.css`, `/web/player.js`, `/web/player-live.js` → the web
///   player's files, each with its type and ETag (``WebPlayerRoute``, ``WebPlayerPage``)
/// - `GET /j/app/radio/channels` → `{"channels":[…]}`
/// - `GET|POST /j/app/radio/people` → the app family's playlist answers (see ``PlaylistResponder``)
/// - `GET /j/app/radio/liked_songs` → the listener's red-heart songs
/// - `POST /j/app/login` → the app login answer (see ``AccountStore``)
/// - `GET /j/mine/playlist`, `GET /j/v2/playlist` → the web family's playlist answers
/// - `POST /j/login`, `GET /partner/logout` → the web family's session, in cookies
/// - `GET|POST /v2/fm/lyric`, `GET /j/v2/lyric` → a song's lyrics, `{"lyric":…,"name":…,"sid":…}`
/// - `GET /j/new_captcha` → a captcha id as a JSON string, with a `bid` cookie
/// - `GET /misc/captcha?id=&size=` → the captcha as a PNG
/// - `GET|HEAD /media/<sid>.<ext>` → the track's bytes, with Range support
/// - `GET|HEAD /media/<sid>-<kbps>k.mp3` and `/media/<sid>-<kbps>k-g<m|p><tenths>.mp3` → its
///   MP3 transcode at the gain the song is levelled by, with its length and Range support
///   while it is made (``TranscodeStreaming``), then as a file; a name whose gain is not the
///   song's now → 302 to the name that is (``MediaFileProvider/transcode(named:)``)
/// - `GET|HEAD /cover/<name>` → a cover image, with Range support
/// - `GET /live/…` → the live channels' playlists, segments and songs aired (``LiveAnswers``)
/// - `GET /status` → ``StationStatus`` as JSON, `GET /metrics` → ``StationMetrics`` in
///   Prometheus' text format, to loopback clients (others get 403 unless
///   ``Services/statusForEveryone``)
///
/// Every `GET` route answers `HEAD` too, with the `GET` answer's status and headers and no
/// body (RFC 9110 §9.3.2).
enum StationRouter {
    /// The path prefix of the media route.
    static let mediaPrefix = "/media"
    /// The path prefix of the cover route.
    static let coverPrefix = "/cover"
    /// The operator's status route.
    static let statusPath = "/status"
    /// The operator's metrics route, for Prometheus.
    static let metricsPath = "/metrics"

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
        /// Wrong tokens per address.
        var tokenGuard: TokenGuard
        /// Failed logins per address.
        var loginGuard: LoginGuard
        /// Songs transcoded to MP3.
        var transcodes: TranscodeCache
        /// How long a range ahead of a transcode's encoder waits for it.
        var transcodeRangeWait: Duration = StationConfiguration.transcodeRangeWaitDefault
        /// The live channels; `nil` serves none.
        var live: LiveHub?
        /// The station's status now (`GET /status`).
        var status: @Sendable () -> StationStatus = {
            StationStatus(tracks: 0, analysed: 0, unreadable: 0, uptime: 0, live: [])
        }
        /// Whether clients beyond loopback may have the status and the metrics
        /// (`[station] metrics = true`).
        var statusForEveryone = false
        /// The station's metrics (`GET /metrics`), counted as requests come.
        var metrics = StationMetrics()
    }

    /// Builds the router, and the short path of the live channels' `GET`s beside it
    /// (``StationResponder``).
    ///
    /// - Parameters:
    ///   - services: what the routes serve from.
    ///   - observer: the configuration's request observer.
    ///   - scheme: `https` when the server speaks TLS, else `http`: song and cover links
    ///     must come back the way the client came.
    ///   - fallbackBase: the bound server root, for requests without a usable `Host` (its
    ///     links leave out an IPv6 zone, ``withoutZone(_:)``).
    static func make(services: Services, observer: (@Sendable (StationRequest) -> Void)?, scheme: String = "http",
                     fallbackBase: @escaping @Sendable () -> String) -> StationRoutes {
        // `HEAD` answers every `GET` route as the route answers `GET`, without the body
        // (RFC 9110 §9.3.2): Hummingbird runs the `GET` handler and drops what it wrote.
        let router = Router(context: StationContext.self, options: .autoGenerateHeadEndpoints)
        router.middlewares.add(MetricsMiddleware(metrics: services.metrics))
        router.middlewares.add(RequestObserverMiddleware(observer: observer))
        router.middlewares.add(JSONErrorMiddleware())
        router.middlewares.add(RequestLimitMiddleware())
        router.middlewares.add(TraversalGuardMiddleware())
        let media = MediaFileProvider(library: services.library, transcodes: services.transcodes,
                                      leveling: services.responder.leveling)
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
        // Every API route goes through StationAPI.respond, as in-process requests do: one
        // table of paths, so the two transports cannot drift apart.
        let handler: @Sendable (Request, StationContext) async throws -> Response = { request, context in
            let base = linkBase(authority: request.head.authority, scheme: scheme, fallback: fallbackBase)
            let body = request.method == .post
                ? Data(buffer: try await request.body.collect(upTo: RequestLimitMiddleware<StationContext>.maximumBodySize))
                : Data()
            let origin = RequestOrigin(address: context.peerAddress, cookies: request.cookies)
            let reply = await api.respond(method: answeredMethod(request), path: request.uri.path,
                                          query: request.uri.query, body: body, origin: origin, links: .http(base: base))
            return Response(reply)
        }
        for path in ["/j/app/radio/channels", "/j/app/radio/people", "/j/app/radio/liked_songs", "/j/new_captcha",
                     "/misc/captcha", "/j/mine/playlist", "/j/v2/playlist", "/partner/logout", "/v2/fm/lyric",
                     "/j/v2/lyric"] {
            router.get(RouterPath(path), use: handler)
        }
        // The operator's view: loopback only unless the station is told otherwise; a client
        // elsewhere gets a 403 that says why.
        router.get(RouterPath(statusPath)) { _, context in
            guard StationStatus.isAllowed(address: context.peerAddress, everyone: services.statusForEveryone) else {
                throw HTTPError(.forbidden, message: "the status is for loopback clients; [station] metrics = true opens it")
            }
            return Response(status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"],
                            body: ResponseBody(byteBuffer: ByteBuffer(bytes: Array(services.status().json))))
        }
        // Prometheus' text format (version 0.0.4), under the same rule as the status.
        router.get(RouterPath(metricsPath)) { _, context in
            guard StationStatus.isAllowed(address: context.peerAddress, everyone: services.statusForEveryone) else {
                throw HTTPError(.forbidden, message: "the metrics are for loopback clients; [station] metrics = true opens them")
            }
            let body = services.metrics.exposition(services.status(), cachedTranscodes: services.transcodes.cachedCount)
            return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
                            body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
        }
        for path in ["/j/app/radio/people", "/j/app/login", "/j/login", "/v2/fm/lyric"] {
            router.post(RouterPath(path), use: handler)
        }
        // A transcode not in the cache yet: streamed while it is made, with its exact length
        // and Range (TranscodeStreaming). The file middleware serves what this route answers
        // 404 (Hummingbird's FileMiddleware asks the routes first), so a finished transcode
        // and every original file are served by it, with Range. A transcode's old name (its
        // gain is not the song's now) is redirected to its current one, which a client that
        // kept the old URL (a Douban client's queue) follows to the song at its level.
        let rangeWait = services.transcodeRangeWait
        let stream: @Sendable (Request, StationContext) async throws -> Response = { request, context in
            let track: LibraryTrack, format: ServedFormat
            switch media.transcode(named: Substring(request.uri.path.dropFirst(mediaPrefix.count + 1))) {
            case .current(let named, let served) where services.transcodes.cachedFile(of: named, as: served) == nil:
                (track, format) = (named, served)
            case .renamed(let name):
                // Not cached by clients (RFC 9110 §15.4.3: a 302 is cached only when its
                // headers say so): the name moves again when the gain does.
                return Response(status: .found, headers: [.location: "\(mediaPrefix)/\(name)", .contentLength: "0"])
            case .current, nil:
                throw HTTPError(.notFound)
            }
            // Opening the input (and, the first time, loading FFmpeg) blocks: off the pool.
            let transcodes = services.transcodes
            let job: TranscodeJob?
            do {
                job = try await Blocking.run { () throws(TranscodeError) in try transcodes.job(for: track, as: format) }
            } catch {
                context.logger.warning("transcode failed", metadata: ["sid": .string(track.sid), "error": .string("\(error)")])
                throw HTTPError(.notFound)
            }
            // Finished since the look above: the file middleware serves it.
            guard let job else { throw HTTPError(.notFound) }
            return await TranscodeStreaming.response(to: request, from: job, rangeWait: rangeWait)
        }
        WebPlayerRoute.add(to: router)
        router.get("\(mediaPrefix)/:name", use: stream)
        router.head("\(mediaPrefix)/:name", use: stream)
        var liveRoute: (@Sendable (Request, StationContext) async throws -> Response)?
        if let hub = services.live {
            let answers = LiveAnswers(hub: hub, account: { request, origin in await api.account(request, origin: origin) })
            let live: @Sendable (Request, StationContext) async throws -> Response = { request, context in
                let base = linkBase(authority: request.head.authority, scheme: scheme, fallback: fallbackBase)
                let body = request.method == .post
                    ? Data(buffer: try await request.body.collect(upTo: RequestLimitMiddleware<StationContext>.maximumBodySize))
                    : Data()
                return Response(await answers.respond(method: answeredMethod(request), path: request.uri.path,
                                                      query: request.uri.query, body: body, base: base,
                                                      origin: RequestOrigin(address: context.peerAddress, cookies: request.cookies)))
            }
            for pattern in ["/live/:channel", "/live/:channel/:name", "/live/:channel/:name/:segment"] {
                router.get(RouterPath(pattern), use: live)
            }
            router.post("/live/:channel/:name", use: live)
            liveRoute = live
        }
        return StationRoutes(router: router, live: liveRoute, observed: observer != nil)
    }

    /// The method whose answer a request gets: a `HEAD` is answered as its `GET` (its body
    /// dropped by the router), every other method as itself.
    private static func answeredMethod(_ request: Request) -> String {
        request.method == .head ? HTTPRequest.Method.get.rawValue : request.method.rawValue
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

    /// The root of the links an answer hands out: the server root as the client addressed
    /// it (``mediaBase(authority:scheme:)``), else the bound root without the zone of a
    /// link-local address (``withoutZone(_:)``).
    static func linkBase(authority: String?, scheme: String, fallback: () -> String) -> String {
        mediaBase(authority: authority, scheme: scheme) ?? withoutZone(fallback())
    }

    /// `root` without the zone of an IPv6 literal (`http://[fe80::1%25eth0]:6000` →
    /// `http://[fe80::1]:6000`). A zone (RFC 6874) names one of the station's own network
    /// interfaces: meaningful to the station's host alone, a wrong or unknown name on any
    /// other (which reaches the address through an interface of its own), and clients
    /// differ on whether they accept one in a URL at all. The address itself is what a
    /// link's host must be; a client on the link adds its own zone as it connects, as it
    /// did to reach the station.
    static func withoutZone(_ root: String) -> String {
        guard let open = root.firstIndex(of: "["), let close = root[open...].firstIndex(of: "]"),
              let zone = root[open..<close].firstIndex(of: "%")
        else { return root }
        return String(root[..<zone] + root[close...])
    }

    /// The server root as the client addressed it (`<scheme>://<Host>`), so song URLs work
    /// through whatever name or port mapping the client used; `nil` when the header is
    /// missing or holds anything but a host name or address with an optional port (it is
    /// echoed into URLs, so nothing else may pass).
    static func mediaBase(authority: String?, scheme: String = "http") -> String? {
        guard let authority, !authority.isEmpty, authority.count <= 255 else { return nil }
        let allowed = authority.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || ".-:[]_".unicodeScalars.contains(scalar))
        }
        return allowed ? "\(scheme)://\(authority)" : nil
    }
}

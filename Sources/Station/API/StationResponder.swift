import Hummingbird

/// The station's responder: the router's (``StationRouter``), but a live channel's `GET`
/// (`/live/…`, what every listener of a broadcast asks for every target duration) goes to
/// its route at once, without the router's path lookup and the chain of middlewares, none of
/// which does anything for it:
///
/// - the request observer and its debug log line: the short path is taken only when there
///   is no observer and debug logging is off;
/// - the request limits: taken only for a target within ``RequestLimitMiddleware`` 's
///   length and no declared body;
/// - the traversal guard: taken only for a path it lets through;
/// - JSON errors: the live route throws nothing for a `GET` (its refusals are JSON replies);
/// - range repair and the file middlewares: they act on `/media/` and `/cover/` alone.
///
/// Every other request, and every live request the short path does not take, goes through
/// the router as before, so the answers are the same either way.
struct StationResponder: HTTPResponder {
    /// The router's own responder.
    let router: RouterResponder<StationContext>
    /// The live route, when the station broadcasts.
    let live: (@Sendable (Request, StationContext) async throws -> Response)?
    /// Whether a request observer is configured: it must see every request.
    let observed: Bool

    /// Answers `request`.
    func respond(to request: Request, context: StationContext) async throws -> Response {
        if let live, takesShortPath(request, context: context) { return try await live(request, context) }
        return try await router.respond(to: request, context: context)
    }

    private func takesShortPath(_ request: Request, context: StationContext) -> Bool {
        guard request.method == .get, !observed, context.logger.logLevel > .debug,
              request.headers[.contentLength] == nil
        else { return false }
        let path = request.uri.path
        return path.hasPrefix("/live/")
            && request.uri.string.utf8.count <= RequestLimitMiddleware<StationContext>.maximumTargetLength
            && !TraversalGuardMiddleware<StationContext>.isTraversal(path)
    }
}

/// The router and the live route, built into a ``StationResponder`` when the server starts.
struct StationRoutes: HTTPResponderBuilder {
    /// Every route, the live ones included, behind the middlewares.
    let router: Router<StationContext>
    /// The live route, also registered in ``router``.
    let live: (@Sendable (Request, StationContext) async throws -> Response)?
    /// Whether a request observer is configured.
    let observed: Bool

    /// The responder.
    func buildResponder() -> StationResponder {
        StationResponder(router: router.buildResponder(), live: live, observed: observed)
    }
}

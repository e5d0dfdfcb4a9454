import Hummingbird
import Logging
import RadioAPI

/// The outermost middleware: reports every request to the configured observer, in arrival
/// order and before anything can fail, and logs it at debug level.
///
/// The log line carries the method, the path and the query with credential values
/// redacted (tokens, cookies and passwords never reach a log); the
/// observer gets the query unredacted, because it is the host's own code.
struct RequestObserverMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Query parameters whose values never reach the log: the client's own list
    /// (``LogRedaction/secretFields``: tokens, passwords, `ck`, captcha answers, which
    /// some clients send in the query of a login) and `expire`, which goes with a token.
    static var secretParameters: Set<String> { LogRedaction.secretFields.union(["expire"]) }

    /// The configuration's ``StationConfiguration/onRequest`` hook, if any.
    let observer: (@Sendable (StationRequest) -> Void)?

    /// Reports and logs the request, then passes it on. With no observer and debug logging
    /// off it does nothing: the routes parse the query they need themselves.
    func handle(_ request: Request, context: Context,
                next: (Request, Context) async throws -> Response) async throws -> Response {
        guard observer != nil || context.logger.logLevel <= .debug else { return try await next(request, context) }
        let seen = StationRequest(method: request.method.rawValue, path: request.uri.path, rawQuery: request.uri.query)
        observer?(seen)
        context.logger.debug("request", metadata: [
            "method": .string(seen.method),
            "path": .string(seen.path),
            "query": .string(Self.redacted(seen.query)),
        ])
        return try await next(request, context)
    }

    /// The query as `name=value&…` with secret values replaced by `***`.
    static func redacted(_ query: [StationRequest.QueryItem]) -> String {
        query.map { item in
            "\(item.name)=\(secretParameters.contains(item.name) ? "***" : item.value)"
        }.joined(separator: "&")
    }
}

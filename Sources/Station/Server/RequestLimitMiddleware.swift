import Hummingbird

/// Refuses oversized requests before any handler sees them: a request target longer than
/// ``maximumTargetLength`` (414) and a declared body larger than ``maximumBodySize``
/// (413). No route of the station takes more than a login form, and bodies without a
/// declared length are capped where they are read (``StationRouter``'s login route). The
/// rest of a refused body is not read: ``OversizedBodyHandler`` closes the connection.
struct RequestLimitMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The longest path and query accepted, in bytes: a playlist request with a full `h`
    /// history is well under 2 KB.
    static var maximumTargetLength: Int { 8192 }
    /// The largest body accepted, in bytes: a login form is under 1 KB.
    static var maximumBodySize: Int { 16_384 }

    /// Checks the limits, then passes the request on.
    func handle(_ request: Request, context: Context,
                next: (Request, Context) async throws -> Response) async throws -> Response {
        if request.uri.string.utf8.count > Self.maximumTargetLength { throw HTTPError(.uriTooLong) }
        if let declared = request.headers[.contentLength], let length = Int(declared),
           length > Self.maximumBodySize {
            throw HTTPError(.contentTooLarge)
        }
        return try await next(request, context)
    }
}

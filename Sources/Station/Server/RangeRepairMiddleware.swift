import Hummingbird

/// Puts `Range` headers of file requests into the one form Hummingbird's `FileMiddleware`
/// reads right, before it sees them.
///
/// Its parser (Hummingbird 2.28 `getRangeFromHeaderValue`) reads a suffix range
/// `bytes=-N`, "the last N bytes" (RFC 9110 §14.1.2), as `0...N`, the first N+1 bytes;
/// and for a first byte beyond the end of the file it answers 206 with a negative
/// `Content-Length`, which clients reject as a broken response. So this middleware, knowing
/// the file's size:
/// - rewrites `bytes=-N` to `bytes=<size-N>-<size-1>` (the whole file when N ≥ size);
/// - answers a range starting at or beyond the end with 416 and `Content-Range: bytes */size`;
/// - leaves every other request alone.
struct RangeRepairMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The size of the file a path names, or `nil` when the path is not a served file.
    let fileSize: @Sendable (String) async -> Int?

    /// Repairs or refuses the range, then passes the request on.
    func handle(_ request: Request, context: Context,
                next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method == .get || request.method == .head, let range = request.headers[.range],
              range.hasPrefix("bytes="), let size = await fileSize(request.uri.path)
        else { return try await next(request, context) }
        let spec = range.dropFirst("bytes=".count).prefix { $0 != "," }
        guard let dash = spec.firstIndex(of: "-") else { return try await next(request, context) }
        let first = spec[..<dash], last = spec[spec.index(after: dash)...]
        if first.isEmpty, let count = Int(last) {
            guard count > 0, size > 0 else { return Self.unsatisfiable(size: size) }
            var head = request.head
            head.headerFields[.range] = "bytes=\(max(0, size - count))-\(size - 1)"
            return try await next(Request(head: head, body: request.body), context)
        }
        if let start = Int(first), start >= size { return Self.unsatisfiable(size: size) }
        return try await next(request, context)
    }

    private static func unsatisfiable(size: Int) -> Response {
        var response = JSONResponse.error("range_not_satisfiable", status: .rangeNotSatisfiable)
        response.headers[.contentRange] = "bytes */\(size)"
        return response
    }
}

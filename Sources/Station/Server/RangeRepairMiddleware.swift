import Hummingbird

/// Reads the `Range` of a file request with the station's one parser (``ByteRange``) and
/// hands Hummingbird's `FileMiddleware` only what that parser decided, so a file answers a
/// range exactly as a transcode being made does (``TranscodeStreaming``).
///
/// The file middleware's own parser (Hummingbird 2.28 `getRangeFromHeaderValue`) reads a
/// suffix range `bytes=-N`, "the last N bytes" (RFC 9110 §14.1.2), as `0...N`; refuses an
/// invalid range (`bytes=5-2`) with 416 where the station ignores it; and for a first byte
/// beyond the end of the file answers 206 with a negative `Content-Length`. So this
/// middleware, knowing the file's size:
/// - removes a `Range` the parser ignores (the whole file, 200);
/// - answers a range that overlaps nothing of the file with 416 and `Content-Range: bytes */size`;
/// - rewrites any other to the one range served, `bytes=<first>-<last>` within the file;
/// - leaves requests for anything but a served file alone.
struct RangeRepairMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The size of the file a path names, or `nil` when the path is not a served file.
    let fileSize: @Sendable (String) async -> Int?

    /// Applies the range as ``ByteRange`` reads it, or refuses it, then passes the request on.
    func handle(_ request: Request, context: Context,
                next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method == .get || request.method == .head, let range = request.headers[.range],
              let size = await fileSize(request.uri.path)
        else { return try await next(request, context) }
        var head = request.head
        switch ByteRange(header: range, length: size) {
        case .whole:
            head.headerFields[.range] = nil
        case .part(let bytes):
            head.headerFields[.range] = "bytes=\(bytes.lowerBound)-\(bytes.upperBound)"
        case .unsatisfiable:
            return Self.unsatisfiable(size: size)
        }
        return try await next(Request(head: head, body: request.body), context)
    }

    /// The 416 of a range that overlaps nothing of a body of `size` bytes (RFC 9110 §15.5.17).
    static func unsatisfiable(size: Int) -> Response {
        var response = JSONResponse.error("range_not_satisfiable", status: .rangeNotSatisfiable)
        response.headers[.contentRange] = "bytes */\(size)"
        return response
    }
}

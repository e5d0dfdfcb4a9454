import Foundation
import Hummingbird

/// Answers a path that tries to climb out of a folder (`..`, plain or percent-encoded) or
/// cannot be percent-decoded with 404 `{"r":1,"err":"not_found"}`, before the file
/// middlewares see it.
///
/// No station path contains `..`, and the file providers never take a request path as a
/// file path (see ``MediaFileProvider``), so such a request names nothing: 404, like any
/// other name that is not served. Hummingbird's `FileMiddleware` would answer 400 for the
/// same request (it refuses any decoded path containing `..`), which tells a prober the
/// path reached a file layer.
struct TraversalGuardMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Refuses a traversal attempt, passes anything else on.
    func handle(_ request: Request, context: Context,
                next: (Request, Context) async throws -> Response) async throws -> Response {
        if Self.isTraversal(request.uri.path) { throw HTTPError(.notFound) }
        return try await next(request, context)
    }

    /// Whether `path` (as sent, percent-encoded) holds `..` once decoded, or does not
    /// decode at all.
    static func isTraversal(_ path: String) -> Bool {
        // Without `%` the path is its own decoding, so it is looked at as it is: Foundation's
        // decoding (through CoreFoundation) costs more than many of the answers it guards.
        guard path.utf8.contains(UInt8(ascii: "%")) else {
            let dot = UInt8(ascii: ".")
            return zip(path.utf8, path.utf8.dropFirst()).contains { $0 == dot && $1 == dot }
        }
        guard let decoded = path.removingPercentEncoding else { return true }
        return decoded.contains("..")
    }
}

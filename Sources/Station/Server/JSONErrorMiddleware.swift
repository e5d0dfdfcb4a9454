import Hummingbird

/// Turns errors thrown by the routes and the file middleware into JSON bodies with their
/// HTTP status (`{"r":1,"err":"not_found"}` with 404), so no client ever sees an empty body
/// or an internal message. A body too large for the web family's login is refused in that
/// family's shape (``WebLoginAnswer/tooLarge``).
struct JSONErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Passes the request on and converts a thrown error into a JSON error response.
    func handle(_ request: Request, context: Context,
                next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as any HTTPResponseError {
            // The web family's login reads refusals from `err_no`/`err_msg` alone.
            if error.status == .contentTooLarge, request.uri.path == "/j/login" {
                return Response(JSONResponse.reply(WebLoginAnswer.tooLarge, status: 413))
            }
            return JSONResponse.error(Self.word(for: error.status), status: error.status)
        } catch {
            context.logger.error("unhandled error", metadata: ["error.type": .string("\(type(of: error))")])
            return JSONResponse.error("internal_error", status: .internalServerError)
        }
    }

    /// A short error word for an HTTP status.
    static func word(for status: HTTPResponse.Status) -> String {
        switch status.code {
        case 400: return "bad_request"
        case 404: return "not_found"
        case 405: return "method_not_allowed"
        case 413: return "too_large"
        case 414: return "uri_too_long"
        case 416: return "range_not_satisfiable"
        case 500...: return "internal_error"
        default: return "http_\(status.code)"
        }
    }
}

import HTTPTypes
import Hummingbird
import NIOCore

/// `GET|HEAD /`: the web player (``WebPlayerPage``), with its ETag. A request whose
/// `If-None-Match` names that tag (or `*`) gets a 304 without the body; the browser
/// revalidates every time (`Cache-Control: no-cache`), so a station upgraded to a new page
/// is seen at the next load. The Content-Security-Policy lets the page load nothing from
/// another host.
enum WebPlayerRoute {
    /// What the page may load: its own inline style and script, and images, media and API
    /// answers from the station itself.
    static let contentSecurityPolicy =
        "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; "
            + "img-src 'self' data:; media-src 'self'; connect-src 'self'; frame-ancestors 'none'; form-action 'self'"

    /// Answers the request.
    static func respond(_ request: Request, context: some RequestContext) -> Response {
        var headers: HTTPFields = [
            .eTag: WebPlayerPage.etag,
            .cacheControl: "no-cache",
            .contentSecurityPolicy: contentSecurityPolicy,
            HTTPField.Name("X-Content-Type-Options")!: "nosniff",
        ]
        if matches(request.headers[values: .ifNoneMatch], etag: WebPlayerPage.etag) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.contentLength] = String(WebPlayerPage.body.count)
        let body = request.method == .head
            ? ResponseBody()
            : ResponseBody(byteBuffer: ByteBuffer(bytes: WebPlayerPage.body))
        return Response(status: .ok, headers: headers, body: body)
    }

    /// Whether `If-None-Match` (every header line of it, each a comma-separated list of
    /// tags, weak ones `W/`-prefixed) names `etag` or is `*` (RFC 9110 §13.1.2: weak
    /// comparison).
    static func matches(_ values: [String], etag: String) -> Bool {
        for value in values {
            for item in value.split(separator: ",") {
                var tag = item.trimmingCharacters(in: .whitespaces)
                if tag == "*" { return true }
                if tag.hasPrefix("W/") { tag.removeFirst(2) }
                if tag == etag { return true }
            }
        }
        return false
    }
}

import HTTPTypes
import Hummingbird
import NIOCore

/// `GET|HEAD` of the web player's files (``WebPlayerPage/assets``: `/`, `/web/player.css`,
/// `/web/player.js`, `/web/player-live.js`), each with its type and ETag. A request whose `If-None-Match` names that
/// tag (or `*`) gets a 304 without the body; the browser revalidates every time
/// (`Cache-Control: no-cache`), so a station upgraded to a new page is seen at the next load.
/// The Content-Security-Policy lets the page load nothing from another host, and run no
/// script and apply no style but its own files.
enum WebPlayerRoute {
    /// What the page may load: its own script and stylesheet files (nothing inline: no
    /// `'unsafe-inline'`), and images (its icon a `data:` URI), media and API answers from
    /// the station itself.
    static let contentSecurityPolicy =
        "default-src 'self'; script-src 'self'; style-src 'self'; "
            + "img-src 'self' data:; media-src 'self'; connect-src 'self'; frame-ancestors 'none'; form-action 'self'"

    /// Routes `GET` and `HEAD` of every file of the page on `router`.
    static func add<Context: RequestContext>(to router: Router<Context>) {
        for asset in WebPlayerPage.assets {
            let answer: @Sendable (Request, Context) -> Response = { request, _ in respond(request, with: asset) }
            router.get(RouterPath(asset.path), use: answer)
            router.head(RouterPath(asset.path), use: answer)
        }
    }

    /// Answers the request with `asset`.
    static func respond(_ request: Request, with asset: WebAsset) -> Response {
        var headers: HTTPFields = [
            .eTag: asset.etag,
            .cacheControl: "no-cache",
            .contentSecurityPolicy: contentSecurityPolicy,
            HTTPField.Name("X-Content-Type-Options")!: "nosniff",
        ]
        if matches(request.headers[values: .ifNoneMatch], etag: asset.etag) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = asset.contentType
        headers[.contentLength] = String(asset.body.count)
        let body = request.method == .head
            ? ResponseBody()
            : ResponseBody(byteBuffer: ByteBuffer(bytes: asset.body))
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

import Foundation
import MusicLibrary

/// One file of the web player as the station serves it: where, of which type, its bytes and
/// their ETag. The bytes are the file of `Web/Page` as written there, built into the binary
/// by the EmbedWebPage plugin (``WebPageFiles``), so the station needs nothing beside it.
struct WebAsset: Sendable {
    /// The path it is served at.
    let path: String
    /// Its `Content-Type`.
    let contentType: String
    /// The file's bytes (UTF-8 text).
    let body: Data
    /// A strong validator of ``body``: the same bytes give the same tag, across restarts and
    /// stations, so a browser revalidates with `If-None-Match` and gets a 304.
    let etag: String

    /// The file `text` at `path`, of `contentType`.
    init(path: String, contentType: String, text: String) {
        self.path = path
        self.contentType = contentType
        body = Data(text.utf8)
        etag = "\"" + String(TrackIdentity.hash(bytes: body), radix: 16) + "-" + String(body.count, radix: 16) + "\""
    }

    /// The text of ``body``.
    var text: String { String(decoding: body, as: UTF8.self) }
}

import Foundation
import HTTPTypes
import Hummingbird
import RadioAPI

/// Builds the station's JSON responses. The bodies are encoded with RadioAPI's models, whose
/// encoders write the app API's canonical shapes (field names and JSON types), so the
/// station answers exactly what a client decodes from Douban.
enum JSONResponse {
    /// `application/json; charset=utf-8`, as Douban sent it.
    static let contentType = "application/json; charset=utf-8"

    /// A reply with `value` as its JSON body.
    ///
    /// Slashes are not escaped (`"/subject/1/"`, not `"\/subject\/1\/"`), matching the
    /// recorded answers. Keys are sorted: Foundation's encoder on Linux otherwise orders
    /// them by hash, differently in every process, and byte-stable answers are easier to
    /// compare, cache and test. (Douban's own order was arbitrary; JSON objects are unordered.)
    static func reply(_ value: some Encodable, status: Int = 200) -> StationReply {
        guard let data = try? encoder.encode(value) else {
            // The models encode only strings and numbers; this cannot happen, but a broken
            // answer must still be JSON.
            return StationReply(status: 500, contentType: contentType, body: Data(#"{"r":1,"err":"internal_error"}"#.utf8))
        }
        return StationReply(status: status, contentType: contentType, body: data)
    }

    /// `value` encoded as ``reply(_:status:)`` encodes it, for answers built once and sent
    /// many times (the channel list).
    static func encode(_ value: some Encodable) -> Data {
        (try? encoder.encode(value)) ?? Data(#"{"r":1,"err":"internal_error"}"#.utf8)
    }

    /// A reply with already encoded JSON as its body.
    static func reply(encoded data: Data) -> StationReply {
        StationReply(status: 200, contentType: contentType, body: data)
    }

    /// One encoder for every response: its options never change after this, and each
    /// `encode` call works on state of its own (Foundation's encoder is Sendable).
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// `{"r":1,"err":word}` with an HTTP error status, for failures outside the app API's
    /// in-band convention (unknown route, bad range, internal error).
    static func error(_ word: String, status: Int) -> StationReply {
        reply(SongList(error: word), status: status)
    }

    /// The same error as a Hummingbird response, for the middlewares.
    static func error(_ word: String, status: HTTPResponse.Status) -> Response {
        Response(error(word, status: status.code))
    }
}

extension Response {
    /// The HTTP response that carries `reply`.
    init(_ reply: StationReply) {
        var headers: HTTPFields = [.contentType: reply.contentType]
        if let cacheControl = reply.cacheControl { headers[.cacheControl] = cacheControl }
        for cookie in reply.cookies { headers.append(HTTPField(name: .setCookie, value: cookie)) }
        self.init(status: HTTPResponse.Status(code: reply.status), headers: headers,
                  body: ResponseBody(byteBuffer: ByteBuffer(bytes: reply.body)))
    }
}

/// The short-report acknowledgement `{"r":0}` (the Windows app's captured traffic: non-`n` types "may return just
/// `{"r":0}`").
struct Acknowledgement: Encodable {
    /// Always 0: success.
    let r = 0
}

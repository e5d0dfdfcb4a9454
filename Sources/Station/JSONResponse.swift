import Foundation
import Hummingbird
import RadioAPI

/// Builds the station's JSON responses. The bodies are encoded with RadioAPI's models, whose
/// encoders write the app API's canonical shapes (field names and JSON types), so the
/// station answers exactly what a client decodes from Douban.
enum JSONResponse {
    /// `application/json; charset=utf-8`, as Douban sent it.
    static let contentType = "application/json; charset=utf-8"

    /// A response with `value` as its JSON body.
    ///
    /// Slashes are not escaped (`"/subject/1/"`, not `"\/subject\/1\/"`), matching the
    /// recorded answers. Keys are sorted: Foundation's encoder on Linux otherwise orders
    /// them by hash, differently in every process, and byte-stable answers are easier to
    /// compare, cache and test. (Douban's own order was arbitrary; JSON objects are unordered.)
    static func make(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
        guard let data = try? encoder.encode(value) else {
            // The models encode only strings and numbers; this cannot happen, but a broken
            // answer must still be JSON.
            return bytes(Data(#"{"r":1,"err":"internal_error"}"#.utf8), status: .internalServerError)
        }
        return bytes(data, status: status)
    }

    /// `value` encoded as ``make(_:status:)`` encodes it, for answers built once and sent
    /// many times (the channel list).
    static func encode(_ value: some Encodable) -> Data {
        (try? encoder.encode(value)) ?? Data(#"{"r":1,"err":"internal_error"}"#.utf8)
    }

    /// A response with already encoded JSON as its body.
    static func make(encoded data: Data) -> Response {
        bytes(data, status: .ok)
    }

    /// One encoder for every response: its options never change after this, and each
    /// `encode` call works on state of its own (Foundation's encoder is Sendable).
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// The answer to a playlist request.
    static func make(_ answer: PlaylistResponder.Answer) -> Response {
        switch answer {
        case .playlist(let playlist): return make(playlist)
        case .acknowledged: return make(Acknowledgement())
        // In-band errors travel with HTTP 200, as Douban's did (docs/PROTOCOL.md §7).
        case .refused(let word): return make(Playlist(error: word))
        }
    }

    /// `{"r":1,"err":word}` with an HTTP error status, for failures outside the app API's
    /// in-band convention (unknown route, bad range, internal error).
    static func error(_ word: String, status: HTTPResponse.Status) -> Response {
        make(Playlist(error: word), status: status)
    }

    private static func bytes(_ data: Data, status: HTTPResponse.Status) -> Response {
        Response(status: status, headers: [.contentType: contentType],
                 body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}

/// The short-report acknowledgement `{"r":0}` (the Windows app's captured traffic: non-`n` types "may return just
/// `{"r":0}`").
struct Acknowledgement: Encodable {
    /// Always 0: success.
    let r = 0
}

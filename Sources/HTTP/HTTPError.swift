import CCurl

/// A libcurl result code, typed, with the one place that decides which failures are worth
/// retrying (pianobar's `temporaryCurlError`).
public struct CurlCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The `CURLcode` value.
    public let rawValue: UInt32

    /// Wraps a raw code.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    init(_ code: CURLcode) { rawValue = code.rawValue }

    /// libcurl's own description (`curl_easy_strerror`).
    public var description: String { String(cString: curl_easy_strerror(CURLcode(rawValue: rawValue))) }

    /// Whether the failure is of the network's moment rather than of the request: trying
    /// again later may succeed.
    public var isTransient: Bool {
        switch CURLcode(rawValue: rawValue) {
        case CURLE_COULDNT_RESOLVE_PROXY, CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_CONNECT,
             CURLE_OPERATION_TIMEDOUT, CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_GOT_NOTHING,
             CURLE_PARTIAL_FILE, CURLE_HTTP2, CURLE_HTTP2_STREAM, CURLE_SSL_CONNECT_ERROR:
            return true
        default:
            return false
        }
    }

    /// Whether libcurl could not verify the server's identity: its certificate is
    /// self-signed, expired, issued for another name or by a CA this machine does not
    /// trust, or does not match a pinned key. Never transient: the same certificate fails
    /// the same way. (A handshake that broke off, `CURLE_SSL_CONNECT_ERROR`, is not this:
    /// it is a network failure and ``isTransient``.)
    public var isTLSVerification: Bool {
        switch CURLcode(rawValue: rawValue) {
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR,
             CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS:
            return true
        default:
            return false
        }
    }

    /// `CURLE_OPERATION_TIMEDOUT`.
    public static let timedOut = CurlCode(CURLE_OPERATION_TIMEDOUT)
    /// `CURLE_COULDNT_CONNECT`.
    public static let couldNotConnect = CurlCode(CURLE_COULDNT_CONNECT)
    /// `CURLE_PARTIAL_FILE`: the connection closed before the announced length arrived.
    public static let partialFile = CurlCode(CURLE_PARTIAL_FILE)
    /// `CURLE_PEER_FAILED_VERIFICATION` (also spelt `CURLE_SSL_CACERT`): the server's
    /// certificate or host name did not verify.
    public static let peerFailedVerification = CurlCode(CURLE_PEER_FAILED_VERIFICATION)
}

/// Why an HTTP request did not produce a response. HTTP error statuses are not errors
/// here: the caller decides what a 404 means.
public enum HTTPError: Error, Sendable, Equatable {
    /// libcurl failed: connection refused, DNS, timeout, a broken TLS handshake, reset.
    /// `detail` is libcurl's error buffer, more specific than the code's description.
    case transport(CurlCode, detail: String)
    /// TLS verification failed (``CurlCode/isTLSVerification``): the connection was made
    /// but the server could not prove who it is, so nothing was sent. Only turning
    /// ``HTTPConfiguration/verifyTLS`` off gets past it. `detail` is libcurl's error buffer
    /// ("SSL certificate problem: self-signed certificate").
    case tls(CurlCode, detail: String)
    /// The body exceeded the configured cap; the transfer was stopped there.
    case responseTooLarge(limit: Int)
    /// The URL is not http(s) or could not be given to libcurl.
    case invalidURL(String)
    /// libcurl could not be set up (out of memory, option rejected).
    case setup(String)
    /// The request was cancelled by its task.
    case cancelled
    /// The cookie jar's storage could not be read or written; its words name what and why.
    case storage(String)
    /// A download's body could not be written to its file: `errno` of `write(2)` (ENOSPC
    /// for a full disk, EFBIG past a file-size limit, EIO). The transfer stopped there.
    case fileWrite(errno: Int32)
    /// A download asked for the rest of a file and the server answered 206 with another
    /// range (`answered` is its `Content-Range`, or "none"): nothing of it was written.
    case rangeMismatch(answered: String)

    /// Whether retrying the same request later may succeed.
    public var isTransient: Bool {
        if case .transport(let code, _) = self { return code.isTransient }
        return false
    }
}

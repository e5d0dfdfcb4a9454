import CCurl
import Foundation
import Synchronization

/// One libcurl easy handle, owned: created in `init`, cleaned up in `deinit`.
///
/// A handle is reused for many requests (`curl_easy_reset` keeps "live connections, the
/// Session ID cache, the DNS cache, the cookies, the shares" — curl_easy_reset(3)), which
/// is how connections to the station are kept alive. It is used by one thread at a time:
/// "You must never share the same handle in multiple threads" (libcurl-thread(3)); the
/// pool in ``HTTPClient`` guarantees that.
final class CurlEasy {
    private let handle: UnsafeMutableRawPointer
    /// The jar this handle was attached to. Kept so the share outlives the handle: "The
    /// share object can not be removed until all easy handles using it have been detached"
    /// (curl_share_cleanup(3)), and curl_easy_reset does not detach it.
    private var jar: CookieJar?

    /// libcurl must be initialised once per process before any handle or share exists.
    static let globalInit: CURLcode = curl_global_init(Int(CURL_GLOBAL_DEFAULT))

    /// Creates a handle.
    ///
    /// - Throws: ``HTTPError/setup(_:)`` when libcurl's global initialisation failed or
    ///   `curl_easy_init` returned NULL ("If this function returns NULL, something went
    ///   wrong and you cannot use the other curl functions" — curl_easy_init(3)).
    init() throws(HTTPError) {
        guard Self.globalInit == CURLE_OK else { throw .setup("curl_global_init failed") }
        guard let h = curl_easy_init() else { throw .setup("curl_easy_init returned NULL") }
        handle = h
    }

    deinit { curl_easy_cleanup(handle) }

    /// Performs one request synchronously, on the calling thread.
    ///
    /// - Parameters:
    ///   - jar: the cookies to send and update; `nil` turns cookies off. One handle is only
    ///     ever used with one jar (its ``HTTPClient``'s).
    ///   - stallTimeout: for a download (a body of any size, any duration): no overall
    ///     time limit and no compression (byte offsets must be the file's); `sink` stops
    ///     the transfer after this many seconds without a byte.
    func perform(_ request: some PerformableRequest, configuration c: HTTPConfiguration, jar: CookieJar?,
                 sink: ResponseSink, stallTimeout: Double? = nil) throws(HTTPError) -> HTTPResponse
    {
        curl_easy_reset(handle)
        guard let scheme = request.url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw .invalidURL(request.url.absoluteString)
        }
        var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        var headerList: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(headerList) }
        for header in request.headerFields { headerList = curl_slist_append(headerList, "\(header.name): \(header.value)") }
        // An empty "Expect:" stops libcurl from waiting for 100-continue on POST bodies.
        headerList = curl_slist_append(headerList, "Expect:")

        let context = Unmanaged.passUnretained(sink).toOpaque()
        let code: CURLcode = try errorBuffer.withUnsafeMutableBufferPointer { buffer throws(HTTPError) -> CURLcode in
            try set(CURLOPT_URL, request.url.absoluteString)
            try set(CURLOPT_PROTOCOLS_STR, "http,https")
            try set(CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
            // Without NOSIGNAL libcurl uses SIGALRM for DNS timeouts, which is not safe in a
            // multi-threaded process (CURLOPT_NOSIGNAL(3)).
            try set(CURLOPT_NOSIGNAL, 1)
            try set(CURLOPT_CONNECTTIMEOUT_MS, Int(c.connectTimeout * 1000))
            // A download has no overall limit (its sink stops it when the server goes silent)
            // and takes the body in larger pieces: "the maximum buffer size allowed to be
            // set is 10 megabytes" and the default 16 kB (CURLOPT_BUFFERSIZE(3)); 256 kB
            // means a sixteenth of the callbacks and writes.
            if stallTimeout != nil {
                try set(CURLOPT_BUFFERSIZE, 256 * 1024)
            } else {
                try set(CURLOPT_TIMEOUT_MS, Int(c.totalTimeout * 1000))
                try set(CURLOPT_ACCEPT_ENCODING, "")  // every encoding libcurl was built with
            }
            try set(CURLOPT_FOLLOWLOCATION, c.maxRedirects > 0 ? 1 : 0)
            try set(CURLOPT_MAXREDIRS, c.maxRedirects)
            try set(CURLOPT_USERAGENT, c.userAgent)
            try set(CURLOPT_SSL_VERIFYPEER, c.verifyTLS ? 1 : 0)
            try set(CURLOPT_SSL_VERIFYHOST, c.verifyTLS ? 2 : 0)
            if let proxy = c.proxy { try set(CURLOPT_PROXY, proxy) }
            if let jar {
                self.jar = jar
                try check(jar.attach(handle), "SHARE/COOKIEFILE")
            }
            try check(ccurl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, buffer.baseAddress), "ERRORBUFFER")
            try check(ccurl_setopt_slist(handle, CURLOPT_HTTPHEADER, headerList), "HTTPHEADER")
            try setMethod(request)
            try check(ccurl_setopt_data_cb(handle, CURLOPT_WRITEFUNCTION, ResponseSink.writeCallback), "WRITEFUNCTION")
            try check(ccurl_setopt_pointer(handle, CURLOPT_WRITEDATA, context), "WRITEDATA")
            try check(ccurl_setopt_data_cb(handle, CURLOPT_HEADERFUNCTION, ResponseSink.headerCallback), "HEADERFUNCTION")
            try check(ccurl_setopt_pointer(handle, CURLOPT_HEADERDATA, context), "HEADERDATA")
            try set(CURLOPT_NOPROGRESS, 0)
            try check(ccurl_setopt_xferinfo_cb(handle, CURLOPT_XFERINFOFUNCTION, ResponseSink.progressCallback),
                      "XFERINFOFUNCTION")
            try check(ccurl_setopt_pointer(handle, CURLOPT_XFERINFODATA, context), "XFERINFODATA")
            return withExtendedLifetime(sink) { curl_easy_perform(handle) }
        }
        guard code == CURLE_OK else {
            if let file = sink.file {
                if file.writeErrno != 0 { throw .fileWrite(errno: file.writeErrno) }
                if let range = file.rangeMismatch { throw .rangeMismatch(answered: range) }
            }
            if sink.stalled {
                throw .transport(.timedOut, detail: "no data received for \(stallTimeout.map { Int($0) } ?? 0) s")
            }
            if sink.exceededLimit { throw .responseTooLarge(limit: sink.limit) }
            if sink.isCancelled { throw .cancelled }
            let detail = String(decoding: errorBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let curl = CurlCode(code)
            let words = detail.isEmpty ? curl.description : detail
            if curl.isTLSVerification { throw .tls(curl, detail: words) }
            throw .transport(curl, detail: words)
        }
        var status = 0
        _ = ccurl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        sink.file?.finish(status: status, headers: sink.headers)
        var effective: UnsafeMutablePointer<CChar>?
        _ = ccurl_getinfo_string(handle, CURLINFO_EFFECTIVE_URL, &effective)
        return HTTPResponse(status: status, headers: sink.headers, body: sink.body,
                            effectiveURL: effective.flatMap { URL(string: String(cString: $0)) })
    }

    private func setMethod(_ request: some PerformableRequest) throws(HTTPError) {
        switch request.methodName.uppercased() {
        case "GET":
            try set(CURLOPT_HTTPGET, 1)
        case "HEAD":
            try set(CURLOPT_NOBODY, 1)
        case "POST":
            try set(CURLOPT_POST, 1)
        default:
            try set(CURLOPT_CUSTOMREQUEST, request.methodName)
        }
        if let body = request.body {
            try set(CURLOPT_POSTFIELDSIZE, body.count)
            // COPYPOSTFIELDS: libcurl copies the bytes, so `body` need not outlive this call.
            let rc = body.withUnsafeBytes { raw in
                ccurl_setopt_pointer(handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: raw.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!))
            }
            try check(rc, "COPYPOSTFIELDS")
        }
    }

    private func set(_ option: CURLoption, _ value: Int) throws(HTTPError) {
        try check(ccurl_setopt_long(handle, option, value), "\(option)")
    }

    private func set(_ option: CURLoption, _ value: String) throws(HTTPError) {
        try check(ccurl_setopt_string(handle, option, value), "\(option)")
    }

    private func check(_ code: CURLcode, _ what: String) throws(HTTPError) {
        guard code == CURLE_OK else { throw .setup("\(what): \(CurlCode(code))") }
    }
}

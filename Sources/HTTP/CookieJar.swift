import CCurl
import Foundation
import Synchronization

/// Cookies shared by every request of one ``HTTPClient`` and kept between runs by a
/// ``CookieStorage``: the session of the web API family, which identifies a listener by
/// cookies (`bid`, `dbcl2`, `ck`; docs/PROTOCOL.md), not by tokens.
///
/// The cookie *engine* is libcurl's: Set-Cookie parsing, domain and path matching, expiry.
/// This type only owns a share handle so the pooled easy handles see one jar
/// (CURL_LOCK_DATA_COOKIE), and hands its text to the storage instead of using
/// CURLOPT_COOKIEJAR, because the file must be created with mode 0600 (libcurl creates it
/// with the umask's default) and written atomically (a crash must not leave half a session).
///
/// Thread safety: the share handle is guarded by the lock callbacks libcurl calls around
/// every use ("If your application uses the shared object from multiple threads, you must
/// set this callback" — curl_share_setopt(3)); the management handle by a mutex. Hence
/// the unchecked Sendable.
public final class CookieJar: @unchecked Sendable {
    /// Where the jar is kept; `nil` for a jar that lives only in memory.
    public let storage: (any CookieStorage)?
    let share: UnsafeMutableRawPointer
    /// One pthread mutex per `curl_lock_data` value, as libcurl locks each kind separately.
    private let locks: UnsafeMutablePointer<pthread_mutex_t>
    private let lockCount = Int(CURL_LOCK_DATA_LAST.rawValue)
    /// An easy handle that never performs: CURLOPT_COOKIELIST and CURLINFO_COOKIELIST
    /// need a handle attached to the share to reach its cookies.
    private let manager: UnsafeMutableRawPointer
    private let managerLock = Mutex(())

    /// Creates a jar and loads what `storage` kept.
    ///
    /// - Throws: ``HTTPError/setup(_:)`` when libcurl cannot create the share;
    ///   ``HTTPError/storage(_:)`` when the storage has cookies but cannot read them.
    public init(storage: (any CookieStorage)?) throws(HTTPError) {
        guard CurlEasy.globalInit == CURLE_OK else { throw .setup("curl_global_init failed") }
        guard let share = curl_share_init() else { throw .setup("curl_share_init returned NULL") }
        guard let manager = curl_easy_init() else {
            curl_share_cleanup(share)
            throw .setup("curl_easy_init returned NULL")
        }
        locks = .allocate(capacity: lockCount)
        for index in 0..<lockCount { pthread_mutex_init(locks + index, nil) }
        self.share = share
        self.manager = manager
        self.storage = storage
        // The share must be fully configured before any easy handle is attached to it.
        _ = ccurl_share_setopt_pointer(share, CURLSHOPT_USERDATA, UnsafeMutableRawPointer(locks))
        _ = ccurl_share_setopt_lock_cb(share, Self.lock)
        _ = ccurl_share_setopt_unlock_cb(share, Self.unlock)
        guard ccurl_share_setopt_long(share, CURLSHOPT_SHARE, Int(CURL_LOCK_DATA_COOKIE.rawValue)) == CURLSHE_OK,
              ccurl_setopt_pointer(manager, CURLOPT_SHARE, share) == CURLE_OK
        else { throw .setup("cannot share cookies between handles") }
        if let text = try storage?.loadCookies() { load(text) }
    }

    deinit {
        // "The share object can not be removed until all easy handles using it have been
        // detached" (curl_share_cleanup(3)): pooled handles keep the jar alive, so only
        // the manager is left here.
        curl_easy_cleanup(manager)
        curl_share_cleanup(share)
        for index in 0..<lockCount { pthread_mutex_destroy(locks + index) }
        locks.deallocate()
    }

    /// Every cookie the jar holds, expired ones left out.
    public var cookies: [Cookie] {
        let now = Date()
        return managerLock.withLock { _ in allCookies() }.filter { !$0.isExpired(at: now) }
    }

    /// The cookie with this name, if the jar holds one (the first when several domains
    /// set it).
    public func cookie(named name: String) -> Cookie? { cookies.first { $0.name == name } }

    /// Adds (or replaces) a cookie, as if a server had set it.
    public func add(_ cookie: Cookie) {
        managerLock.withLock { _ in _ = ccurl_setopt_string(manager, CURLOPT_COOKIELIST, cookie.netscapeLine) }
    }

    /// Forgets every cookie in memory; the storage is left alone until ``save()``.
    public func removeAll() {
        // CURLOPT_COOKIELIST "ALL": "erases all cookies held in memory".
        managerLock.withLock { _ in _ = ccurl_setopt_string(manager, CURLOPT_COOKIELIST, "ALL") }
    }

    /// Forgets every cookie, in memory and in the storage.
    public func erase() throws(HTTPError) {
        removeAll()
        try storage?.eraseCookies()
    }

    /// Hands the unexpired cookies to the storage, in the Netscape cookie-file format.
    public func save() throws(HTTPError) {
        guard let storage else { return }
        try managerLock.withLock { _ throws(HTTPError) in try storage.saveCookies(netscapeText()) }
    }

    /// The unexpired cookies as a Netscape cookie file.
    private func netscapeText() -> String {
        let now = Date()
        let lines = allCookies().filter { !$0.isExpired(at: now) }.map(\.netscapeLine)
        return "# Netscape HTTP Cookie File\n# mhz's session cookies: keep this file private.\n"
            + lines.map { $0 + "\n" }.joined()
    }

    /// Attaches a pooled easy handle to the jar and turns its cookie engine on.
    func attach(_ handle: UnsafeMutableRawPointer) -> CURLcode {
        let code = ccurl_setopt_pointer(handle, CURLOPT_SHARE, share)
        guard code == CURLE_OK else { return code }
        // "By passing the empty string ("") to this option, you enable the cookie engine
        // without reading any initial cookies" (CURLOPT_COOKIEFILE(3)).
        return ccurl_setopt_string(handle, CURLOPT_COOKIEFILE, "")
    }

    private func load(_ text: String) {
        let now = Date()
        let cookies = text.split(separator: "\n")
            .compactMap { Cookie(netscapeLine: String($0)) }
            .filter { !$0.isExpired(at: now) }
        managerLock.withLock { _ in
            for cookie in cookies { _ = ccurl_setopt_string(manager, CURLOPT_COOKIELIST, cookie.netscapeLine) }
        }
    }

    /// CURLINFO_COOKIELIST: "a linked-list of all cookies curl knows (expired ones, too).
    /// Don't forget to call curl_slist_free_all on the list after it has been used."
    private func allCookies() -> [Cookie] {
        var list: UnsafeMutablePointer<curl_slist>?
        guard ccurl_getinfo_slist(manager, CURLINFO_COOKIELIST, &list) == CURLE_OK else { return [] }
        defer { curl_slist_free_all(list) }
        var cookies: [Cookie] = []
        var node = list
        while let current = node {
            if let data = current.pointee.data, let cookie = Cookie(netscapeLine: String(cString: data)) {
                cookies.append(cookie)
            }
            node = current.pointee.next
        }
        return cookies
    }

    private static let lock: ccurl_lock_cb = { _, data, _, userptr in
        guard let userptr else { return }
        pthread_mutex_lock(userptr.assumingMemoryBound(to: pthread_mutex_t.self) + Int(data.rawValue))
    }

    private static let unlock: ccurl_unlock_cb = { _, data, userptr in
        guard let userptr else { return }
        pthread_mutex_unlock(userptr.assumingMemoryBound(to: pthread_mutex_t.self) + Int(data.rawValue))
    }
}

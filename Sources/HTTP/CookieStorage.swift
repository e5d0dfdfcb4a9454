/// Where a ``CookieJar`` keeps its cookies between runs, as text in the Netscape cookie-file
/// format libcurl reads and writes. The HTTP layer only knows that the text is kept; how
/// (a private file, mode 0600, replaced atomically) is the owner's business.
public protocol CookieStorage: Sendable {
    /// The text saved last time, or nil when nothing was saved.
    func loadCookies() throws(HTTPError) -> String?
    /// Replaces what is kept with `text`. Called after every answer that set a cookie.
    func saveCookies(_ text: String) throws(HTTPError)
    /// Forgets what is kept.
    func eraseCookies() throws(HTTPError)
}

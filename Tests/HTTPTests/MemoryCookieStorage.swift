import HTTP
import Synchronization

/// A cookie storage in memory: what the jar saved last, and how often it saved.
final class MemoryCookieStorage: CookieStorage {
    private let state = Mutex<(text: String?, saves: Int)>((nil, 0))

    /// The text saved last, nil when nothing was saved or it was erased.
    var text: String? { state.withLock { $0.text } }
    /// How many times the jar saved.
    var saves: Int { state.withLock { $0.saves } }

    func loadCookies() throws(HTTPError) -> String? { text }

    func saveCookies(_ text: String) throws(HTTPError) {
        state.withLock { $0 = (text, $0.saves + 1) }
    }

    func eraseCookies() throws(HTTPError) {
        state.withLock { $0.text = nil }
    }
}

import Foundation
import HTTP
import Logging
import Synchronization

/// The login in force while mhz runs, shared by every request, and what happens when the
/// server stops accepting it: requests go on anonymously, the stored session is deleted
/// (it can no longer be used), and the front end is told once so it can ask the listener
/// to log in again (issue 3: "playback goes on anonymously meanwhile").
public final class ActiveSession: Sendable {
    private let state: Mutex<State>
    private let store: SessionStore?
    private let jar: CookieJar?
    private let logger: Logger

    private struct State {
        var login: Login
        /// The stored session could not be used at start (its cookie expired): tell the
        /// listener at the first occasion.
        var expiryToAnnounce: Bool
        var onExpired: @Sendable () -> Void = {}
    }

    /// Creates the session.
    ///
    /// - Parameters:
    ///   - login: the login loaded from the store, or `.anonymous`.
    ///   - expiredAtStart: a stored session existed but was already unusable.
    ///   - store: where the session is kept, to delete it when it expires.
    ///   - jar: the web family's cookies, forgotten when the session expires.
    public init(login: Login, expiredAtStart: Bool = false, store: SessionStore?, jar: CookieJar?, logger: Logger) {
        state = Mutex(State(login: login, expiryToAnnounce: expiredAtStart))
        self.store = store
        self.jar = jar
        self.logger = logger
    }

    /// The login requests carry now.
    public var login: Login { state.withLock { $0.login } }

    /// Sets what to call (once) when the session expires; calls it at once if the stored
    /// session had expired before this run.
    public func onExpired(_ action: @escaping @Sendable () -> Void) {
        state.withLock { $0.onExpired = action }
    }

    /// Calls the expiry action if an expiry found at start is still unannounced.
    public func announcePendingExpiry() {
        let action: (@Sendable () -> Void)? = state.withLock { state in
            guard state.expiryToAnnounce else { return nil }
            state.expiryToAnnounce = false
            return state.onExpired
        }
        action?()
    }

    /// The listener logged in while mhz runs (the terminal UI's dialog): every request
    /// from now on carries `login`, and an expiry found at start no longer needs saying.
    public func begin(_ login: Login) {
        state.withLock { state in
            state.login = login
            state.expiryToAnnounce = false
        }
    }

    /// The server refused `login`: continue anonymously. Only the first of several
    /// requests refused together does the work and tells the front end.
    ///
    /// - Returns: whether this call ended the session (false when it had already ended).
    @discardableResult
    public func expire(_ login: Login) -> Bool {
        let action: (@Sendable () -> Void)? = state.withLock { state in
            guard login.isLoggedIn, state.login == login else { return nil }
            state.login = .anonymous
            state.expiryToAnnounce = false
            return state.onExpired
        }
        guard let action else { return false }
        logger.notice("the server no longer accepts the session: continuing anonymously")
        // Anonymous from now on: no cookie of the old session may be sent again.
        jar?.removeAll()
        do throws(SessionFailure) {
            try store?.remove()
        } catch {
            // Worded by the conformance the command line gives the failure.
            logger.warning("\(error)")
        }
        action()
        return true
    }
}

import ArgumentParser
import Settings
import Foundation
import HTTP
import Logging
import RadioAPI
import StationLink

/// `mhz logout`: forget the stored session (and end it on the server for the web family,
/// whose logout is a request; the app family's is purely local, docs/PROTOCOL.md §5.1).
struct LogoutCommand: AsyncParsableCommand {
    /// The subcommand's name and help.
    static let configuration = CommandConfiguration(
        commandName: "logout", abstract: "Forget the stored session (and end it on the server for the web API).")

    /// `--data-dir` and `--config` say where the session is.
    @OptionGroup var global: GlobalOptions

    /// Logs out, or prints one line and exits 1.
    func run() async throws {
        do {
            try await logout()
        } catch {
            throw error.exit()
        }
    }

    private func logout() async throws(CLIError) {
        let (paths, config) = try RadioRuntime.settings(options: global)
        guard FileManager.default.fileExists(atPath: paths.dataDirectory.path) else {
            print("Not logged in.")
            return
        }
        RadioRuntime.bootstrapLogging(paths: paths, toStderr: false)
        switch try await Self.logOut(store: SessionStore(directory: paths.dataDirectory), config: config) {
        case .notLoggedIn:
            print("Not logged in.")
        case .loggedOut(let server):
            print("Logged out of \(server).")
        case .forgottenOnly(let server, let why):
            print("Logged out of \(server) here; the server was not told (\(why)).")
        }
    }

    /// What `logOut` did.
    enum Outcome: Equatable {
        /// There was no session.
        case notLoggedIn
        /// The session is forgotten (and ended on the server, for the web family).
        case loggedOut(server: String)
        /// The session is forgotten here, but the server's logout failed.
        case forgottenOnly(server: String, reason: String)
    }

    /// Forgets the session in `store`; for a web session, first asks its server to end it.
    /// The session is forgotten locally whatever the server says: a logout must not be
    /// stuck behind a network that is down.
    static func logOut(store: SessionStore, config: Config,
                       logger: Logger = Logger(label: "mhz.logout")) async throws(CLIError) -> Outcome {
        let stored: StoredSession?
        do {
            stored = try store.load()
        } catch {
            // A damaged session file is still a session to forget.
            try CLIError.wording(try store.remove())
            return .loggedOut(server: "the stored session")
        }
        guard let stored else {
            try CLIError.wording(try store.remove())  // a stray cookie jar
            return .notLoggedIn
        }
        var failure: String?
        if stored.api == .web, let url = URL(string: stored.server) {
            let http = try RadioRuntime.makeHTTPClient(config: config, store: store)
            if let jar = http.cookieJar {
                let web = WebLogin(transport: StationTransport(http: http, logger: logger),
                                   endpoints: WebEndpoints(baseURL: url), jar: jar)
                do {
                    try await web.logout()
                } catch {
                    failure = LoginText.describe(error, account: stored.userName, server: stored.server)
                }
            }
        }
        try CLIError.wording(try store.remove())
        logger.info("logged out of \(stored.server)")
        let server = stored.server == "embedded" ? "the embedded station" : stored.server
        if let failure { return .forgottenOnly(server: server, reason: failure) }
        return .loggedOut(server: server)
    }
}

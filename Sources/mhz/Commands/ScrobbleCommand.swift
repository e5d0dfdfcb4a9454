import Adapters
import ArgumentParser
import Settings
import Foundation
import HTTP
import Logging
import Scrobble
import StationLink
import Store

/// `mhz scrobble login lastfm|listenbrainz`, `mhz scrobble status`.
struct ScrobbleCommand: AsyncParsableCommand {
    /// The subcommand and its own subcommands.
    static let configuration = CommandConfiguration(
        commandName: "scrobble", abstract: "Scrobble to ListenBrainz and Last.fm: log in, or see what waits.",
        subcommands: [ScrobbleLoginCommand.self, ScrobbleStatusCommand.self])
}

/// `mhz scrobble login lastfm|listenbrainz`: Last.fm's desktop authorisation, or a
/// ListenBrainz token read from stdin and checked; either is written to `config.toml`'s
/// `[scrobble]`, the file readable by its owner only.
struct ScrobbleLoginCommand: AsyncParsableCommand {
    /// The subcommand's name and help.
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Authorise mhz: lastfm opens Last.fm's approval page; listenbrainz reads your token from stdin.")

    /// `--data-dir`, `--config`.
    @OptionGroup var global: GlobalOptions

    /// `lastfm` or `listenbrainz`.
    @Argument(help: "lastfm or listenbrainz.")
    var service: String

    /// Logs in, or prints one line and exits 1.
    func run() async throws {
        do {
            try await login()
        } catch {
            throw error.exit()
        }
    }

    private func login() async throws(CLIError) {
        guard let which = ScrobbleService(rawValue: service.lowercased()) else {
            throw .runtime("no scrobbling service \"\(service)\": say lastfm or listenbrainz")
        }
        let (paths, config) = try RadioRuntime.settings(options: global)
        try? FileManager.default.createDirectory(at: paths.dataDirectory, withIntermediateDirectories: true)
        RadioRuntime.bootstrapLogging(paths: paths, toStderr: false)
        let transport = ScrobbleTransportHTTP(http: HTTPClient(configuration: RadioRuntime.httpConfiguration(config)),
                                              logger: Logger(label: "mhz.scrobble"))
        switch which {
        case .listenBrainz:
            try await listenBrainz(config: config, transport: transport, file: paths.configFile)
        case .lastFM:
            try await lastFM(config: config, transport: transport, file: paths.configFile)
        }
    }

    private func listenBrainz(config: Config, transport: ScrobbleTransportHTTP, file: URL) async throws(CLIError) {
        FileHandle.standardError.write(Data("Paste your ListenBrainz user token (listenbrainz.org/settings), then Enter:\n".utf8))
        guard let line = readLine(strippingNewline: true)?.trimmingCharacters(in: .whitespaces), !line.isEmpty else {
            throw .runtime("no token on stdin: paste your ListenBrainz user token (listenbrainz.org/settings)")
        }
        let endpoint = ListenBrainz(baseURL: config.scrobble.listenBrainzURL, token: line, client: ScrobbleSettings.client)
        let user: String?
        do throws(ScrobbleFailure) {
            user = try ListenBrainz.validatedUser(try await transport.send(endpoint.validateToken()))
        } catch {
            throw .runtime("cannot check the token with ListenBrainz: \(ScrobbleText.describe(error)) — try again later")
        }
        guard let user else {
            throw .runtime("ListenBrainz says the token is not valid: copy it again from listenbrainz.org/settings")
        }
        try Self.save("listenbrainz_token", line, in: file)
        print("ListenBrainz: scrobbling as \(user) from the next mhz (token saved in \(file.path)).")
    }

    private func lastFM(config: Config, transport: ScrobbleTransportHTTP, file: URL) async throws(CLIError) {
        guard let key = config.scrobble.lastFMKey, !key.isEmpty, let secret = config.scrobble.lastFMSecret, !secret.isEmpty else {
            throw .runtime("set [scrobble] lastfm_api_key and lastfm_api_secret in \(file.path) first "
                + "(an API account from last.fm/api/account/create)")
        }
        let endpoint = LastFM(url: config.scrobble.lastFMURL, apiKey: key, secret: secret)
        let token: String
        do throws(ScrobbleFailure) {
            token = try endpoint.token(try await transport.send(endpoint.getToken()))
        } catch {
            throw .runtime("Last.fm gave no token: \(ScrobbleText.describe(error)) — check lastfm_api_key and lastfm_api_secret")
        }
        print("Open this page, allow mhz to use your Last.fm account, then press Enter here:")
        print(endpoint.authorisationURL(token: token).absoluteString)
        while true {
            guard readLine(strippingNewline: true) != nil else {
                throw .runtime("stdin ended before Last.fm was asked for the session: run mhz scrobble login lastfm again")
            }
            let session: (name: String, key: String)
            do throws(ScrobbleFailure) {
                session = try endpoint.session(try await transport.send(endpoint.getSession(token: token)))
            } catch .credentials(_, let message) where message.hasPrefix("error 14") {
                print("Last.fm has not seen your approval yet: allow mhz on the page, then press Enter.")
                continue
            } catch {
                throw .runtime("Last.fm gave no session: \(ScrobbleText.describe(error)) — run mhz scrobble login lastfm again")
            }
            try Self.save("lastfm_session_key", session.key, in: file)
            print("Last.fm: scrobbling as \(session.name) from the next mhz (session saved in \(file.path)).")
            return
        }
    }

    /// Writes `key` into `[scrobble]` of the configuration file, mode 0600.
    static func save(_ key: String, _ value: String, in file: URL) throws(CLIError) {
        let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        let edited = ConfigFileEdit.setting(key, to: value, in: "scrobble", of: text)
        do throws(PrivateFile.Failure) {
            try PrivateFile.write(Data(edited.utf8), to: file)
        } catch {
            throw .runtime("\(error.words) — the \(key) was not saved")
        }
    }
}

/// `mhz scrobble status`: which services are configured, and how many scrobbles wait.
struct ScrobbleStatusCommand: AsyncParsableCommand {
    /// The subcommand's name and help.
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Say which scrobbling services are set up and how many scrobbles wait.")

    /// `--data-dir`, `--config`.
    @OptionGroup var global: GlobalOptions

    /// Prints one line per service.
    func run() async throws {
        do {
            try status()
        } catch {
            throw error.exit()
        }
    }

    private func status() throws(CLIError) {
        let (paths, config) = try RadioRuntime.settings(options: global)
        var counts: [ScrobbleService: Int] = [:]
        if FileManager.default.fileExists(atPath: paths.database.path) {
            do {
                counts = try ScrobbleDatabase(database: try MhzDatabase(path: paths.database)).counts()
            } catch {
                throw .runtime("cannot read the scrobbles waiting: \(StoreText.words(error)) — check the data directory")
            }
        }
        for line in Self.lines(config.scrobble, counts: counts) { print(line) }
    }

    /// One line per service: set up or not (and what is missing), and what waits.
    static func lines(_ settings: ScrobbleSettings, counts: [ScrobbleService: Int]) -> [String] {
        func waiting(_ service: ScrobbleService) -> String {
            let count = counts[service] ?? 0
            return "\(count) scrobble\(count == 1 ? "" : "s") waiting"
        }
        let brainz = settings.listenBrainz != nil
            ? "ListenBrainz: on (\(settings.listenBrainzURL.absoluteString)), \(waiting(.listenBrainz))"
            : "ListenBrainz: off (no listenbrainz_token: run mhz scrobble login listenbrainz), \(waiting(.listenBrainz))"
        let fm: String
        if settings.lastFM != nil {
            fm = "Last.fm: on (\(settings.lastFMURL.absoluteString)), \(waiting(.lastFM))"
        } else if settings.lastFMKey?.isEmpty == false, settings.lastFMSecret?.isEmpty == false {
            fm = "Last.fm: off (not logged in: run mhz scrobble login lastfm), \(waiting(.lastFM))"
        } else {
            fm = "Last.fm: off (no lastfm_api_key and lastfm_api_secret), \(waiting(.lastFM))"
        }
        return [brainz, fm]
    }
}

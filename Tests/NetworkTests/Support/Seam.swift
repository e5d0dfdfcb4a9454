import Backoff
import Foundation
import HTTP
import Logging
import RadioAPI
import Settings
import TestSupport
@testable import StationLink
@testable import mhz

/// The composition root's network seam, assembled in process against a
/// ``DoubanTestServer``: a private data directory, the runtime (without the embedded
/// station or the process-wide log bootstrap), and a log that tests can read.
final class Seam: Sendable {
    let server: DoubanTestServer
    let data: TemporaryDirectory
    let log = LogCapture()
    /// Where the runtime's requests go when not to ``server`` (e.g. a proxy in front of a
    /// real `mhz serve`).
    let base: URL?

    /// Retries stay on but quick, so a bad-answer test does not wait for real backoff.
    static let quickRetry = RetryPolicy(maxRetries: 2, backoff: Backoff(initial: 0.05, cap: 1))

    init(server: DoubanTestServer? = nil, base: URL? = nil) async throws {
        if let server { self.server = server } else { self.server = try await DoubanTestServer() }
        self.base = base
        data = try TemporaryDirectory(prefix: "mhz-seam")
    }

    /// A runtime for `family` on the test server, as `RadioRuntime.make` would build it.
    /// The timeout is generous: the machine may be busy building, and a request that
    /// times out is retried, which would change what the server records.
    func runtime(_ family: APIFamily, config: Config = Config(), timeout: Double = 30) throws -> RadioRuntime {
        let options = try GlobalOptions.parse(["--data-dir", data.url.path, "--config", data.path("config.toml").path])
        var http = RadioRuntime.httpConfiguration(config)
        http.totalTimeout = timeout
        http.connectTimeout = timeout
        http.retry = Self.quickRetry
        let jar = family == .web ? try CookieJar(storage: CookieFile(url: SessionStore(directory: data.url).cookieFile)) : nil
        let url = base ?? server.baseURL
        return RadioRuntime(paths: Paths(options: options), config: config, family: family, baseURL: url,
                            sessionKey: RadioRuntime.sessionKey(server: url), station: nil,
                            http: HTTPClient(configuration: http, cookieJar: jar))
    }

    /// Logs in through the same code `mhz login` runs, with scripted answers.
    @discardableResult
    func logIn(_ family: APIFamily, prompter: ScriptedPrompter = ScriptedPrompter()) async throws -> StoredSession {
        try await LoginCommand.logIn(runtime: try runtime(family), prompter: prompter, logger: log.logger)
    }

    /// The station client of a fresh runtime (as a new start of mhz would make it).
    func client(_ family: APIFamily) throws -> StationClient {
        try runtime(family).stationClient(logger: log.logger)
    }

    /// Every file under the data directory whose bytes contain `needle`.
    func files(containing needle: String) throws -> [String] {
        let bytes = Data(needle.utf8)
        let walker = FileManager.default.enumerator(at: data.url, includingPropertiesForKeys: [.isRegularFileKey])
        var hits: [String] = []
        while let url = walker?.nextObject() as? URL {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true,
                  let contents = FileManager.default.contents(atPath: url.path)
            else { continue }
            if contents.range(of: bytes) != nil { hits.append(url.lastPathComponent) }
        }
        return hits
    }

    /// The permission bits of a file in the data directory.
    func mode(_ name: String) throws -> Int? {
        try FileManager.default.attributesOfItem(atPath: data.path(name).path)[.posixPermissions] as? Int
    }

    /// Whether a file exists in the data directory.
    func exists(_ name: String) -> Bool { FileManager.default.fileExists(atPath: data.path(name).path) }
}

/// Answers a login's questions from memory and remembers the captcha it was shown.
struct ScriptedPrompter: LoginPrompter {
    var accountName = DoubanTestServer.Account.email
    var passwordText = DoubanTestServer.Account.password
    var captchaText = DoubanTestServer.Account.captchaSolution
    let shownImage = Locked<(path: String, bytes: Data)?>(nil)

    func account() async throws(CLIError) -> String { accountName }
    func password() async throws(CLIError) -> String { passwordText }
    func captcha(image: URL) async throws(CLIError) -> String {
        shownImage.withLock { $0 = (image.path, FileManager.default.contents(atPath: image.path) ?? Data()) }
        return captchaText
    }
}

/// Collects log lines at every level, to check what reaches a log.
final class LogCapture: Sendable {
    private let lines = Locked<[String]>([])

    /// A logger writing here.
    var logger: Logger { Logger(label: "mhz.test") { _ in Handler(capture: self) } }

    /// Everything logged, one line each.
    var text: String { lines.value.joined(separator: "\n") }

    func append(_ line: String) { lines.withLock { $0.append(line) } }

    struct Handler: LogHandler {
        let capture: LogCapture
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let extra = (event.metadata ?? [:]).map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            capture.append("\(event.level) \(event.message) \(extra)")
        }
    }
}

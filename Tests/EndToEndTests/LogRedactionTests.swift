import Foundation
import Logging
@testable import Station
import TestSupport
import Testing

/// No log holds a secret, at any level: a full session of each family through the built
/// `mhz` with `MHZ_LOG_LEVEL=trace` (login with the password on stdin, the web family's
/// captcha, headless play with skips, logout) against a station that logs at trace level;
/// then both logs are searched for the password, the tokens, the cookie values (`dbcl2`,
/// `ck`, `bid`) and the captcha answer.
@Suite(.serialized)
struct LogRedactionTests {
    private static let password = "Pa55-word-Secret9"

    @Test func aFullSessionOfEachFamilyLeavesNoSecretInEitherLog() async throws {
        let stationData = try TemporaryDirectory(prefix: "mhz-e2e-redaction-station")
        let stationLog = Locked<[String]>([])
        let requests = Locked<[StationRequest]>([])
        var logger = Logger(label: "mhz.station") { _ in CapturingHandler(lines: stationLog) }
        logger.logLevel = .trace
        // The demo library as a first start leaves it: this test is not about that start.
        try await DemoSeed.copy(to: stationData.path("demo-library"))
        let station = try await Station(configuration: StationConfiguration(
            library: nil, dataDirectory: stationData.url, seed: 7,
            onRequest: { request in requests.withLock { $0.append(request) } }, logger: logger, rescanInterval: nil))
        let url = try await station.start().absoluteString
        try await Station.addUser(name: "carol", password: Self.password, email: "carol@example.com", cost: 4,
                                  dataDirectory: stationData.url)
        let data = try TemporaryDirectory(prefix: "mhz-e2e-redaction-client")
        let environment = ["XDG_CONFIG_HOME": data.url.path, "MHZ_LOG_LEVEL": "trace"]
        var secrets: [String: String] = ["password": Self.password]
        try await withCleanup {
            // The app family: password on stdin, play, logout.
            let appLogin = try BuiltMhz(["login", "--server", url, "--username", "carol", "--password-stdin",
                                                      "--data-dir", data.url.path], environment: environment)
            appLogin.send(Self.password)
            #expect(try await appLogin.exit() == 0, "\(appLogin.stderr)")
            try await Self.play(["--server", url, "--data-dir", data.url.path], environment: environment)
            secrets["app token"] = try #require(requests.withLock { $0 }
                .last { $0.path == "/j/app/radio/people" }?.parameter("token"), "no logged-in playlist request")
            let appLogout = try BuiltMhz(["logout", "--server", url, "--data-dir", data.url.path],
                                           environment: environment)
            #expect(try await appLogout.exit() == 0, "\(appLogout.stderr)")

            // The web family: the captcha read from the station as a person reads the image.
            let webLogin = try BuiltMhz(["login", "--server", url, "--api", "web", "--username",
                                                      "carol@example.com", "--password-stdin", "--data-dir", data.url.path],
                                          environment: environment)
            webLogin.send(Self.password)
            func fetchedCaptcha() -> String? { requests.withLock { $0 }.last { $0.path == "/misc/captcha" }?.parameter("id") }
            try await waitUntil("mhz fetching the captcha image") { fetchedCaptcha() != nil }
            let captchaID = try #require(fetchedCaptcha())
            let solution = try #require(station.captchaStore.answer(for: captchaID))
            secrets["captcha answer"] = solution
            secrets["captcha answer as typed"] = solution.lowercased()
            webLogin.send(solution.lowercased())
            #expect(try await webLogin.exit() == 0, "\(webLogin.stderr)")
            let cookies = try Self.cookies(in: data.url.appendingPathComponent("cookies.txt"))
            let dbcl2 = try #require(cookies["dbcl2"]).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            secrets["dbcl2"] = dbcl2
            let webToken = dbcl2.split(separator: ":").last.map(String.init) ?? ""
            #expect(!webToken.isEmpty, "dbcl2 \(dbcl2) ends in the web token")
            secrets["web token"] = webToken
            secrets["ck"] = try #require(cookies["ck"]).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            secrets["bid"] = try #require(cookies["bid"]).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            try await Self.play(["--server", url, "--api", "web", "--data-dir", data.url.path], environment: environment)
            let webLogout = try BuiltMhz(["logout", "--server", url, "--api", "web", "--data-dir", data.url.path],
                                           environment: environment)
            #expect(try await webLogout.exit() == 0, "\(webLogout.stderr)")
            #expect(requests.withLock { $0 }.contains { $0.path == "/partner/logout" })
        } cleanup: {
            await station.stop()
        }

        let clientLog = try String(contentsOf: data.url.appendingPathComponent("mhz.log"), encoding: .utf8)
        let serverLog = stationLog.withLock { $0 }.joined(separator: "\n")
        // Both logs saw the whole session: the search below is not over empty files.
        #expect(clientLog.contains("/j/app/login") && clientLog.contains("/j/login") && clientLog.contains("/partner/logout"))
        #expect(serverLog.contains("/j/app/radio/people") && serverLog.contains("/partner/logout"))
        for (name, secret) in secrets {
            #expect(!Self.holds(clientLog, secret), "mhz.log holds the \(name)")
            #expect(!Self.holds(serverLog, secret), "the station's log holds the \(name)")
        }
    }

    /// Headless play: three songs (two skips), then quit.
    private static func play(_ arguments: [String], environment: [String: String]) async throws {
        let radio = try BuiltMhz(["--headless", "--audio-output", "null", "--channel", "0"] + arguments,
                                   environment: environment)
        var (index, _) = try await radio.waitFor("playing")
        for _ in 0..<2 {
            radio.send("skip")
            (index, _) = try await radio.waitFor("playing", after: index + 1)
        }
        radio.send("quit")
        #expect(try await radio.exit() == 0, "\(radio.stderr)")
    }

    /// The cookies of a libcurl cookie file (Netscape format: seven fields a tab apart,
    /// HttpOnly ones behind `#HttpOnly_`), by name.
    private static func cookies(in file: URL) throws -> [String: String] {
        var cookies: [String: String] = [:]
        for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            if fields.count == 7 { cookies[String(fields[5])] = String(fields[6]) }
        }
        return cookies
    }

    /// Whether `text` holds `secret` as a word of its own (not inside a longer run of
    /// letters and digits): `ck` is four characters, which a long log could hold by chance
    /// inside a hash or an id.
    private static func holds(_ text: String, _ secret: String) -> Bool {
        var searched = text[...]
        while let range = searched.range(of: secret) {
            let before = range.lowerBound == text.startIndex ? nil : text[text.index(before: range.lowerBound)]
            let after = range.upperBound == text.endIndex ? nil : text[range.upperBound]
            let isPart = { (character: Character?) in character.map { $0.isLetter || $0.isNumber } ?? false }
            if !isPart(before) && !isPart(after) { return true }
            searched = text[range.upperBound...]
        }
        return false
    }

    /// Keeps every line the station logs, its metadata included.
    private struct CapturingHandler: LogHandler {
        let lines: Locked<[String]>
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let all = metadata.merging(event.metadata ?? [:]) { $1 }
            let extra = all.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            lines.withLock { $0.append("\(event.level) \(event.message) \(extra)") }
        }
    }
}

import BenchKit
import Foundation
import TasteBench

/// A release `mhz serve` run by the benchmark: a data directory (emptied first unless it
/// is a restart), accounts added with `--add-user NAME --password-stdin`, the library
/// given, the seed given (the hidden `--seed`), a free port on 127.0.0.1. Its standard
/// error goes to `serve.log` in the data directory (appended to by a restart); the URL is
/// read from its `mhz: serving … on URL` line. The station logs at `info`, so that the
/// sound analysis's opening and closing lines can be read and waited for.
///
/// Spawned with Foundation's `Process`, as the tests spawn it; the benchmark holds no
/// listening socket, and its client sockets are close-on-exec (``LoopbackSocket``), so
/// the station inherits nothing of ours.
final class BenchStation {
    /// Every account's password.
    static let password = "taste bench 25"

    private let process: Process
    /// The port it serves on.
    let port: Int
    /// Its standard error.
    let log: URL
    /// Where `log` stood when this process started (a restart appends to the same file).
    private let logStart: Int
    /// When it was started.
    let started: ContinuousClock.Instant
    /// Seconds from the start until the library was scanned and served.
    let scanSeconds: Double
    /// Seconds from the start until its sound analysis had finished, once waited for.
    private(set) var analysisSeconds: Double?

    /// Starts a station over `library` in `data` with `users` as accounts and `config` as its
    /// `config.toml` (none when empty); `fresh` empties `data` first. Waits at most
    /// `scanLimit` for it to serve.
    init(mhz: String, library: String, data: URL, seed: UInt64, users: [String], config: String = "", fresh: Bool = true,
         scanLimit: Duration = .seconds(180)) throws {
        if fresh { try? FileManager.default.removeItem(at: data) }
        let home = data.appendingPathComponent("home", isDirectory: true)
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        if !config.isEmpty {
            let folder = home.appendingPathComponent(".config/mhz", isDirectory: true)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try config.write(to: folder.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
        }
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.lowercased().hasSuffix("_proxy") }
        environment["HOME"] = home.path
        environment["XDG_CONFIG_HOME"] = home.appendingPathComponent(".config").path
        environment["XDG_DATA_HOME"] = home.appendingPathComponent(".local/share").path
        environment["MHZ_LOG_LEVEL"] = "info"
        let station = ["--data-dir", data.appendingPathComponent("mhz").path]
        for user in users {
            let add = Process()
            add.executableURL = URL(fileURLWithPath: mhz)
            add.arguments = ["serve", "--add-user", user, "--password-stdin"] + station
            add.environment = environment
            let input = Pipe()
            add.standardInput = input
            add.standardError = FileHandle.nullDevice
            try add.run()
            input.fileHandleForWriting.write(Data((Self.password + "\n").utf8))
            try input.fileHandleForWriting.close()
            add.waitUntilExit()
            guard add.terminationStatus == 0 else { throw BenchError.tool("mhz serve --add-user \(user) failed") }
        }
        log = data.appendingPathComponent("serve.log")
        if !FileManager.default.fileExists(atPath: log.path) { _ = FileManager.default.createFile(atPath: log.path, contents: nil) }
        logStart = ((try? FileManager.default.attributesOfItem(atPath: log.path))?[.size] as? Int) ?? 0
        let output = try FileHandle(forWritingTo: log)
        output.seekToEndOfFile()
        process = Process()
        process.executableURL = URL(fileURLWithPath: mhz)
        process.arguments = ["serve", "--port", "0", "--library", library, "--seed", String(seed)] + station
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = output
        started = ContinuousClock.now
        try process.run()
        let deadline = started + scanLimit
        var found: Int?
        while found == nil {
            let text = Self.text(of: log, from: logStart)
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("mhz: serving ") }),
               let range = line.range(of: " on "), let url = URL(string: String(line[range.upperBound...])) {
                found = url.port
            } else if !process.isRunning || ContinuousClock.now > deadline {
                if process.isRunning { process.terminate() }
                throw BenchError.tool("mhz serve did not start: \(text.suffix(400))")
            } else {
                usleep(20_000)
            }
        }
        port = found!
        scanSeconds = seconds(ContinuousClock.now - started)
    }

    /// What this process has logged so far.
    var logText: String { Self.text(of: log, from: logStart) }

    /// The process id.
    var pid: Int32 { process.processIdentifier }

    private static func text(of log: URL, from offset: Int) -> String {
        guard let data = try? Data(contentsOf: log) else { return "" }
        return String(decoding: data.dropFirst(offset), as: UTF8.self)
    }

    /// Waits for the analysis's closing line (`sound analysis: measured …`), its line for a
    /// library measured before (`… tracks measured before`), or word that it cannot run here.
    func waitForSoundAnalysis(limit: Duration = .seconds(1_800)) throws {
        let deadline = started + limit
        while true {
            let text = logText
            if text.contains("sound analysis: measured ") || text.contains("tracks measured before") {
                analysisSeconds = seconds(ContinuousClock.now - started)
                return
            }
            if text.contains("sound analysis: not possible") { return }
            guard process.isRunning else { throw BenchError.tool("mhz serve stopped: \(text.suffix(400))") }
            guard ContinuousClock.now < deadline else {
                throw BenchError.tool("mhz serve's sound analysis did not finish in \(limit)")
            }
            usleep(100_000)
        }
    }

    /// Logs `user` in through `/j/app/login` (§5.1); the app API as that listener, with
    /// `variety=` on every request when given.
    func login(_ user: String, variety: Double?) throws -> TasteHTTPStation {
        let client = LoadClient(port: port)
        let form = "app_name=radio_android&version=100&username=\(TasteHTTPStation.encode(user))"
            + "&password=\(TasteHTTPStation.encode(Self.password))"
        let body: [UInt8]
        do { body = try client.post("/j/app/login", form: form) } catch { throw TasteError.station("login: \(error)") }
        let login = try PeopleAnswer.login(body)
        return TasteHTTPStation(client: client, userID: login.userID, token: login.token, expire: login.expire,
                                variety: variety)
    }

    /// `kill -9`, as a power cut or the OOM killer would; waits for it to be gone.
    func killNine() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// SIGTERM (the station saves what it learned and exits), SIGKILL after 20 s.
    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        let deadline = ContinuousClock.now + .seconds(20)
        while process.isRunning, ContinuousClock.now < deadline { usleep(10_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    deinit { stop() }
}

/// The app API as one logged-in listener, over one keep-alive connection: the simulated
/// client's reports as mhz sends them (docs/PROTOCOL.md §3.1: `app_name`, `version`, the
/// credentials, `channel`, `type`, `sid`, `pt`, `h`, then `format=original`), on the
/// personal channel `0`, plus `variety=` when the dial is set.
final class TasteHTTPStation: TasteStation {
    private let client: LoadClient
    private let identity: String
    private let extensions: String

    init(client: LoadClient, userID: String, token: String, expire: String, variety: Double?) {
        self.client = client
        identity = "app_name=radio_android&version=100&user_id=\(Self.encode(userID))&expire=\(Self.encode(expire))"
            + "&token=\(Self.encode(token))"
        extensions = "&format=original" + (variety.map { "&variety=\(TasteReport.number($0))" } ?? "")
    }

    func people(_ report: ClientReport) throws(TasteError) -> [ServedSong] {
        var query = identity + "&channel=0&type=\(report.type)&sid=\(Self.encode(report.sid))"
        if let played = report.playedTime { query += String(format: "&pt=%.1f", max(0, played)) }
        if let history = report.history { query += "&h=" + Self.encode(history) }
        let body: [UInt8]
        do { body = try client.get("/j/app/radio/people?" + query + extensions) } catch {
            throw .station("\(report.type) \(report.sid): \(error)")
        }
        return try PeopleAnswer.songs(body)
    }

    /// A query value: everything but letters, digits and `-._~` percent-encoded.
    static func encode(_ value: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
    }
}

import ArgumentParser
import Settings
import Foundation
import Logging
import Station

/// `mhz serve`: run the station on its own, for any Douban-FM client of either family and
/// for browsers (its web player at `/`); or, with `--add-user NAME`, create an account in
/// its database and exit.
struct ServeCommand: AsyncParsableCommand {
    /// The subcommand's name and help line.
    static let configuration = CommandConfiguration(
        commandName: "serve", abstract: "Serve a music folder as a Douban-FM-compatible station.")

    /// `--server`, `--api`, `--data-dir`, `--config`: accepted by every subcommand; the
    /// station keeps its database under the data directory.
    @OptionGroup var global: GlobalOptions

    /// `--library DIR`: the music folder; `~` is expanded.
    @Option(help: "Music folder (default ~/Music, else a demo library).")
    var library: String?

    /// `--host`: the address to bind, loopback unless told otherwise.
    @Option(help: "Address to bind. Anything but 127.0.0.1 exposes the station to your network.")
    var host = "127.0.0.1"

    /// `--port`: the port to bind; 0 lets the kernel choose (the URL is printed).
    @Option(help: "Port to bind (0: any free port).")
    var port = 7650

    /// `--tls-cert FILE`: the certificate chain (PEM) to serve HTTPS with; needs `--tls-key`.
    @Option(name: .customLong("tls-cert"), help: ArgumentHelp("Serve HTTPS with this certificate chain (PEM); needs --tls-key.",
                                                             valueName: "file"))
    var tlsCert: String?

    /// `--tls-key FILE`: the private key (PEM, unencrypted) of `--tls-cert`.
    @Option(name: .customLong("tls-key"), help: ArgumentHelp("The certificate's private key (PEM); needs --tls-cert.",
                                                            valueName: "file"))
    var tlsKey: String?

    /// `--add-user NAME`: create this account instead of serving.
    @Option(name: .customLong("add-user"), help: "Create an account with this name (asks for its password) and exit.")
    var addUser: String?

    /// `--password-stdin`: read the new account's password as one line of stdin instead
    /// of asking twice at the terminal.
    @Flag(name: .customLong("password-stdin"), help: "With --add-user: read the password from standard input.")
    var passwordStdin = false

    /// `--seed N`: seeds the recommender's draws, so the same reports give the same lists
    /// (`mhz-bench taste`: a benchmark run is reproduced by its seed). Hidden: a listener's
    /// station should not be predictable.
    @Option(name: .customLong("seed"), help: .hidden)
    var seed: UInt64?

    /// Refuses `--password-stdin` without `--add-user`, and one of `--tls-cert`/`--tls-key`
    /// without the other (usage errors, exit 2).
    func validate() throws {
        if passwordStdin, addUser == nil { throw ValidationError("--password-stdin needs --add-user NAME") }
        if (tlsCert == nil) != (tlsKey == nil) { throw ValidationError("--tls-cert and --tls-key go together: give both or neither") }
    }

    /// The line printed (and so logged: `serve` logs to stderr) on every start that serves
    /// plain HTTP beyond loopback.
    static func clearTextWarning(host: String) -> String {
        "mhz: warning: serving plain HTTP on \(host): passwords and tokens cross the network in clear;"
            + " give --tls-cert/--tls-key to serve HTTPS\n"
    }

    /// Adds the user and exits, or serves until SIGINT or SIGTERM, then stops the station
    /// (which saves what it learned) and exits 0; on SIGHUP the station stops the same way
    /// but keeps its listening socket and the command runs itself again in its place
    /// (``SocketHandover``). Failures are one line on stderr, exit 1.
    func run() async throws {
        let paths = Paths(options: global)
        if let addUser {
            try await add(user: addUser, paths: paths)
            return
        }
        SocketHandover.noteStartingDescriptors()
        LoggingSystem.bootstrap { StreamLogHandler.standardError(label: $0) }
        // The station's log is stderr too, at info unless MHZ_LOG_LEVEL says otherwise: a
        // server left running for months says how far its long work has come (a first scan,
        // the sound analysis: a line at most every 10 s while it runs, one when it ends) and
        // which files it cannot read; `debug` shows each request, its secrets redacted.
        var logger = Logger(label: "mhz.station")
        logger.logLevel = ProcessInfo.processInfo.environment["MHZ_LOG_LEVEL"].flatMap { Logger.Level(rawValue: $0) }
            ?? .info
        // FFmpeg writes its warnings to stderr itself; here they join the station's log
        // (no libmpv in this process, whose own FFmpeg log callback this would replace).
        Station.routeFFmpegLog(to: logger)
        // `HOME` first, as Paths reads it: Foundation's NSHomeDirectory() ignores it for root.
        let home = URL(fileURLWithPath: ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory())
        let folder = URL(fileURLWithPath: Paths.expand(library ?? Config.defaultLibrary, home: home), isDirectory: true)
        let tls = tlsCert.flatMap { cert in
            tlsKey.map { key in
                StationTLS(certificate: URL(fileURLWithPath: Paths.expand(cert, home: home)),
                           key: URL(fileURLWithPath: Paths.expand(key, home: home)))
            }
        }
        // `[live]` is the file's one table for the station; the rest is the player's.
        let settings = try Config.load(from: paths.configFile, explicit: paths.configExplicit)
        // Each connection is a descriptor: as many as the system allows (OpenFileLimit).
        OpenFileLimit.raiseToHard()
        // A socket handed over (a `.socket` unit, or this command's own restart) is served
        // as it is; --host and --port bind one otherwise.
        var handedOver = SocketHandover.inherited()
        while true {
            // The trap first: a stop asked while the library is scanned waits for the
            // station to be up, then stops it.
            let stopped = AsyncStream<Int32>.makeStream()
            let trap = SignalTrap(signals: [SIGINT, SIGTERM, SIGHUP]) { stopped.continuation.yield($0) }
            let station = try await start(library: folder, tls: tls, settings: settings, paths: paths, logger: logger,
                                          socket: handedOver)
            var signal = SIGTERM
            for await received in stopped.stream {
                signal = received
                break
            }
            guard signal == SIGHUP else {
                await station.stop()
                withExtendedLifetime(trap) {}
                return
            }
            // A restart: what the station keeps is written before the new self reads it,
            // and the socket stays open in between, so nobody connecting is refused.
            guard let socket = await station.stopKeepingSocket() else { return }
            withExtendedLifetime(trap) {}
            let reason = SocketHandover.reexecute(keeping: socket)
            FileHandle.standardError.write(Data("mhz: cannot restart (\(reason)): serving on as before\n".utf8))
            handedOver = socket
        }
    }

    /// Creates the station and starts it on `socket` (or binding --host and --port), then
    /// says so on stderr (with the clear-text and demo-library warnings); a failure is one
    /// line and exit 1.
    private func start(library folder: URL, tls: StationTLS?, settings: Config, paths: Paths, logger: Logger,
                       socket: Int32?) async throws -> Station {
        let station: Station
        let url: URL
        do {
            // The certificate and key are read and checked first, before the library is
            // scanned or anything binds.
            // Only the default folder falls back to the demo library; one the user named
            // must hold songs.
            var configuration = StationConfiguration(
                library: folder, fallsBackToDemo: library == nil, dataDirectory: paths.stationDirectory,
                host: host, port: port, tls: tls, seed: seed, logger: logger)
            configuration.listeningDescriptor = socket
            configuration.afterSoundAnalysis = HeapTrim.release
            configuration.live = settings.live.stationConfiguration
            configuration.leveling = settings.station.leveling
            configuration.statusForEveryone = settings.station.metrics
            station = try await Station(configuration: configuration)
            url = try await station.start()
        } catch {
            throw CLIError.runtime(StationErrorText.describe(error)).exit()
        }
        // Before the "serving" line, so whoever waits for that line has seen the warning.
        let bound = station.handedOverHost ?? host
        if tls == nil, !LoopbackHost.contains(bound) {
            FileHandle.standardError.write(Data(Self.clearTextWarning(host: bound).utf8))
        }
        let info = station.libraryInfo
        if let empty = info.passedOver {
            FileHandle.standardError.write(Data(LibraryText.fellBack(from: empty, extensions: Station.songExtensions,
                                                                     serving: true).utf8))
        }
        FileHandle.standardError.write(Data("mhz: serving \(info.trackCount) songs from \(info.path.path) on \(url.absoluteString)\n".utf8))
        return station
    }

    /// Reads the password (stdin, or twice at the terminal without echo) and stores the account.
    private func add(user name: String, paths: Paths) async throws {
        let password: String
        if passwordStdin {
            guard let line = PasswordPrompt.standardInputLine() else {
                throw CLIError.runtime("no password on standard input: pipe one line to --password-stdin").exit()
            }
            password = line
        } else {
            guard isatty(STDIN_FILENO) == 1 else {
                throw CLIError.runtime("no terminal to ask for the password: use --password-stdin").exit()
            }
            let first = PasswordPrompt.read("Password for \(name): ")
            let second = PasswordPrompt.read("Again: ")
            guard let first, first == second else {
                throw CLIError.runtime("the passwords differ: run --add-user again").exit()
            }
            password = first
        }
        do {
            let id = try await Station.addUser(name: name, password: password, dataDirectory: paths.stationDirectory)
            FileHandle.standardError.write(Data("mhz: added user \(name) (user_id \(id))\n".utf8))
        } catch {
            throw CLIError.runtime(StationErrorText.describe(error)).exit()
        }
    }
}

/// Reads a line from the terminal with echo turned off, for passwords.
enum PasswordPrompt {
    /// Prints `prompt` on stderr and reads one line from stdin without echoing it.
    static func read(_ prompt: String) -> String? {
        FileHandle.standardError.write(Data(prompt.utf8))
        var saved = termios()
        let isTerminal = tcgetattr(STDIN_FILENO, &saved) == 0
        if isTerminal {
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet)
        }
        defer {
            if isTerminal { tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved) }
            FileHandle.standardError.write(Data("\n".utf8))
        }
        return readLine(strippingNewline: true)
    }

    /// `--password-stdin`'s password, for `mhz login` and `mhz serve --add-user` alike: the
    /// next line of stdin without its newline, nor a `\r` before it (a file edited on
    /// Windows), so an account made from a file takes a login from the same file. nil at
    /// the end of input. Read through stdio, as `mhz login`'s captcha answer after it is.
    static func standardInputLine() -> String? {
        guard let line = readLine(strippingNewline: true) else { return nil }
        return line.hasSuffix("\r") ? String(line.dropLast()) : line
    }
}

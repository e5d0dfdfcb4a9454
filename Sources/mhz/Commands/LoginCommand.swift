import ArgumentParser
import Foundation
import HTTP
import Logging
import RadioAPI
import StationLink

/// `mhz login [--username NAME] [--password-stdin]`: log in to the server and keep the
/// session (tokens or cookies, never the password) for every later start.
struct LoginCommand: AsyncParsableCommand {
    /// The subcommand's name and help.
    static let configuration = CommandConfiguration(
        commandName: "login", abstract: "Log in to the station and keep the session for later starts.",
        discussion: """
            The app API (--api app) takes an e-mail address or a user name and a password. The web API \
            (--api web) also shows a captcha: drawn in the terminal with chafa when it is installed, else \
            saved to a file whose path is printed. The session is stored in the data directory with mode \
            0600; the password is not.
            """)

    /// `--server`, `--api`, `--data-dir`, `--config`.
    @OptionGroup var global: GlobalOptions

    /// The account; asked for on the terminal when omitted.
    @Option(help: "E-mail address or user name (asked for when omitted).")
    var username: String?

    /// Take the password (and, without a terminal, the captcha) from stdin.
    @Flag(name: .customLong("password-stdin"),
          help: "Read the password from the first line of stdin (for scripts); without a terminal, a captcha's answer is the next line.")
    var passwordStdin = false

    /// For a login to the embedded station.
    @Option(help: "Music folder for the embedded station.")
    var library: String?

    /// Logs in, or prints one line and exits 1.
    func run() async throws {
        do {
            try await login()
        } catch {
            throw error.exit()
        }
    }

    private func login() async throws(CLIError) {
        let runtime = try await RadioRuntime.make(options: global, library: library)
        let prompter = TerminalPrompter(username: username, passwordFromStdin: passwordStdin, note: { line in
            FileHandle.standardError.write(Data("mhz: \(line)\n".utf8))
        })
        let session: StoredSession
        do {
            session = try await Self.logIn(runtime: runtime, prompter: prompter)
        } catch {
            await runtime.shutdown()
            throw error
        }
        await runtime.shutdown()
        print("Logged in to \(runtime.sessionKey) as \(session.userName.isEmpty ? session.userID : session.userName).")
    }

    /// Logs in with what `prompter` supplies and stores the session.
    ///
    /// - Returns: the stored session.
    /// - Throws: ``CLIError/runtime(_:)`` with the line to print.
    static func logIn(runtime: RadioRuntime, prompter: any LoginPrompter,
                      logger: Logger = Logger(label: "mhz.login")) async throws(CLIError) -> StoredSession {
        let account = try await prompter.account()
        let password = try await prompter.password()
        let flow = LoginFlow(runtime: runtime, logger: logger)
        let session: StoredSession
        do {
            var captcha: (id: String, solution: String)?
            if flow.needsCaptcha {
                let challenge = try await flow.captcha()
                let image = runtime.paths.dataDirectory.appendingPathComponent("captcha.jpg")
                do throws(PrivateFile.Failure) {
                    try PrivateFile.write(challenge.image, to: image)
                } catch {
                    throw LoginFailure.storage(error.words)
                }
                defer { try? FileManager.default.removeItem(at: image) }
                captcha = (challenge.id, try await prompter.captcha(image: image))
            }
            session = try await flow.logIn(account: account, password: password, captcha: captcha)
        } catch let failure as LoginFailure {
            throw .runtime(LoginText.describe(failure, account: account, server: flow.serverName))
        } catch let error as CLIError {
            throw error
        } catch {
            throw .runtime("login failed: \(error)")
        }
        try CLIError.wording(try runtime.sessions.save(session))
        flow.logSuccess(session)
        return session
    }
}

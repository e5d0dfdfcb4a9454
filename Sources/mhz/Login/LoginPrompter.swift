import Foundation

/// Where a login gets what only the listener knows. The command line asks on the terminal
/// (``TerminalPrompter``); tests answer from memory; a terminal-UI dialog can answer too.
protocol LoginPrompter: Sendable {
    /// The e-mail address or user name.
    func account() async throws(CLIError) -> String
    /// The password. Never stored, never logged.
    func password() async throws(CLIError) -> String
    /// What the captcha image (already saved at `image`) says.
    func captcha(image: URL) async throws(CLIError) -> String
}

/// Asks on the terminal: the account with echo, the password hidden, the captcha after
/// drawing it with `chafa` when that is installed (else its file is named). With
/// `--password-stdin` the password is the first line of stdin, and without a terminal the
/// captcha's answer is the next line, so scripts can log in.
struct TerminalPrompter: LoginPrompter {
    /// `--username`, if given.
    let username: String?
    /// `--password-stdin`.
    let passwordFromStdin: Bool
    /// Where the prompt's side notes go (the captcha's path).
    let note: @Sendable (String) -> Void

    /// `--username`, else asked with echo on the terminal.
    func account() async throws(CLIError) -> String {
        if let username, !username.trimmingCharacters(in: .whitespaces).isEmpty { return username }
        let answer = await onThread { TerminalInput.open()?.ask("E-mail or user name: ") }
        guard let answer else { throw .runtime("no terminal to ask for the account on: give --username") }
        let account = answer.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !account.isEmpty else { throw .runtime("no account given: give --username, or type it when asked") }
        return account
    }

    /// The first line of stdin with `--password-stdin`, else asked hidden on the terminal.
    func password() async throws(CLIError) -> String {
        if passwordFromStdin {
            let line = await onThread { PasswordPrompt.standardInputLine() }
            guard let password = line, !password.isEmpty else {
                throw .runtime("--password-stdin: stdin held no password (give it as the first line)")
            }
            return password
        }
        let answer = await onThread { () -> String?? in
            guard let terminal = TerminalInput.open() else { return .none }
            return .some(terminal.askHidden("Password: "))
        }
        guard let typed = answer else { throw .runtime("no terminal to ask for the password on: use --password-stdin") }
        guard let password = typed, !password.isEmpty else { throw .runtime("login cancelled: no password given") }
        return password
    }

    /// Draws or names the image, then asks on the terminal (or reads stdin's next line).
    func captcha(image: URL) async throws(CLIError) -> String {
        let note = self.note
        let answer = await onThread { () -> String? in
            guard let terminal = TerminalInput.open() else {
                note("captcha image saved to \(image.path): open it and give its letters as the next line of stdin")
                return readLine(strippingNewline: true)
            }
            if !CaptchaViewer.draw(image, on: terminal) {
                note("captcha image saved to \(image.path): open it to read the letters")
            }
            return terminal.ask("Captcha (the letters in the image): ")
        }
        guard let solution = answer?.trimmingCharacters(in: .whitespacesAndNewlines), !solution.isEmpty else {
            throw .runtime("login cancelled: no captcha answer given")
        }
        return solution
    }
}

/// Draws an image in the terminal with `chafa` (symbols, sixels or kitty graphics,
/// whatever the terminal supports), when it is on PATH.
enum CaptchaViewer {
    /// chafa's path, if installed.
    static func chafa(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/chafa" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The arguments: a captcha is about 5:1, so 60×12 cells keep its letters legible.
    static func arguments(for image: URL) -> [String] { ["--size", "60x12", image.path] }

    /// Draws `image` on `terminal`; false when chafa is missing or failed.
    static func draw(_ image: URL, on terminal: TerminalInput) -> Bool {
        guard let chafa = chafa() else { return false }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: chafa)
        process.arguments = arguments(for: image)
        process.standardOutput = terminal.fileHandle
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}

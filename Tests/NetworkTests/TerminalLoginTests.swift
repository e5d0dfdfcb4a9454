import Foundation
import TestSupport
import Testing

/// `mhz login` on a real terminal (tmux): the password is never echoed, the captcha is
/// drawn with chafa when it is on PATH (else its file is named), the answer is asked for,
/// and the terminal is left as it was found (echo and canonical mode back on).
@Suite(.serialized)
struct TerminalLoginTests {
    typealias Account = DoubanTestServer.Account

    /// The driver, handed to a thread for its blocking tmux round trips.
    final class Pane: @unchecked Sendable {
        let tmux: TmuxDriver
        init(_ tmux: TmuxDriver) { self.tmux = tmux }

        /// The screen as one string, read off the cooperative pool (tmux trims trailing
        /// spaces, so prompts are matched without theirs).
        func screen() async throws -> String {
            try await offPool { try self.tmux.capture().joined(separator: "\n") }
        }

        /// Waits until the screen shows `text`; fails with the screen it saw last.
        @discardableResult
        func wait(for text: String, seconds: Double = 20) async throws -> String {
            let deadline = ContinuousClock.now + .seconds(seconds)
            var last = ""
            while ContinuousClock.now < deadline {
                last = try await screen()
                if last.contains(text) { return last }
                try await Task.sleep(for: .milliseconds(50))
            }
            throw TestSupportError.timeout("\"\(text)\" never showed; the screen:\n\(last)")
        }

        /// Types `text`, then Enter.
        func type(_ text: String) async throws {
            try await offPool { try self.tmux.send(text); try self.tmux.send("Enter") }
        }
    }

    /// Runs `mhz login --api web` in tmux; `path` is the PATH it gets.
    func start(server: DoubanTestServer, home: TemporaryDirectory, path: String) throws -> Pane {
        let binary = BuiltProduct.path("mhz")
        let command = "cd '\(home.url.path)' && env -i PATH='\(path)' HOME='\(home.url.path)' "
            + "XDG_CONFIG_HOME='\(home.url.path)/config' LANG=C.UTF-8 TERM=xterm-256color '\(binary)' login "
            + "--server \(server.baseURL.absoluteString) --api web --username \(Account.name) "
            + "--data-dir '\(home.path("data").path)'; echo \"exit=$?\" > status.tmp; stty -a > stty.tmp; "
            + "mv stty.tmp stty; mv status.tmp status; sleep 30"
        return Pane(try TmuxDriver(command: command, columns: 220, rows: 30))
    }

    func finished(_ home: TemporaryDirectory) async throws -> (status: String, stty: String) {
        // The shell writes `stty` before `status`, each by a rename: once `status` is there, both are whole.
        try await waitUntil("mhz login finished", within: .seconds(20)) {
            FileManager.default.fileExists(atPath: home.path("status").path)
        }
        let status = try String(contentsOf: home.path("status"), encoding: .utf8)
        let stty = try String(contentsOf: home.path("stty"), encoding: .utf8)
        return (status.trimmingCharacters(in: .whitespacesAndNewlines), stty)
    }

    @Test
    func thePasswordIsHiddenAndChafaDrawsTheCaptcha() async throws {
        let server = try await DoubanTestServer()
        defer { server.stop() }
        let home = try TemporaryDirectory(prefix: "mhz-tty-login")
        // A stand-in chafa that says how it was called, on the terminal it was given.
        let bin = home.path("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try "#!/bin/sh\necho \"CHAFA $*\"\n".write(to: bin.appendingPathComponent("chafa"), atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: bin.appendingPathComponent("chafa").path)
        let pane = try start(server: server, home: home, path: "\(bin.path):/usr/bin:/bin")
        defer { withExtendedLifetime(pane) {} }

        try await pane.wait(for: "Password:")
        try await pane.type(Account.password)
        let screen = try await pane.wait(for: "Captcha (the letters in the image):")
        #expect(screen.contains("CHAFA --size 60x12 \(home.path("data").path)/captcha.jpg"), "\(screen)")
        #expect(!screen.contains("captcha image saved"), "chafa drew it, so no file is named")
        try await pane.type(Account.captchaSolution)
        let after = try await pane.wait(for: "Logged in to \(server.baseURL.absoluteString) as \(Account.name).")
        let (status, stty) = try await finished(home)
        #expect(status == "exit=0")
        #expect(!after.contains("horse"), "the password was echoed: \(after)")
        let flags = stty.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == ";" }).map(String.init)
        #expect(flags.contains("echo") && flags.contains("icanon") && flags.contains("isig"), "\(stty)")
        #expect(server.calls(to: "/j/login").first?.field("form_password") == Account.password)
    }

    @Test
    func withoutChafaTheCaptchasFileIsNamed() async throws {
        let server = try await DoubanTestServer()
        defer { server.stop() }
        let home = try TemporaryDirectory(prefix: "mhz-tty-login")
        // A PATH of its own rather than /usr/bin:/bin, where chafa may well be installed.
        // `mhz login` runs no tool but chafa, so the directory holds links to none; the
        // shell around it (env, stty, mv) keeps tmux's PATH.
        let bin = home.path("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: bin.path).isEmpty)
        let pane = try start(server: server, home: home, path: bin.path)
        defer { withExtendedLifetime(pane) {} }
        try await pane.wait(for: "Password:")
        try await pane.type(Account.password)
        try await pane.wait(for: "mhz: captcha image saved to \(home.path("data").path)/captcha.jpg: open it to read the letters")
        try await pane.type("wrong")
        let (status, _) = try await finished(home)
        #expect(status == "exit=1")
        try await pane.wait(for: "refused the login: the captcha was wrong (验证码不正确, error 1011): run `mhz login` again")
    }
}

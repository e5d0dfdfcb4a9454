import Foundation
import TestSupport
import Testing

/// `mhz login` on a real terminal (tmux): the password is never echoed, the captcha is
/// drawn with chafa when it is on PATH (else its file is named), the answer is asked for,
/// and the terminal is left as it was found (echo and canonical mode back on).
@Suite(.serialized)
struct TerminalLoginTests {
    typealias Account = DoubanTestServer.Account

    /// The terminal, handed to a thread for its blocking tmux round trips.
    final class Pane: @unchecked Sendable {
        let terminal: TerminalMhz
        init(_ terminal: TerminalMhz) { self.terminal = terminal }

        /// The screen as one string, read off the cooperative pool (tmux trims trailing
        /// spaces, so prompts are matched without theirs).
        func screen() async throws -> String {
            try await offPool { try self.terminal.capture().joined(separator: "\n") }
        }

        /// Waits until the screen shows `text`; fails with the screen it saw last.
        @discardableResult
        func wait(for text: String, within limit: Duration = .seconds(20)) async throws -> String {
            var last = ""
            do {
                return try await waitForValue("\"\(text)\" on the screen", within: limit, every: .milliseconds(50)) {
                    last = try await screen()
                    return last.contains(text) ? last : nil
                }
            } catch TestSupportError.timeout {
                throw TestSupportError.timeout("\"\(text)\" never showed; the screen:\n\(last)")
            }
        }

        /// Types `text`, then Enter.
        func type(_ text: String) async throws {
            try await offPool { try self.terminal.send(text); try self.terminal.send("Enter") }
        }
    }

    /// Runs `mhz login --api web` in a terminal; `path` is the PATH it gets.
    func start(server: DoubanTestServer, home: TemporaryDirectory, path: String) throws -> Pane {
        Pane(try TerminalMhz(["login", "--server", server.baseURL.absoluteString, "--api", "web", "--username", Account.name,
                              "--data-dir", home.path("data").path], home: home.url, path: path, columns: 220, rows: 30))
    }

    @Test
    func thePasswordIsHiddenAndChafaDrawsTheCaptcha() async throws {
        let server = try await DoubanTestServer()
        defer { server.stop() }
        let home = try TemporaryDirectory(prefix: "mhz-tty-login")
        // A stand-in chafa that says how it was called, on the terminal it was given.
        let bin = home.path("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try ChildLaunch.writeExecutable("#!/bin/sh\necho \"CHAFA $*\"\n", to: bin.appendingPathComponent("chafa"))
        let pane = try start(server: server, home: home, path: "\(bin.path):/usr/bin:/bin")

        try await pane.wait(for: "Password:")
        try await pane.type(Account.password)
        let screen = try await pane.wait(for: "Captcha (the letters in the image):")
        #expect(screen.contains("CHAFA --size 60x12 \(home.path("data").path)/captcha.jpg"), "\(screen)")
        #expect(!screen.contains("captcha image saved"), "chafa drew it, so no file is named")
        try await pane.type(Account.captchaSolution)
        let after = try await pane.wait(for: "Logged in to \(server.baseURL.absoluteString) as \(Account.name).")
        #expect(try await pane.terminal.exitStatus(within: .seconds(20)) == 0)
        let stty = try pane.terminal.modesAfterExit()
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
        try await pane.wait(for: "Password:")
        try await pane.type(Account.password)
        try await pane.wait(for: "mhz: captcha image saved to \(home.path("data").path)/captcha.jpg: open it to read the letters")
        try await pane.type("wrong")
        #expect(try await pane.terminal.exitStatus(within: .seconds(20)) == 1)
        try await pane.wait(for: "refused the login: the captcha was wrong (验证码不正确, error 1011): run `mhz login` again")
    }
}

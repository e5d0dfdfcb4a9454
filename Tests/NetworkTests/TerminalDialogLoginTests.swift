import Foundation
import TestSupport
import Testing

/// The login dialog in the real `mhz` terminal UI (tmux) against the recording server:
/// the red-heart channel tells an anonymous listener it needs a login and which key logs
/// in, the dialog takes the answers with the password shown only as bullets, the server
/// gets the exact login form once, the status line says who is logged in, and the very next
/// playlist request carries the new session, so the red-heart channel plays.
@Suite(.serialized)
struct TerminalDialogLoginTests {
    typealias Account = DoubanTestServer.Account

    /// The terminal, remembering every screen it was seen showing.
    final class Pane: @unchecked Sendable {
        let terminal: TerminalMhz
        private let seen = Locked<[[String]]>([])
        init(_ terminal: TerminalMhz) { self.terminal = terminal }

        /// Every screen captured so far.
        var screens: [[String]] { seen.value }

        /// The screen now, recorded.
        func screen() async throws -> [String] {
            let rows = try await offPool { try self.terminal.capture() }
            seen.withLock { $0.append(rows) }
            return rows
        }

        /// Waits until a row contains `text`; fails with the last screen.
        @discardableResult
        func wait(for text: String, within limit: Duration = .seconds(30)) async throws -> [String] {
            var last: [String] = []
            do {
                return try await waitForValue("\"\(text)\" on the screen", within: limit, every: .milliseconds(40)) {
                    last = try await screen()
                    return last.contains(where: { $0.contains(text) }) ? last : nil
                }
            } catch TestSupportError.timeout {
                throw TestSupportError.timeout("\"\(text)\" never showed; the screen:\n" + last.joined(separator: "\n"))
            }
        }

        /// Sends keys (tmux notation, or literal text) and records the screen they made: every
        /// key these tests press changes it (a character typed, the cursor moved to another
        /// field, the dialog opened, closed or answered, mhz gone).
        func send(_ keys: String) async throws {
            let before = try await screen()
            try await offPool { try self.terminal.send(keys) }
            var last = before
            do {
                _ = try await waitForValue("the screen after \(keys)", within: .seconds(30), every: .milliseconds(10)) {
                    last = try await screen()
                    return last != before ? true : nil
                }
            } catch TestSupportError.timeout {
                throw TestSupportError.timeout("“\(keys)” changed nothing on the screen:\n" + last.joined(separator: "\n"))
            }
        }
    }

    /// Runs `mhz` on the red-heart channel in an 80×24 terminal.
    static func start(_ server: DoubanTestServer, api: String, home: TemporaryDirectory, path: String,
                      channel: String = "-3") throws -> Pane {
        Pane(try TerminalMhz(["--server", server.baseURL.absoluteString, "--api", api, "--channel", channel,
                              "--audio-output", "null", "--data-dir", home.path("data").path], home: home.url, path: path))
    }

    /// No screen ever showed the password or a word of it; neither did the log.
    static func expectPasswordNeverShown(_ pane: Pane, home: TemporaryDirectory) {
        #expect(pane.screens.count > 10)
        for screen in pane.screens {
            for secret in [Account.password, "correct", "horse", "9!"] {
                #expect(!screen.contains { $0.contains(secret) }, "\(screen.joined(separator: "\n"))")
            }
        }
        let log = (try? String(contentsOf: home.path("data/mhz.log"), encoding: .utf8)) ?? ""
        #expect(!log.isEmpty && !log.contains("horse"))
    }

    @Test func appLoginFromTheDialogMakesTheRedHeartChannelPlay() async throws {
        let server = try await DoubanTestServer()
        defer { server.stop() }
        let home = try TemporaryDirectory(prefix: "mhz-dialog-app")
        let pane = try Self.start(server, api: "app", home: home, path: "/usr/bin:/bin")
        let url = server.baseURL.absoluteString

        let refused = try await pane.wait(for: "needs a login")
        #expect(refused[21] == "  The red-heart channel needs a login — press L to log in, or pick another")
        // "Next try at …" follows while a retry waits, not while it is in flight.
        #expect(refused[22].hasPrefix("  channel."))
        try await pane.send("L")
        try await pane.wait(for: " Log in to \(url)")
        try await pane.send("listener")
        try await pane.send("Tab")
        try await pane.send("correct ")
        var screen = try await pane.wait(for: "••••••••▏")
        #expect(Array(screen[0...3]) == [" Log in to \(url)", "", "  E-mail or name  listener",
                                         "  Password        ••••••••▏"])
        #expect(screen[23] == "  Enter log in  Tab next field  Esc cancel")
        try await pane.send("horse 9!")
        screen = try await pane.wait(for: "••••••••••••••••▏")
        #expect(screen[3] == "  Password        ••••••••••••••••▏")
        let callsBefore = server.calls.count
        try await pane.send("Enter")
        try await pane.wait(for: "Logged in to \(url) as listener.")
        try await pane.wait(for: "Logged One")

        let logins = server.calls(to: "/j/app/login")
        #expect(logins.count == 1)
        #expect(String(decoding: logins.first?.body ?? Data(), as: UTF8.self)
            == "app_name=radio_android&version=100&username=listener&password=correct%20horse%209%21")
        // A retry that was already on its way when Enter was pressed may still go out
        // anonymously; from the first request with the session on, every one carries it.
        let after = server.calls.dropFirst(callsBefore).filter { $0.path == "/j/app/radio/people" }
        let withSession = Array(after.drop { !($0.rawQuery.contains("token=")) })
        #expect(withSession.first?.rawQuery
            == "app_name=radio_android&version=100&user_id=\(Account.userID)&expire=\(Account.expire)&token=\(Account.token)&channel=-3&type=n&sid=&h=&format=original")
        #expect(withSession.allSatisfy { $0.rawQuery.contains("token=\(Account.token)") })
        #expect(after.count - withSession.count <= 1, "at most the one retry in flight went out anonymously")
        Self.expectPasswordNeverShown(pane, home: home)
        try await pane.send("q")
        #expect(try await pane.terminal.exitStatus() == 0, "\(pane.terminal.screen)")
    }

    @Test func anAddressHeldOffIsToldToWaitAndTheDialogStaysOpen() async throws {
        let server = try await DoubanTestServer()
        defer { server.stop() }
        server.script("/j/app/login", [.status(200, body: DialogLoginTests.appTooManyAttempts)])
        let home = try TemporaryDirectory(prefix: "mhz-dialog-held-off")
        let pane = try Self.start(server, api: "app", home: home, path: "/usr/bin:/bin")
        try await pane.wait(for: "needs a login")
        try await pane.send("L")
        try await pane.wait(for: " Log in to \(server.baseURL.absoluteString)")
        try await pane.send("listener")
        try await pane.send("Tab")
        try await pane.send(Account.password)
        try await pane.send("Enter")
        let screen = try await pane.wait(for: "Too many failed logins")
        // The words wrap below the fields; the dialog stays open for another try later.
        let words = screen.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            .drop { !$0.hasPrefix("Too many failed logins") }.prefix { !$0.hasPrefix("Enter log in") }
            .joined(separator: " ")
        #expect(words == "Too many failed logins from this address — the station refuses logins for now; "
            + "wait about 15 minutes, then try again.", "\(screen.joined(separator: "\n"))")
        #expect(screen[0] == " Log in to \(server.baseURL.absoluteString)")
        #expect(server.calls(to: "/j/app/login").count == 1)
        try await pane.send("Escape")
        try await pane.wait(for: "space toggle")
        try await pane.send("q")
        #expect(try await pane.terminal.exitStatus() == 0, "\(pane.terminal.screen)")
    }

    @Test func anExpiredSessionSaysWhichKeyLogsInAgain() async throws {
        let server = try await DoubanTestServer()
        defer { server.stop() }
        let home = try TemporaryDirectory(prefix: "mhz-dialog-expired")
        let login = try await BuiltMhz.run(["login", "--server", server.baseURL.absoluteString, "--api", "app",
                                          "--username", Account.name, "--password-stdin",
                                          "--data-dir", home.path("data").path],
                                         home: home.url, stdin: Account.password + "\n")
        #expect(login.status == 0, "\(login.stderr)")
        server.expireSessions()
        let pane = try Self.start(server, api: "app", home: home, path: "/usr/bin:/bin", channel: "0")
        let screen = try await pane.wait(for: "Login session expired")
        #expect(screen[22] == "  Login session expired — playing on anonymously; press L to log in again.")
        try await pane.wait(for: "Anonymous One")
        try await pane.send("L")
        try await pane.wait(for: " Log in to \(server.baseURL.absoluteString)")
        try await pane.send("Escape")
        try await pane.wait(for: "space toggle")
        try await pane.send("q")
        #expect(try await pane.terminal.exitStatus() == 0, "\(pane.terminal.screen)")
    }

    @Test func webLoginShowsTheCaptchaInlineAndTakesItsAnswer() async throws {
        let server = try await DoubanTestServer()
        defer { server.stop() }
        let home = try TemporaryDirectory(prefix: "mhz-dialog-web")
        // A stand-in chafa: two rows of "picture", how it was called, whether the image was there.
        let bin = home.path("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let script = "#!/bin/sh\nprintf '\\033[?25l'\necho '█▀▀ ▄▄█ ▀█▀'\necho \"$1 $2 $3 $4 $5 $6 $7 $8\"\n"
            + "test -s \"$9\" && echo 'image saved'\nprintf '\\033[?25h'\n"
        try ChildLaunch.writeExecutable(script, to: bin.appendingPathComponent("chafa"))
        let pane = try Self.start(server, api: "web", home: home, path: "\(bin.path):/usr/bin:/bin")
        let url = server.baseURL.absoluteString

        let refused = try await pane.wait(for: "needs a login")
        #expect(refused[21] == "  The red-heart channel needs a login — press L to log in, or pick another")
        // "Next try at …" follows while a retry waits, not while it is in flight.
        #expect(refused[22].hasPrefix("  channel."))
        try await pane.send("L")
        var screen = try await pane.wait(for: "image saved")
        #expect(Array(screen[0...8]) == [
            " Log in to \(url)", "",
            "  E-mail or name  ▏",
            "  Password",
            "",
            "  █▀▀ ▄▄█ ▀█▀",
            "  --format symbols --colors none --polite on --size 60x10",
            "  image saved",
            "  Captcha",
        ])
        try await pane.send("listener")
        try await pane.send("Tab")
        try await pane.send(Account.password)
        try await pane.send("Tab")
        try await pane.send("moon")
        screen = try await pane.wait(for: "moon▏")
        #expect(screen[3] == "  Password        ••••••••••••••••")
        let callsBefore = server.calls.count
        try await pane.send("Enter")
        try await pane.wait(for: "Logged in to \(url) as listener.")
        try await pane.wait(for: "Web Logged One")

        #expect(server.calls(to: "/j/login").map(\.formText) == [
            "source=radio&alias=listener&form_password=\(Account.password)&captcha_solution=moon&captcha_id=\(Account.captchaID)&remember=on&task=sync_channel_list",
        ])
        // As for the app family: at most a retry already on its way went out anonymously.
        let after = server.calls.dropFirst(callsBefore).filter { $0.path == "/j/v2/playlist" }
        let withSession = Array(after.drop { $0.cookies["dbcl2"] == nil })
        #expect(withSession.first?.cookies["dbcl2"] == "\"\(Account.sessionCookie)\"")
        #expect(withSession.first?.parameter("channel") == "-3")
        #expect(withSession.allSatisfy { $0.cookies["dbcl2"] == "\"\(Account.sessionCookie)\"" })
        #expect(after.count - withSession.count <= 1, "at most the one retry in flight went out anonymously")
        #expect(!FileManager.default.fileExists(atPath: home.path("data/captcha.jpg").path))
        Self.expectPasswordNeverShown(pane, home: home)
        try await pane.send("q")
        #expect(try await pane.terminal.exitStatus() == 0, "\(pane.terminal.screen)")
    }
}

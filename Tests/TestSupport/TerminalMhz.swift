import Foundation

/// The built `mhz` in a terminal: a detached tmux window (``TmuxDriver``) running it in a
/// clean environment, as a person's shell would, so the real ncurses loop meets real key
/// presses and is read back as text.
///
/// The one way the tests start mhz in a terminal. Its environment is only what is named
/// here (`env -i`): the test runner's own (`TMPDIR`, `XDG_RUNTIME_DIR`, proxies, a D-Bus
/// address) never reaches it, and `HOME` and `XDG_CONFIG_HOME` point into `home`, where it
/// also runs. When mhz ends, its exit status and the terminal's modes afterwards
/// (`stty -a`) are written into `home` by rename, so a file there is always whole; the
/// window then stays, holding mhz's last screen. The window's processes are killed when
/// the value goes (or at ``end()``).
public final class TerminalMhz {
    /// The window mhz runs in.
    public let tmux: TmuxDriver
    /// Its HOME and working folder.
    public let home: URL

    private var statusFile: URL { home.appendingPathComponent("status") }
    private var modesFile: URL { home.appendingPathComponent("stty") }

    /// Starts `program arguments…` (the built mhz by default) in a `columns` × `rows`
    /// window.
    ///
    /// - Parameters:
    ///   - environment: set beside PATH, HOME, XDG_CONFIG_HOME (`home/config`),
    ///     `LANG=C.UTF-8` and `TERM=xterm-256color`, which it may override.
    ///   - path: the PATH mhz gets (a test of a missing tool narrows it).
    public init(_ arguments: [String], home: URL, environment: [String: String] = [:],
                path: String = "/usr/bin:/bin", columns: Int = 80, rows: Int = 24,
                program: String = BuiltMhz.executable.path) throws {
        self.home = home
        var variables = ["PATH": path, "HOME": home.path, "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
                         "LANG": "C.UTF-8", "TERM": "xterm-256color"]
        variables.merge(environment) { $1 }
        let assignments = variables.sorted { $0.key < $1.key }.map { "\($0.key)=\(Self.quoted($0.value))" }
        let status = Self.quoted(home.appendingPathComponent("status").path)
        let modes = Self.quoted(home.appendingPathComponent("stty").path)
        let command = "cd \(Self.quoted(home.path)) && env -i \(assignments.joined(separator: " ")) "
            + ([program] + arguments).map(Self.quoted).joined(separator: " ")
            + "; echo $? > \(status).tmp; stty -a > \(modes).tmp; mv \(modes).tmp \(modes); "
            + "mv \(status).tmp \(status); exec sleep 600"
        tmux = try TmuxDriver(command: command, columns: columns, rows: rows)
    }

    deinit { end() }

    /// `text` as one word of `sh`: in single quotes, each of its own quotes closed,
    /// escaped and reopened.
    public static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }

    /// The visible screen, one string per row.
    public func capture() throws -> [String] { try tmux.capture() }

    /// The visible screen as one text, empty when tmux cannot be asked: for a failure's
    /// message.
    public var screen: String { ((try? tmux.capture()) ?? []).joined(separator: "\n") }

    /// Sends keys in tmux's notation (`"l"`, `"Down"`, `"Enter"`).
    public func send(_ keys: String...) throws {
        try tmux.send(keys)
    }

    /// Waits until some row of the screen contains `text`; throws, with the screen, when
    /// none has within `limit`.
    public func waitForScreen(containing text: String, within limit: Duration = .seconds(30)) async throws {
        try await waitUntil("“\(text)” on the screen", within: limit) {
            ((try? tmux.capture()) ?? []).contains { $0.contains(text) }
        }
    }

    /// mhz's exit status, once it has exited; throws, with the screen, when it has not
    /// within `limit`.
    public func exitStatus(within limit: Duration = .seconds(60)) async throws -> Int32 {
        let text = try await waitForValue("mhz to exit; screen:\n\(screen)", within: limit, every: .milliseconds(50)) {
            try? String(contentsOf: statusFile, encoding: .utf8)
        }
        guard let status = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw TestSupportError.timeout("an exit status, not “\(text)”")
        }
        return status
    }

    /// The terminal's modes (`stty -a`) after mhz exited; call after ``exitStatus(within:)``.
    public func modesAfterExit() throws -> String { try String(contentsOf: modesFile, encoding: .utf8) }

    /// Kills everything in the window (mhz, the shell, its wait) and the window itself;
    /// nothing once done.
    ///
    /// tmux starts each pane's shell as the leader of a new session, so its process group
    /// holds mhz too; closing the window alone only hangs it up (SIGHUP), which mhz may
    /// take a moment to act on.
    public func end() {
        if let pid = try? tmux.panePID(), (try? tmux.paneIsDead()) == false {
            kill(-pid, SIGKILL)
        }
        tmux.close()
    }
}

import Foundation

/// Drives a program inside a detached tmux session on a private server socket, so the
/// real ncurses loop can be tested with real key presses and read back as text.
public final class TmuxDriver {
    /// Where tmux lives, when installed.
    public static let executable = ["/usr/bin/tmux", "/usr/local/bin/tmux"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// The server's socket, in a folder of its own: tmux leaves a socket file behind when
    /// its server exits, and the folder goes with the driver.
    private let folder: TemporaryDirectory
    private var socket: String { folder.path("tmux").path }
    private let session = "tui"

    /// Starts `command` (passed to `sh -c` by tmux) in a `columns` × `rows` window.
    public init(command: String, columns: Int, rows: Int) throws {
        folder = try TemporaryDirectory(prefix: "mhz-tmux")
        try tmux(["new-session", "-d", "-s", session, "-x", "\(columns)", "-y", "\(rows)", command],
                 capturing: false)
        // Keep the pane after the program exits so its last screen and status can be read.
        try tmux(["set-option", "-t", session, "remain-on-exit", "on"])
    }

    private var closed = false

    deinit { close() }

    /// Closes the window and ends its tmux server; nothing once done. kill-session hangs
    /// up the pane (SIGHUP to the program in it).
    public func close() {
        guard !closed else { return }
        closed = true
        _ = try? tmux(["kill-session", "-t", session])
        _ = try? tmux(["kill-server"])
    }

    /// The visible screen, one string per row (tmux trims trailing spaces); with
    /// `escapes`, each row carries the SGR codes of its colours and attributes, and its
    /// trailing spaces, which may be coloured.
    public func capture(escapes: Bool = false) throws -> [String] {
        try tmux(["capture-pane", "-p"] + (escapes ? ["-e", "-N"] : []) + ["-t", session])
            .components(separatedBy: "\n")
    }

    /// Row `index` of the visible screen; throws (instead of trapping and taking the whole
    /// test process down) when the screen has fewer rows.
    public func row(_ index: Int) throws -> String {
        let rows = try capture()
        guard rows.indices.contains(index) else { throw TmuxError.noRow(index, rows: rows.count) }
        return rows[index]
    }

    /// Sends keys in tmux's notation (`"l"`, `"Down"`, `"Enter"`, `"Escape"`, `"Space"`).
    public func send(_ keys: String...) throws {
        try send(keys)
    }

    /// Sends keys in tmux's notation, as ``send(_:)-(String...)`` does.
    public func send(_ keys: [String]) throws {
        try tmux(["send-keys", "-t", session] + keys)
    }

    /// Resizes the window, which the program sees as SIGWINCH → KEY_RESIZE.
    public func resize(columns: Int, rows: Int) throws {
        try tmux(["resize-window", "-t", session, "-x", "\(columns)", "-y", "\(rows)"])
    }

    /// The pid of the program in the pane. Throws rather than answer 0 when tmux names none:
    /// `kill(0, …)` would signal the test runner's own process group.
    public func panePID() throws -> pid_t {
        let text = try tmux(["display-message", "-p", "-t", session, "#{pane_pid}"])
            .trimmingCharacters(in: .whitespacesAndNewlines)
        guard let pid = pid_t(text), pid > 1 else { throw TmuxError.noPanePID(text) }
        return pid
    }

    /// Whether the program in the pane has exited.
    public func paneIsDead() throws -> Bool {
        try tmux(["display-message", "-p", "-t", session, "#{pane_dead}"])
            .trimmingCharacters(in: .whitespacesAndNewlines) == "1"
    }

    /// Runs tmux on this driver's server and returns what it printed. Spawned with
    /// posix_spawn and reaped with waitpid: Foundation's `Process.waitUntilExit` never
    /// returned here once the tmux server had forked off the client.
    @discardableResult
    private func tmux(_ arguments: [String], capturing: Bool = true) throws -> String {
        let argv = ["tmux", "-u", "-S", socket, "-f", "/dev/null"] + arguments
        let environment = ProcessInfo.processInfo.environment.map { "\($0.key)=\($0.value)" }
        var cArguments = argv.map { strdup($0) } + [nil]
        var cEnvironment = environment.map { strdup($0) } + [nil]
        defer { (cArguments + cEnvironment).forEach { free($0) } }

        // Close-on-exec from the start: a child another test launched meanwhile would keep
        // a plain pipe's write end, and the read below would wait for that child's exit.
        guard let ends = ChildLaunch.closeOnExecPipe() else { throw TmuxError.spawn(errno) }
        let pipeFDs = [ends.read, ends.write]
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if capturing {
            posix_spawn_file_actions_adddup2(&actions, pipeFDs[1], 1)
        } else {
            // No pipe: the server forked by new-session would inherit it and keep it open.
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addclose(&actions, pipeFDs[0])
        posix_spawn_file_actions_addclose(&actions, pipeFDs[1])
        // Nothing else of the test process may reach tmux: its server lives for the whole
        // test and would keep every socket open at this moment alive — a station's
        // listener among them, which then went on accepting connections after the station
        // had stopped (NIO does not open sockets close-on-exec).
        Self.closeEverythingFrom(3, in: &actions)

        // The calling thread is a test-runner worker, which blocks most signals; without a
        // clean mask the tmux server, and every program in its panes, would inherit that and
        // never see SIGTERM or SIGWINCH.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))

        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, Self.executable ?? "/usr/bin/tmux", &actions, &attributes,
                                  &cArguments, &cEnvironment)
        Glibc.close(pipeFDs[1])
        defer { Glibc.close(pipeFDs[0]) }
        guard spawned == 0 else { throw TmuxError.spawn(spawned) }

        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while capturing {
            let count = read(pipeFDs[0], &buffer, buffer.count)
            if count <= 0 { break }
            output += buffer[0..<count]
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        // <sys/wait.h>: exited normally when the low 7 bits are 0; the status is bits 8–15.
        guard status & 0x7F == 0, (status >> 8) & 0xFF == 0 else {
            throw TmuxError.failed(arguments.joined(separator: " "), status: status)
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Adds glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34+; hidden from Swift's
    /// Glibc module behind _GNU_SOURCE, so looked up by name), or closes each descriptor
    /// open now where the symbol is missing.
    private static func closeEverythingFrom(_ lowest: Int32, in actions: inout posix_spawn_file_actions_t) {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") {
            _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, lowest)
            return
        }
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for fd in open.compactMap(Int32.init) where fd >= lowest {
            posix_spawn_file_actions_addclose(&actions, fd)
        }
    }
}

/// tmux could not be started, or did not do what it was asked.
public enum TmuxError: Error {
    /// posix_spawn or pipe failed with this errno.
    case spawn(Int32)
    /// tmux exited with a failure (its arguments and wait status): no such session, a
    /// server that died, a bad option.
    case failed(String, status: Int32)
    /// `#{pane_pid}` was not a process id (what tmux printed).
    case noPanePID(String)
    /// The screen had fewer rows than the one asked for (its row count).
    case noRow(Int, rows: Int)
}

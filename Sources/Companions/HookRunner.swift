import Dispatch
import Foundation
import Logging
import Synchronization

/// `[hooks] event = "/path/to/cmd"`: pianobar's event command, run safely. For each event
/// the command runs with the event's name as its one argument (`playing`, `liked`,
/// `download`, …) and the event's JSON line (the one headless stdout prints) on stdin.
///
/// Hooks run one at a time, in the order of the events, on a thread of their own: the radio
/// hands an event over and goes on, so a hook that fails, hangs or sleeps never delays a
/// skip. Each may run for `timeout`; then its process group gets SIGTERM and, a second
/// later, SIGKILL. At most ``maxQueued`` events wait; older ones are dropped (logged) when a
/// slow hook falls behind.
public final class HookRunner: Sendable {
    /// Events waiting behind a running hook before the oldest is dropped.
    static let maxQueued = 32

    private let command: String
    private let timeout: Duration
    private let logFile: URL?
    private let logger: Logger
    private let queue = Mutex<(events: [(name: String, json: String)], stopping: Bool)>(([], false))
    /// The process group of the hook running now, for ``stop()``.
    private let running = Mutex<pid_t?>(nil)
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    /// A runner of `command` (an executable's path), each run limited to `timeout`; the
    /// hook's stderr is appended to `logFile` (its stdout is discarded); what goes wrong is
    /// told to `logger`.
    public init(command: String, timeout: Duration, logFile: URL?, logger: Logger = Logger(label: "mhz.hooks")) {
        self.command = command
        self.timeout = timeout
        self.logFile = logFile
        self.logger = logger
        let thread = Thread { [self] in work() }
        thread.name = "mhz.hooks"
        thread.start()
    }

    /// Queues one run for event `name` with `json` on its stdin; returns at once.
    public func run(event name: String, json: String) {
        let dropped = queue.withLock { state -> String? in
            guard !state.stopping else { return nil }
            state.events.append((name, json))
            return state.events.count > Self.maxQueued ? state.events.removeFirst().name : nil
        }
        if let dropped { logger.warning("hook \(command) is behind: the \(dropped) event was dropped") }
        wake.signal()
    }

    /// Stops taking events; a hook still running gets `grace` to finish, then its process
    /// group is ended, so no hook outlives mhz by more than that.
    public func stop(grace: Duration = .seconds(2)) {
        queue.withLock { $0.stopping = true; $0.events.removeAll() }
        wake.signal()
        if finished.wait(timeout: .now() + .milliseconds(Int(grace.components.seconds * 1000))) == .timedOut {
            if let group = running.withLock({ $0 }) { kill(-group, SIGKILL) }
            finished.wait()
        }
    }

    private func work() {
        while true {
            wake.wait()
            let next = queue.withLock { state -> (name: String, json: String)?? in
                if state.stopping { return .some(nil) }
                return state.events.isEmpty ? nil : state.events.removeFirst()
            }
            switch next {
            case .some(nil): finished.signal(); return
            case .some(let event?): execute(event.name, event.json)
            case nil: continue
            }
        }
    }

    /// One run: spawned in a process group of its own with SIGINT/SIGTERM/SIGPIPE back at
    /// their defaults (mhz ignores them, and ignored signals survive exec), fed, waited for.
    private func execute(_ name: String, _ json: String) {
        // Both ends close on exec from their first moment (pipe2(2): "O_CLOEXEC: set the
        // close-on-exec flag on the two new file descriptors"). With pipe() and then fcntl, a
        // child another thread spawned in between kept the write end, and the hook's stdin
        // saw no end of file until that child exited.
        var pipeEnds: [Int32] = [0, 0]
        guard let pipe2 = Self.pipe2, pipe2(&pipeEnds, O_CLOEXEC) == 0 else {
            logger.error("hook \(command): cannot make a pipe (errno \(errno))")
            return
        }
        guard let pid = spawn(name: name, stdin: pipeEnds[0]) else {
            close(pipeEnds[0])
            close(pipeEnds[1])
            return
        }
        close(pipeEnds[0])
        running.withLock { $0 = pid }
        // A hook that does not read its stdin must not hold this thread: the pipe takes 64 kB
        // unread, far more than an event line, and a full pipe just cuts the line short.
        _ = fcntl(pipeEnds[1], F_SETFL, O_NONBLOCK)
        let bytes = Array((json + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(pipeEnds[1], $0.baseAddress, $0.count) }
        close(pipeEnds[1])
        let status = reap(pid)
        running.withLock { $0 = nil }
        switch status {
        case .exited(0): break
        case .exited(let code): logger.warning("hook \(command) \(name) exited with status \(code)")
        case .signaled(let signal): logger.warning("hook \(command) \(name) ended by signal \(signal)")
        case .timedOut: logger.warning("hook \(command) \(name) ran past \(timeout) and was stopped")
        }
    }

    private func spawn(name: String, stdin: Int32) -> pid_t? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, stdin, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        if let logFile {
            posix_spawn_file_actions_addopen(&actions, 2, logFile.path, O_WRONLY | O_APPEND | O_CREAT, 0o600)
        } else {
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        // Descriptors mhz holds without close-on-exec (sockets of libraries) stay with mhz.
        if let closeFrom = Self.addCloseFrom { _ = closeFrom(&actions, 3) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGPIPE, SIGXFSZ, SIGHUP] { sigaddset(&defaults, signal) }
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &mask)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        var environment = ProcessInfo.processInfo.environment
        environment["MHZ_EVENT"] = name
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup(command), strdup(name), nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        var result = posix_spawn(&pid, command, &actions, &attributes, argv, envp)
        // ETXTBSY ("Text file busy") lasts only while some process has the script open for
        // writing: an editor saving it, or a child another thread forked in the instant the
        // script was being written, which still holds that descriptor until its own exec. A
        // moment later the same spawn succeeds, so it is tried again for up to a second.
        var retries = 0
        while result == ETXTBSY, retries < Self.busyRetries {
            if retries == 0 { logger.debug("hook \(command) is open for writing (text file busy): trying again") }
            retries += 1
            usleep(50_000)
            result = posix_spawn(&pid, command, &actions, &attributes, argv, envp)
        }
        guard result == 0 else {
            logger.error("hook \(command) cannot run: \(String(cString: strerror(result))) — check [hooks] event in the config")
            return nil
        }
        return pid
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34): "closes all open file
    /// descriptors greater than or equal to fd" in the child. A GNU extension, hidden from
    /// Swift's Glibc module, so looked up by name.
    private static let addCloseFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
        else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }()

    /// How many times a spawn refused with ETXTBSY is tried again, 50 ms apart.
    static let busyRetries = 20

    /// glibc's `pipe2` (2.9), a GNU extension hidden from Swift's Glibc module like
    /// ``addCloseFrom``, so looked up by name.
    private static let pipe2: (@convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pipe2") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32).self)
    }()

    private enum Outcome { case exited(Int32), signaled(Int32), timedOut }

    /// Waits for `pid` until the time limit, then ends its group: SIGTERM, a second, SIGKILL.
    private func reap(_ pid: pid_t) -> Outcome {
        let deadline = ContinuousClock.now + timeout
        var status: Int32 = 0
        while ContinuousClock.now < deadline {
            let done = waitpid(pid, &status, WNOHANG)
            if done == pid { return Self.outcome(status) }
            if done < 0, errno != EINTR { return .exited(-1) }
            usleep(10_000)
        }
        kill(-pid, SIGTERM)
        var reaped = false
        for _ in 0..<100 {
            if waitpid(pid, &status, WNOHANG) == pid { reaped = true; break }
            usleep(10_000)
        }
        // The group, not only the hook: a shell's children go with it.
        kill(-pid, SIGKILL)
        if !reaped { while waitpid(pid, &status, 0) < 0, errno == EINTR {} }
        return .timedOut
    }

    private static func outcome(_ status: Int32) -> Outcome {
        // <sys/wait.h>: WIFEXITED is (status & 0x7f) == 0, WEXITSTATUS (status >> 8) & 0xff.
        let signal = status & 0x7F
        return signal == 0 ? .exited((status >> 8) & 0xFF) : .signaled(signal)
    }
}

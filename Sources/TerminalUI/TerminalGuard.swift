import CNcurses
import Glibc
import Synchronization

/// Gives the terminal back no matter how the process leaves curses mode: the normal quit
/// path, SIGINT/SIGTERM/SIGHUP, `exit()` from anywhere (an `atexit` hook), or a crash
/// (SIGSEGV, SIGILL — Swift's traps —, SIGBUS, SIGFPE, SIGABRT).
///
/// State is global because the terminal is: there is one tty and one ncurses.
enum TerminalGuard {
    /// True while ncurses owns the terminal; whoever flips it to false calls `endwin`,
    /// so restoring twice (quit path, then `atexit`) does nothing the second time.
    private static let cursesActive = Atomic<Bool>(false)
    /// The last termination signal received and not yet handled, or 0.
    private static let pendingSignal = Atomic<Int32>(0)
    private static let exitHookInstalled = Atomic<Bool>(false)

    /// The tty settings from before `initscr`, for the crash path, which may not call
    /// ncurses. Written once on the UI thread before any handler that reads it is
    /// installed; `tcsetattr` and `write` are async-signal-safe, `endwin` is not.
    nonisolated(unsafe) private static var originalTermios = termios()
    nonisolated(unsafe) private static var haveOriginalTermios = false
    /// Dispositions found before ours, indexed by signal number; fixed storage because
    /// the crash handler reads it and must not allocate or hash.
    nonisolated(unsafe) private static let previousActions = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)
    nonisolated(unsafe) private static let savedPrevious = UnsafeMutablePointer<Bool>.allocate(capacity: 65)

    private static let terminationSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP]
    private static let crashSignals: [Int32] = [SIGSEGV, SIGILL, SIGBUS, SIGFPE, SIGABRT, SIGTRAP]

    /// Called on the UI thread right before `initscr`: remembers the tty settings and
    /// installs the exit hook and signal handlers.
    static func willStartCurses() {
        savedPrevious.initialize(repeating: false, count: 65)
        haveOriginalTermios = tcgetattr(STDIN_FILENO, &originalTermios) == 0
        if !exitHookInstalled.exchange(true, ordering: .acquiringAndReleasing) {
            atexit { TerminalGuard.restore() }
        }
        _ = pendingSignal.exchange(0, ordering: .relaxed)
        for signal in terminationSignals {
            install(signal) { number in TerminalGuard.pendingSignal.store(number, ordering: .relaxed) }
        }
        for signal in crashSignals {
            install(signal) { number in TerminalGuard.crashed(number) }
        }
    }

    /// Called once curses is up, so that the restore paths know there is work to do.
    static func didStartCurses() {
        cursesActive.store(true, ordering: .releasing)
    }

    /// Leaves curses mode (`endwin`) if it is still active. Idempotent; safe to call from
    /// the quit path, `TerminalApp.stop()` and the `atexit` hook.
    static func restore() {
        guard cursesActive.exchange(false, ordering: .acquiringAndReleasing) else { return }
        endwin()
    }

    /// Puts back the signal dispositions that were there before `willStartCurses`.
    static func uninstallHandlers() {
        for signal in terminationSignals + crashSignals where savedPrevious[Int(signal)] {
            sigaction(signal, previousActions + Int(signal), nil)
            savedPrevious[Int(signal)] = false
        }
    }

    /// The termination signal that arrived since the last call, if any.
    static func takePendingSignal() -> Int32? {
        let signal = pendingSignal.exchange(0, ordering: .relaxed)
        return signal == 0 ? nil : signal
    }

    // MARK: - Handlers

    private static func install(_ signal: Int32, _ handler: @convention(c) (Int32) -> Void) {
        var action = sigaction()
        action.__sigaction_handler = .init(sa_handler: handler)
        sigemptyset(&action.sa_mask)
        // SA_RESTART: a signal must not make other threads' reads fail with EINTR.
        action.sa_flags = SA_RESTART
        var previous = sigaction()
        if sigaction(signal, &action, &previous) == 0, !savedPrevious[Int(signal)] {
            previousActions[Int(signal)] = previous
            savedPrevious[Int(signal)] = true
        }
    }

    /// Crash path: reset the tty with async-signal-safe calls only, then hand the signal
    /// to whoever handled it before (Swift's backtracer prints a readable trace onto a
    /// sane terminal) or to the default action.
    private static func crashed(_ signal: Int32) {
        if cursesActive.exchange(false, ordering: .acquiringAndReleasing) {
            if haveOriginalTermios { tcsetattr(STDIN_FILENO, TCSANOW, &originalTermios) }
            // Leave the alternate screen, show the cursor, reset attributes: the three
            // things endwin would have undone on any xterm-like terminal.
            let reset: StaticString = "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l\r\n"
            _ = write(STDOUT_FILENO, reset.utf8Start, reset.utf8CodeUnitCount)
        }
        if savedPrevious[Int(signal)] {
            sigaction(signal, previousActions + Int(signal), nil)
        } else {
            var fallback = sigaction()  // SIG_DFL
            sigaction(signal, &fallback, nil)
        }
        // A fault re-executes the faulting instruction on return and reaches the restored
        // handler with its real context; abort() and raise() need the signal sent again.
        if signal == SIGABRT || signal == SIGTRAP { raise(signal) }
    }
}

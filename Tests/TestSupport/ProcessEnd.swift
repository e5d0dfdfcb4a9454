import Foundation

extension Process {
    /// Ends the child for sure: SIGKILL, then blocks (at most ten seconds) until
    /// Foundation's monitor has reaped it, so no zombie is left (a zombie still answers
    /// `kill -0`); nothing once it has ended.
    ///
    /// SIGKILL, not SIGTERM: a child of the test process starts with the signal mask of
    /// the thread that spawned it, and on a test-runner thread SIGTERM is blocked
    /// (dbus-daemon's `SigBlk` in /proc/PID/status shows it), so a SIGTERM may never be
    /// delivered; `openssl s_server` ignores it anyway.
    public func killAndReap() {
        guard isRunning else { return }
        kill(processIdentifier, SIGKILL)
        _ = blockingEventually(within: .seconds(10), every: .milliseconds(2)) { !isRunning }
    }
}

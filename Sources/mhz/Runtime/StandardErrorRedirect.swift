import Foundation

/// Points the process's standard error (descriptor 2) at the log file while the terminal UI
/// owns the screen, and gives it back afterwards.
///
/// C libraries write there without asking: ALSA (inside libmpv) prints a dozen `ALSA lib …`
/// lines when no sound card answers, and ncurses cannot know, so they would land in the
/// middle of the now-playing screen. While redirected they go to the log among mhz's own
/// lines; once the UI has restored the terminal, a crash message reaches the user again.
final class StandardErrorRedirect: Sendable {
    private let saved: Int32

    /// Redirects descriptor 2 to `log` (appended, created mode 0600); nil when the file
    /// cannot be opened, and descriptor 2 is left as it is.
    init?(to log: URL) {
        let file = open(log.path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard file >= 0 else { return nil }
        defer { close(file) }
        // dup(2) keeps the terminal for restore(); close-on-exec so no child inherits it.
        let saved = fcntl(2, F_DUPFD_CLOEXEC, 3)
        guard saved >= 0 else { return nil }
        guard dup2(file, 2) == 2 else {
            close(saved)
            return nil
        }
        self.saved = saved
    }

    /// Gives descriptor 2 its terminal back.
    func restore() {
        _ = dup2(saved, 2)
        close(saved)
    }
}

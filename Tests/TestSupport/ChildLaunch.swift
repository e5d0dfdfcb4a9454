import Foundation

/// Starts the tests' child processes one at a time.
///
/// Foundation's `Process.run()` on Linux makes a socket pair whose far end the child holds
/// (it learns of the child's exit when that end closes), and closes in the child every
/// descriptor that was open when it listed them. A second `run()` on another thread that
/// listed the descriptors a moment earlier hands the first child's socket end, and its
/// pipes, to its own child too: the first child's exit then goes unseen, and its output
/// never ends, until that other child exits. An mhz that had exited sat as a zombie for
/// seconds, `isRunning` still true, beside an mpv started by another test at the same moment.
/// Pipes made here and launches run here hold one lock, so no such descriptor is made
/// between another launch's listing and its spawn: each is either in that list (and closed
/// in that child) or made after it.
public enum ChildLaunch {
    private static let lock = NSLock()

    /// A pipe for a child's standard input or output.
    public static func pipe() -> Pipe {
        lock.withLock { Pipe() }
    }

    /// A pipe (read end, write end) whose two descriptors close on exec from their first
    /// moment (glibc's `pipe2` with `O_CLOEXEC`, hidden from Swift's Glibc module, so looked
    /// up by name), for children spawned without Foundation: no launch on another thread can
    /// hand them to its child, lock or no lock. `nil` with errno set when it cannot be made.
    public static func closeOnExecPipe() -> (read: Int32, write: Int32)? {
        typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pipe2") else { return nil }
        var ends: [Int32] = [-1, -1]
        guard unsafeBitCast(symbol, to: Pipe2.self)(&ends, O_CLOEXEC) == 0 else { return nil }
        return (ends[0], ends[1])
    }

    /// Starts `process` (`Process.run()`), while no other launch of the tests is under way.
    public static func run(_ process: Process) throws {
        try lock.withLock { try process.run() }
    }

    /// Writes `text` to `url` as a program (mode 755) a test then runs (a hook, a stand-in
    /// for a tool). Written under the lock: a child that a launch started while the file
    /// was open for writing would keep it open, and running the program would then fail
    /// with "Text file busy" (ETXTBSY) for as long as that child lives.
    public static func writeExecutable(_ text: String, to url: URL) throws {
        try lock.withLock {
            try text.write(to: url, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
        }
    }
}

import Foundation

/// The controlling terminal (`/dev/tty`), for questions a login must ask even when stdin
/// and stdout are pipes — and a password must never be echoed.
///
/// Reading blocks, so callers run it off Swift's cooperative pool (``onThread(_:)``).
final class TerminalInput {
    private let fd: Int32

    private init(fd: Int32) { self.fd = fd }

    deinit { close(fd) }

    /// The terminal, or `nil` when the process has none (a script, a test, a service).
    static func open() -> TerminalInput? {
        let fd = Foundation.open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        return fd >= 0 ? TerminalInput(fd: fd) : nil
    }

    /// The descriptor, for a child process (chafa) to draw on.
    var fileHandle: FileHandle { FileHandle(fileDescriptor: fd, closeOnDealloc: false) }

    /// Writes text to the terminal.
    func write(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Foundation.write(fd, $0.baseAddress, $0.count) }
    }

    /// Asks a question and reads the answer with echo on; `nil` at end of input.
    func ask(_ prompt: String) -> String? {
        write(prompt)
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let n = read(fd, &byte, 1)
            if n < 0, errno == EINTR { continue }
            if n <= 0 { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            if byte == 0x0A { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
    }

    /// Asks for a secret: echo and signal keys off, so nothing shows and an interrupted
    /// prompt cannot leave the terminal without echo. Backspace and Ctrl-U edit;
    /// Ctrl-C and Ctrl-D on an empty line cancel (`nil`).
    func askHidden(_ prompt: String) -> String? {
        var saved = termios()
        guard tcgetattr(fd, &saved) == 0 else { return ask(prompt) }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG)
        // Non-canonical: one byte at a time, no timeout.
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        // Echo goes off before the prompt shows, as getpass(3) does: a key typed once the
        // prompt is visible (a password manager's, a paste) is then never echoed, and the
        // flush throws away only what was typed before the question. Prompt first, a
        // password typed at once was echoed on the screen and then flushed unread.
        _ = tcsetattr(fd, TCSAFLUSH, &raw)
        write(prompt)
        defer {
            _ = tcsetattr(fd, TCSAFLUSH, &saved)
            write("\n")
        }
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let n = read(fd, &byte, 1)
            if n < 0, errno == EINTR { continue }
            guard n == 1 else { return nil }
            switch byte {
            case 0x0A, 0x0D: return String(decoding: bytes, as: UTF8.self)
            case 0x03: return nil                                   // Ctrl-C
            case 0x04: if bytes.isEmpty { return nil }              // Ctrl-D
            case 0x7F, 0x08:                                        // erase one character
                while let last = bytes.popLast(), last & 0xC0 == 0x80 {}
            case 0x15: bytes.removeAll()                            // Ctrl-U
            default: bytes.append(byte)
            }
        }
    }
}

/// Runs blocking work (a terminal read, a child process) on a thread of its own, so it
/// does not hold one of the cooperative pool's few threads.
func onThread<Result: Sendable>(_ work: @escaping @Sendable () -> Result) async -> Result {
    await withCheckedContinuation { continuation in
        let thread = Thread { continuation.resume(returning: work()) }
        thread.name = "mhz.prompt"
        thread.start()
    }
}

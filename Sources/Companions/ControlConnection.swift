import Dispatch
import Foundation
import Synchronization

/// One client of the control socket: a thread reading its lines and a thread writing what
/// it is owed (answers, and events once it follows), so a client that sends nothing, sends
/// garbage or never reads blocks only its own two threads.
final class ControlConnection: Sendable {
    /// Lines waiting for a follower that does not read; past this it is disconnected rather
    /// than holding events in memory without end.
    static let maxPendingLines = 4096

    /// Where the connection's life is.
    private enum Phase {
        /// Answers only.
        case asking
        /// Answers and every event.
        case following
        /// Shut down; the threads are on their way out.
        case closed
    }

    private struct Outbox {
        var phase = Phase.asking
        var lines: [String] = []
        /// The client closed its side: once its answers are out, the connection ends
        /// (unless it follows events).
        var readEnded = false
        /// A line is being answered (the reader waits for the radio).
        var answering = false
        /// mhz is quitting: once nothing is being answered and all is sent, hang up.
        var draining = false
        /// The reader and the writer: the last of them to stop closes the descriptor.
        var threadsRunning = 2
    }

    private let fd: Int32
    private let outbox = Mutex(Outbox())
    private let wake = DispatchSemaphore(value: 0)
    private let answer: @Sendable (LineReader.Line) -> ControlReply
    private let finished: @Sendable () -> Void

    /// A connection on the accepted `fd`; `answer` turns each line into its reply (on the
    /// reader thread, which may wait for the radio), a line over
    /// ``LineReader/commandLineBytes`` included; `finished` runs once both threads are done
    /// and the descriptor is closed.
    init(fd: Int32, answer: @escaping @Sendable (LineReader.Line) -> ControlReply, finished: @escaping @Sendable () -> Void) {
        self.fd = fd
        self.answer = answer
        self.finished = finished
    }

    /// Starts the reader and writer threads.
    func start() {
        let reader = Thread { [self] in readLines(); threadDone() }
        reader.name = "mhz.control.read"
        reader.start()
        let writer = Thread { [self] in writeLines(); threadDone() }
        writer.name = "mhz.control.write"
        writer.start()
    }

    /// Queues an event line for a follower; others ignore it.
    func event(_ line: String) {
        let overflow = outbox.withLock { box -> Bool in
            guard box.phase == .following else { return false }
            box.lines.append(line)
            return box.lines.count > Self.maxPendingLines
        }
        if overflow { close() } else { wake.signal() }
    }

    /// Hangs up once the line being answered (a `quit`, say) has its answer sent.
    func drain() {
        outbox.withLock { $0.draining = true }
        wake.signal()
    }

    /// Hangs up: both threads leave (a blocked read returns 0, a blocked send fails).
    func close() {
        let first = outbox.withLock { box -> Bool in
            defer { box.phase = .closed }
            return box.phase != .closed
        }
        guard first else { return }
        shutdown(fd, Int32(SHUT_RDWR))
        wake.signal()
    }

    /// Answers each line in order, until the client shuts its side.
    private func readLines() {
        let reader = LineReader(fd: fd, timeout: nil, maxLineBytes: LineReader.commandLineBytes)
        while let line = reader.next() { handle(line) }
        // A client that wrote its commands and shut its side (`printf 'status\n' | socat …`)
        // still gets its answers: the writer ends the connection once they are out.
        outbox.withLock { $0.readEnded = true }
        wake.signal()
    }

    private func handle(_ line: LineReader.Line) {
        outbox.withLock { $0.answering = true }
        let reply = answer(line)
        outbox.withLock { box in
            box.answering = false
            guard box.phase != .closed, reply != .none else { return }
            box.lines.append(reply.line)
            if case .follow = reply { box.phase = .following }
        }
        wake.signal()
    }

    /// Sends queued lines until the connection closes or the client stops taking them.
    private func writeLines() {
        while true {
            wake.wait()
            let (lines, open, done) = outbox.withLock { box -> ([String], Bool, Bool) in
                defer { box.lines.removeAll() }
                let answered = box.readEnded && box.phase == .asking
                return (box.lines, box.phase != .closed, !box.answering && (answered || box.draining))
            }
            guard open else { return }
            guard lines.isEmpty || UnixSocket.send(fd, Array((lines.joined(separator: "\n") + "\n").utf8)) else {
                close()
                return
            }
            if done {
                close()
                return
            }
        }
    }

    private func threadDone() {
        let last = outbox.withLock { box -> Bool in
            box.threadsRunning -= 1
            return box.threadsRunning == 0
        }
        guard last else { return }
        Glibc.close(fd)
        finished()
    }
}

/// What a control client's line is answered with.
public enum ControlReply: Sendable, Equatable {
    /// Nothing (a blank line, as on headless stdin).
    case none
    /// One JSON line.
    case answer(String)
    /// One JSON line, after which every event follows.
    case follow(String)

    /// `{"ok":false,"error":…}`.
    public static func failure(_ message: String) -> ControlReply {
        .answer(EventJSON.serialize(["ok": .bool(false), "error": .string(message)]))
    }

    /// The reply's line, if any.
    var line: String {
        switch self {
        case .none: ""
        case .answer(let line), .follow(let line): line
        }
    }
}

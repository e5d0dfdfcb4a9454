import Foundation
import Logging
import Synchronization

/// The control socket of a playing mhz: `mhz ctl`, scripts and window-manager keys send it
/// the commands headless stdin takes, one per line, and get one JSON line back for each;
/// `follow` turns a connection into a stream of the same event lines headless stdout
/// prints. Several clients at once, each on threads of its own (``ControlConnection``).
public final class ControlServer: Sendable {
    /// Clients served at once; one more is told so and hung up on.
    static let maxClients = 16

    /// The socket's path.
    let path: String
    private let fd: Int32
    private let answerer = Mutex<(@Sendable (LineReader.Line) -> ControlReply)?>(nil)
    /// Made when used: the server is created before logging is bootstrapped, and a logger
    /// keeps the handler of the moment it was made.
    private var logger: Logger { Logger(label: "mhz.control") }
    private let clients = Mutex<(next: Int, open: [Int: ControlConnection], started: Bool, stopped: Bool)>((0, [:], false, false))

    /// Listens at `path` (see ``UnixSocket/listen(at:)``: a stale socket is replaced, a live
    /// one refused). Done first thing, so a second mhz on the same data directory stops
    /// before it starts a player; clients that connect before ``start(answer:)`` wait in
    /// the backlog.
    public init(path: String) throws(ControlError) {
        self.path = path
        fd = try UnixSocket.listen(at: path)
    }

    /// Accepts clients on a thread of its own until ``stop()``; `answer` replies to each
    /// line a client sends. Called again, it only puts `answer` in place of the one before
    /// (the session it asks changed: the radio went live, or back): followers stay connected.
    public func start(answer: @escaping @Sendable (LineReader.Line) -> ControlReply) {
        answerer.withLock { $0 = answer }
        let again = clients.withLock { state -> Bool in
            defer { state.started = true }
            return state.started
        }
        if again { return }
        let thread = Thread { [self] in acceptClients() }
        thread.name = "mhz.control"
        thread.start()
        logger.info("control socket at \(path)")
    }

    /// Hands an event line to every client that follows.
    public func broadcast(_ line: String) {
        for connection in clients.withLock({ Array($0.open.values) }) { connection.event(line) }
    }

    /// Stops accepting, hangs up on every client and removes the socket file, so the next
    /// mhz finds none.
    public func stop() {
        let (open, started, already) = clients.withLock { state -> ([ControlConnection], Bool, Bool) in
            defer { state.stopped = true }
            return (Array(state.open.values), state.started, state.stopped)
        }
        guard !already else { return }
        // shutdown(2) wakes the thread blocked in accept(2); it closes the descriptor.
        if started { shutdown(fd, Int32(SHUT_RDWR)) } else { close(fd) }
        // Answers on their way (the `quit` that ended mhz) are sent first, for a moment.
        open.forEach { $0.drain() }
        let deadline = ContinuousClock.now + .seconds(1)
        while clients.withLock({ !$0.open.isEmpty }), ContinuousClock.now < deadline { usleep(10_000) }
        clients.withLock { Array($0.open.values) }.forEach { $0.close() }
        unlink(path)
    }

    private func acceptClients() {
        while true {
            // accept4(2) is a GNU extension Swift's Glibc does not show: close-on-exec is set
            // right after (hooks are spawned with every descriptor above 2 closed anyway).
            let client = accept(fd, nil, nil)
            if client >= 0 { _ = fcntl(client, F_SETFD, FD_CLOEXEC) }
            if client < 0 {
                if clients.withLock({ $0.stopped }) { break }
                if errno == EINTR || errno == ECONNABORTED { continue }
                // Out of descriptors: wait for a client to leave rather than spin.
                logger.warning("control socket: accept failed (errno \(errno))")
                usleep(100_000)
                continue
            }
            admit(client)
        }
        close(fd)
    }

    private func admit(_ client: Int32) {
        guard let answer = answerer.withLock({ $0 }) else {
            close(client)
            return
        }
        let connection = clients.withLock { state -> ControlConnection? in
            guard !state.stopped, state.open.count < Self.maxClients else { return nil }
            state.next += 1
            let id = state.next
            let connection = ControlConnection(fd: client, answer: answer) { [weak self] in
                self?.clients.withLock { _ = $0.open.removeValue(forKey: id) }
            }
            state.open[id] = connection
            return connection
        }
        guard let connection else {
            _ = UnixSocket.send(client, Array((ControlReply.failure(
                "too many control clients (\(Self.maxClients)); try again").line + "\n").utf8))
            close(client)
            return
        }
        connection.start()
    }
}

import Foundation

/// A TCP proxy on an ephemeral 127.0.0.1 port in front of an HTTP server on 127.0.0.1 (the
/// fake station ``DoubanTestServer``, a media server such as ``FaultyMediaServer``), which
/// injects the network's faults between a real client and a real server: dropped and reset
/// connections, stalls, error bursts, truncated bodies, latency and trickling bodies
/// (``FaultMode``). The mode can be changed at any moment from any thread while the client
/// runs, and the proxy counts what it did (``counts``, ``records``) so a test can assert the
/// faults were really injected.
///
/// Each connection carries one request: the proxy sends `Connection: close` both ways, so
/// a client that keeps connections alive (libcurl, ffmpeg) opens a new one per request and
/// every request meets the mode of its moment. Blocking POSIX sockets, one plain thread per
/// connection (a stall then holds only its own thread), all close-on-exec since tests spawn
/// mhz. ``stop()`` closes every socket and waits for every thread it started.
public final class FaultProxy: Sendable {
    /// `http://127.0.0.1:<port>` of the proxy.
    public let baseURL: URL
    /// The proxy's port.
    public let port: Int
    /// The upstream's port on 127.0.0.1.
    public let upstreamPort: Int
    /// The listening socket; the accept thread closes it when it leaves.
    let listener: Int32
    /// Everything the threads share.
    let state = Locked(State())

    /// The mode, the counts and the sockets and threads in use.
    struct State {
        /// What the proxy does now.
        var mode: FaultMode = .passThrough
        /// Only requests whose path starts with this meet the mode; nil: every request.
        var scope: String?
        /// Requests of the current `answer` burst still to be answered.
        var burstLeft = 0
        /// The delays of the current `latency` mode.
        var latency = LatencySequence(milliseconds: 0, jitter: 0, seed: 0)
        /// What it did, counted.
        var counts = FaultCounts()
        /// What it did, in order.
        var records: [FaultRecord] = []
        /// Every socket a connection thread holds open, so stop() can wake it.
        var sockets: Set<Int32> = []
        /// Threads started and not yet finished (the accept thread included).
        var threads = 0
        /// stop() was called.
        var stopped = false
        /// The accept thread closed the listener (its number may be reused from then on).
        var listenerClosed = false
    }

    /// Starts a proxy in front of `upstream` (`http://127.0.0.1:<port>`), passing through.
    /// - Throws: `TestSupportError.serverDidNotStart` when no port can be bound or the URL
    ///   names no port.
    public init(upstream: URL) throws {
        guard let upstreamPort = upstream.port else { throw TestSupportError.serverDidNotStart }
        self.upstreamPort = upstreamPort
        (listener, port) = try LoopbackSocket.listen(backlog: 64)
        baseURL = URL(string: "http://127.0.0.1:\(port)")!
        start("fault-proxy-accept") { [self] in acceptLoop() }
    }

    deinit { stop() }

    /// The current mode.
    public var mode: FaultMode { state.value.mode }

    /// Changes the mode; connections held by a stall carry on under the new one. With
    /// `pathPrefix`, only requests whose path starts with it meet the mode (the others pass
    /// through), so a test can fault the playlist and not the channel list: the proxy then
    /// reads each request before it drops one.
    public func setMode(_ mode: FaultMode, onlyFor pathPrefix: String? = nil) {
        state.withLock { state in
            state.mode = mode
            state.scope = pathPrefix
            if case .answer(_, _, let count) = mode {
                state.burstLeft = count
                if count <= 0 { state.mode = .passThrough }
            }
            if case .latency(let milliseconds, let jitter, let seed) = mode {
                state.latency = LatencySequence(milliseconds: milliseconds, jitter: jitter, seed: seed)
            }
        }
    }

    /// What the proxy did so far.
    public var counts: FaultCounts { state.value.counts }

    /// Every drop, self-answered and forwarded request so far, in order.
    public var records: [FaultRecord] { state.value.records }

    /// Stops accepting, closes every socket (a held or relaying connection ends at once)
    /// and waits until every thread the proxy started has finished (5 s at most, then
    /// it stops waiting: a wedged thread must fail the test, not hang it).
    public func stop() {
        state.withLock { state in
            guard !state.stopped else { return }
            state.stopped = true
            // shutdown wakes the threads blocked in accept and recv; they close what they own.
            if !state.listenerClosed { shutdown(listener, Int32(SHUT_RDWR)) }
            for socket in state.sockets { shutdown(socket, Int32(SHUT_RDWR)) }
        }
        _ = blockingEventually(within: .seconds(5)) { state.value.threads == 0 }
    }

    /// Runs `body` on a thread of its own, counted until it returns.
    private func start(_ name: String, _ body: @escaping @Sendable () -> Void) {
        state.withLock { $0.threads += 1 }
        let thread = Thread { [state] in
            body()
            state.withLock { $0.threads -= 1 }
        }
        thread.name = name
        thread.start()
    }

    private func acceptLoop() {
        defer {
            state.withLock { state in
                state.listenerClosed = true
                close(listener)
            }
        }
        while true {
            let client = LoopbackSocket.accept(listener)
            guard client >= 0, track(client) else { return }
            state.withLock { $0.counts.connections += 1 }
            start("fault-proxy-connection") { [self] in serve(client) }
        }
    }

    /// Registers a socket a thread now owns; false (and the socket closed) once stopped.
    func track(_ socket: Int32) -> Bool {
        let open = state.withLock { state -> Bool in
            guard !state.stopped else { return false }
            state.sockets.insert(socket)
            return true
        }
        if !open { close(socket) }
        return open
    }

    /// Forgets and closes a socket, under the lock, so stop() never shuts down a number
    /// that was closed and perhaps reused by another test's socket. `reset` closes with RST.
    func release(_ socket: Int32, reset: Bool = false) {
        state.withLock { state in
            guard state.sockets.remove(socket) != nil else { return }
            if reset { LoopbackSocket.closeWithReset(socket) } else { close(socket) }
        }
    }

    /// Waits `milliseconds` in short slices; false when the proxy stopped meanwhile.
    func pause(milliseconds: Int) -> Bool {
        let end = ContinuousClock.now + .milliseconds(milliseconds)
        while ContinuousClock.now < end {
            if state.value.stopped { return false }
            Thread.sleep(forTimeInterval: min(0.01, Double(milliseconds) / 1000))
        }
        return !state.value.stopped
    }

    /// The mode a request for `path` meets now: the mode, or `.passThrough` outside its scope.
    func mode(for path: String?, in state: State) -> FaultMode {
        guard let scope = state.scope else { return state.mode }
        guard let path else { return .passThrough }
        return path.hasPrefix(scope) ? state.mode : .passThrough
    }

    /// Waits while the mode `path` meets is `.stall`; returns the mode it ended with, nil
    /// when the proxy stopped or the client hung up meanwhile (a held request its client
    /// gave up on is never forwarded later). `held` is set the first time this connection
    /// is held, and counted once.
    func waitOutStall(path: String, client: Int32, held: inout Bool) -> FaultMode? {
        while true {
            let (mode, stopped) = state.withLock { (self.mode(for: path, in: $0), $0.stopped) }
            if stopped { return nil }
            guard mode == .stall else { return mode }
            if !held {
                held = true
                state.withLock { $0.counts.stalled += 1 }
            }
            if Self.hungUp(client, waitingMilliseconds: 10) { return nil }
        }
    }

    /// Whether the peer of `socket` closed or reset it, waiting up to `waitingMilliseconds`
    /// for a sign; bytes it sent are left unread.
    static func hungUp(_ socket: Int32, waitingMilliseconds: Int32) -> Bool {
        var watch = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        guard poll(&watch, 1, waitingMilliseconds) > 0 else { return false }
        if watch.revents & Int16(POLLHUP | POLLERR) != 0 { return true }
        var byte: UInt8 = 0
        let peeked = recv(socket, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        if peeked > 0 {
            // Bytes waiting (a request sent ahead) keep poll from waiting: wait here instead.
            Thread.sleep(forTimeInterval: Double(waitingMilliseconds) / 1000)
            return false
        }
        return peeked == 0 || (errno != EAGAIN && errno != EINTR)
    }
}

import CSDBus
import Foundation
import Glibc
import Logging
import Synchronization

/// The thread that owns an sd-bus connection: it connects, then runs `sd_bus_process`, the
/// work other threads hand it, and poll(2), until it is closed or the bus goes away.
///
/// sd-bus(3): "All functions listed here are thread-agnostic and only a single thread may
/// operate on a given object at any given time." Here that thread is always this one: the
/// bus, its messages and its slots are created, used and freed on it, and other threads
/// reach it only through `perform`.
final class BusLoop: Sendable {
    /// Work waiting for the thread, and how far closing has got.
    private struct Queue {
        var jobs: [@Sendable (BusConnection) -> Void] = []
        var closing = false
        var closed = false
    }

    /// What the thread reports once the connection is ready, or is not.
    private struct Start {
        var result: Result<String, DesktopError>?
        /// Set when the opener stopped waiting: the thread then closes what it got.
        var abandoned = false
    }

    private let address: String
    private let logger: Logger
    /// The eventfd `perform` and `close` write to, so the poll(2) returns.
    private let wake: Int32
    private let queue = Mutex(Queue())
    private let start = Mutex(Start())
    private let started = DispatchSemaphore(value: 0)
    private let ended = DispatchSemaphore(value: 0)
    /// The bus thread, so a `close` from one of its own callbacks does not wait for itself.
    private let owner = Mutex<pthread_t?>(nil)

    /// Prepares a loop for the bus at `address`; nothing runs until `connect`.
    init(address: String, logger: Logger) throws(DesktopError) {
        self.address = address
        self.logger = logger
        wake = mhz_eventfd()
        guard wake >= 0 else { throw .failed("eventfd", errno: errno) }
    }

    deinit { Glibc.close(wake) }

    /// Starts the thread, which connects; waits until the bus has let mhz in (authenticated
    /// and answered `Hello()`) and returns the connection's unique name.
    func connect(timeout: Duration) throws(DesktopError) -> String {
        let thread = Thread { [self] in run(timeout: timeout) }
        thread.name = "mhz.dbus"
        thread.start()
        // A little beyond the thread's own deadline, which it reports itself.
        _ = started.wait(timeout: .now() + .milliseconds(Int(timeout.milliseconds) + 500))
        let result = start.withLock { start in
            if start.result == nil { start.abandoned = true }
            return start.result
        }
        switch result {
        case .success(let name): return name
        case .failure(let error): throw error
        case nil: throw .timeout("connecting to \(address)")
        }
    }

    /// Hands `job` to the bus thread, which runs it after the messages already received.
    /// Returns false (and drops the job) once the connection is closed.
    @discardableResult
    func perform(_ job: @escaping @Sendable (BusConnection) -> Void) -> Bool {
        let queued = queue.withLock { queue in
            guard !queue.closing else { return false }
            queue.jobs.append(job)
            return true
        }
        if queued { signal() }
        return queued
    }

    /// Whether the connection is still open.
    var isOpen: Bool { queue.withLock { !$0.closing } }

    /// Ends the thread: the jobs already handed over run, what they sent is flushed, the
    /// connection is closed and freed (with every slot on it). Waits for that, at most
    /// `timeout`. Any thread, any number of times.
    func close(timeout: Duration = .seconds(2)) {
        let first = queue.withLock { queue in
            defer { queue.closing = true }
            return !queue.closing
        }
        if first { signal() }
        if queue.withLock({ $0.closed }) || owner.withLock({ $0 }) == pthread_self() { return }
        if ended.wait(timeout: .now() + .milliseconds(Int(timeout.milliseconds))) == .success { ended.signal() }
    }

    private func signal() {
        var one: UInt64 = 1
        _ = Glibc.write(wake, &one, MemoryLayout<UInt64>.size)
    }

    // MARK: The thread

    private func run(timeout: Duration) {
        owner.withLock { $0 = pthread_self() }
        let deadline = ContinuousClock.now + timeout
        var raw: OpaquePointer?
        let r = address.withCString { mhz_sd_bus_open($0, &raw) }
        guard r >= 0, let raw else {
            finishStart(.failure(r == MHZ_SD_BUS_UNAVAILABLE
                ? .libraryMissing(mhz_sd_bus_load_error().map { String(cString: $0) } ?? "libsystemd.so.0")
                : .connectionFailed(address: address, errno: -r)))
            markClosed()
            return
        }
        let bus = BusConnection(raw: raw)
        switch waitUntilReady(bus, deadline: deadline) {
        case .success(let name):
            guard finishStart(.success(name)) else { break }
            loop(bus)
        case .failure(let error):
            finishStart(.failure(error))
        }
        // sd_bus_flush_close_unref(3) frees the bus, and with it every floating slot, whose
        // destroy callbacks give their Swift contexts back.
        mhz_sd_bus_flush_close_unref(raw)
        markClosed()
    }

    /// Processes the connection until `sd_bus_is_ready` ("completed the connection and
    /// authentication phases of the protocol and received the Hello() method call response").
    private func waitUntilReady(_ bus: BusConnection, deadline: ContinuousClock.Instant) -> Result<String, DesktopError> {
        while true {
            var r: Int32
            repeat { r = mhz_sd_bus_process(bus.raw, nil) } while r > 0
            if r < 0 { return .failure(.connectionFailed(address: address, errno: -r)) }
            if mhz_sd_bus_is_ready(bus.raw) > 0 {
                var unique: UnsafePointer<CChar>?
                guard mhz_sd_bus_get_unique_name(bus.raw, &unique) >= 0, let unique else {
                    return .failure(.failed("sd_bus_get_unique_name", errno: EINVAL))
                }
                return .success(String(cString: unique))
            }
            let left = deadline - .now
            if left <= .zero { return .failure(.timeout("connecting to \(address)")) }
            wait(bus, atMost: left)
        }
    }

    /// Reports the start; false when the opener has given up waiting.
    @discardableResult
    private func finishStart(_ result: Result<String, DesktopError>) -> Bool {
        let wanted = start.withLock { start in
            start.result = start.abandoned ? nil : result
            return !start.abandoned
        }
        started.signal()
        return wanted
    }

    private func loop(_ bus: BusConnection) {
        while true {
            // sd_bus_process(3): "To process all queued messages, call sd_bus_process()
            // repeatedly until it returns 0".
            var r: Int32
            repeat { r = mhz_sd_bus_process(bus.raw, nil) } while r > 0
            if r < 0 {
                logger.warning("D-Bus connection lost", metadata: ["address": "\(address)", "errno": "\(-r)"])
                queue.withLock { $0.closing = true }
            }
            var count: UInt64 = 0
            _ = Glibc.read(wake, &count, MemoryLayout<UInt64>.size)
            let (jobs, closing) = queue.withLock { queue in
                defer { queue.jobs = [] }
                return (queue.jobs, queue.closing)
            }
            for job in jobs where r >= 0 { job(bus) }
            if closing { return }
            if jobs.isEmpty { wait(bus, atMost: nil) }
        }
    }

    /// Sleeps in poll(2) until the bus has something to do (or its own timeout comes), a job
    /// is queued, or `atMost` passes.
    private func wait(_ bus: BusConnection, atMost: Duration?) {
        let events = mhz_sd_bus_get_events(bus.raw)
        var fds = [pollfd(fd: mhz_sd_bus_get_fd(bus.raw), events: Int16(truncatingIfNeeded: max(events, 0)), revents: 0),
                   pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
        var milliseconds: Int32 = -1
        var until: UInt64 = 0
        // sd_bus_get_timeout(3): "returns the absolute timeout in μs, from which the relative
        // timeout to pass to poll() (or a similar call) can be derived", on CLOCK_MONOTONIC;
        // "may be UINT64_MAX in which case the I/O polling call may block indefinitely".
        if mhz_sd_bus_get_timeout(bus.raw, &until) >= 0, until != UInt64.max {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            let nowMicroseconds = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
            milliseconds = until <= nowMicroseconds ? 0 : Int32(clamping: (until - nowMicroseconds + 999) / 1000)
        }
        if let atMost {
            let limit = Int32(clamping: atMost.milliseconds + 1)
            milliseconds = milliseconds < 0 ? limit : min(milliseconds, limit)
        }
        _ = poll(&fds, nfds_t(fds.count), milliseconds)
    }

    private func markClosed() {
        queue.withLock { queue in
            queue.closing = true
            queue.closed = true
            queue.jobs = []
        }
        ended.signal()
    }
}

extension Duration {
    /// Whole milliseconds, rounded down.
    var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}

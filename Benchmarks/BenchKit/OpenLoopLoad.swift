import Foundation
import Synchronization

/// Open-loop HTTP load on a station at 127.0.0.1: requests sent at a fixed rate on a
/// schedule made before the first is sent (request `i` is due at `start + i / rate`),
/// whatever the station does, and each one's latency measured from the moment it was DUE,
/// not from when a client got round to sending it. A closed loop (clients that send the next
/// request when the last is answered) slows down with the server and so never sees the
/// queue a slow answer builds; timing from the send hides the wait as well ("coordinated
/// omission"). Here a request that had to wait for a free connection counts its wait.
///
/// The schedule is served by `connections` threads, each with a keep-alive ``LoadClient``,
/// taking the next due request in order; enough of them that, at the rates measured, a
/// request waits for the station rather than for a connection (a wait for one counts all
/// the same). Threads rather than tasks, as ``StationLoad``.
public struct OpenLoopLoad: Sendable {
    /// What one run saw.
    public struct Outcome: Sendable {
        /// The rate asked (requests per second).
        public let rate: Double
        /// Latency from each request's due moment to its answer's last byte (ms).
        public let latencies: Stats
        /// Requests answered.
        public let answered: Int
        /// Requests that failed (no answer, a closed connection).
        public let failed: Int
        /// How late, at most, a request was sent after its due moment (ms): a generator that
        /// cannot keep up shows here before the station does.
        public let worstSendDelay: Double
        /// Wall time from the first due moment to the last answer (s).
        public let wall: Double
    }

    /// The station's port.
    public let port: Int
    /// Threads (connections) serving the schedule.
    public let connections: Int

    /// Load on 127.0.0.1:`port` over `connections` keep-alive connections.
    public init(port: Int, connections: Int = 48) {
        self.port = port
        self.connections = max(1, connections)
    }

    /// Sends `rate` requests a second for `seconds`; request `i` asks `target(i, previous)`,
    /// `previous` the first song id of the last answer to a request of the same listener
    /// (`i % listeners`), for the playlist mix's skips and likes. `ready` runs after every
    /// connection's warm-up (one request each, not measured), just before the first due
    /// moment: what it samples (the station's CPU time) covers the measured requests only.
    public func run(rate: Double, seconds: Double, listeners: Int, ready: () -> Void = {},
                    target: @escaping @Sendable (Int, String) -> String) -> Outcome {
        let count = max(1, Int((rate * seconds).rounded()))
        let interval = 1.0 / max(rate, 0.001)
        let next = Atomic<Int>(0)
        let previous = Mutex([String](repeating: "", count: max(1, listeners)))
        let results = Mutex((latencies: [Double](), failed: 0, worstDelay: 0.0))
        let warmed = DispatchGroup()
        let done = DispatchGroup()
        let go = DispatchSemaphore(value: 0)
        let start = Mutex(ContinuousClock.now)
        let port = self.port
        for _ in 0..<connections {
            warmed.enter()
            done.enter()
            Thread {
                defer { done.leave() }
                let client = LoadClient(port: port)
                _ = try? client.get(target(0, ""))
                warmed.leave()
                go.wait()
                let origin = start.withLock { $0 }
                var latencies: [Double] = [], failed = 0, worstDelay = 0.0
                while true {
                    let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
                    guard index < count else { break }
                    let due = origin + .nanoseconds(Int64((Double(index) * interval * 1e9).rounded()))
                    let now = ContinuousClock.now
                    if now < due { Thread.sleep(forTimeInterval: BenchKit.seconds(due - now)) }
                    worstDelay = max(worstDelay, milliseconds(due, .now))
                    let listener = index % max(1, listeners)
                    let asked = target(index, previous.withLock { $0[listener] })
                    guard let body = try? client.get(asked) else {
                        failed += 1
                        continue
                    }
                    latencies.append(milliseconds(due, .now))
                    if let sid = StationLoad.firstSID(body) { previous.withLock { $0[listener] = sid } }
                }
                results.withLock { all in
                    all.latencies += latencies
                    all.failed += failed
                    all.worstDelay = max(all.worstDelay, worstDelay)
                }
            }.start()
        }
        warmed.wait()
        ready()
        // The schedule starts a little ahead, so every thread is waiting on it by then.
        let origin = ContinuousClock.now + .milliseconds(20)
        start.withLock { $0 = origin }
        for _ in 0..<connections { go.signal() }
        done.wait()
        let wall = BenchKit.seconds(ContinuousClock.now - origin)
        return results.withLock { all in
            Outcome(rate: rate, latencies: Stats(all.latencies), answered: all.latencies.count, failed: all.failed,
                    worstSendDelay: all.worstDelay, wall: wall)
        }
    }
}

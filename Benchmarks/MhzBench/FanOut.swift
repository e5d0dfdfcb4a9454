import BenchKit
import Foundation

/// Simulated listeners of a live channel, each on a thread and a connection of its own,
/// doing what a player does: fetch the 128 kbit/s media playlist every target duration
/// (2 s; the listeners' first polls spread over the first 2 s so they do not all ask at
/// once), and each segment it lists that this listener has not fetched yet (the last three
/// on its first poll: a player starts three target durations from the edge).
final class FanOut: @unchecked Sendable {
    /// What the listeners saw.
    struct Result {
        /// Milliseconds per media playlist request.
        var latencies: Stats
        /// Segments fetched, over all listeners.
        var segments: Int
        /// Requests that failed or answered no playlist.
        var failures: Int
    }

    private let lock = NSLock()
    private var running = true
    private var latencies: [Double] = []
    private var segments = 0
    private var failures = 0
    private let group = DispatchGroup()

    /// Starts `listeners` listeners of `channel` on the station at `port`.
    init(port: Int, channel: String, listeners: Int) {
        for listener in 0..<listeners {
            group.enter()
            Thread { [self] in
                defer { group.leave() }
                listen(port: port, channel: channel, seed: listener)
            }.start()
        }
    }

    /// Stops every listener (each ends after its current request) and returns what they saw.
    func stop() -> Result {
        lock.withLock { running = false }
        group.wait()
        return lock.withLock { Result(latencies: Stats(latencies), segments: segments, failures: failures) }
    }

    private func listen(port: Int, channel: String, seed: Int) {
        let client = LoadClient(port: port)
        var fetched = Set<String>()
        var first = true
        Thread.sleep(forTimeInterval: Double(seed % 20) / 10)
        while lock.withLock({ running }) {
            let began = ContinuousClock.now
            guard let body = try? client.get("/live/\(channel)/128.m3u8"),
                  let text = String(bytes: body, encoding: .utf8), text.hasPrefix("#EXTM3U") else {
                lock.withLock { failures += 1 }
                Thread.sleep(forTimeInterval: 2)
                continue
            }
            let took = milliseconds(began, .now)
            var listed = text.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.isEmpty }.map(String.init)
            if first { listed = Array(listed.suffix(3)) }
            first = false
            var got = 0, failed = 0
            for uri in listed where !fetched.contains(uri) {
                if let segment = try? client.get("/live/\(channel)/\(uri)"), !segment.isEmpty {
                    fetched.insert(uri)
                    got += 1
                } else {
                    failed += 1
                }
            }
            lock.withLock {
                latencies.append(took)
                segments += got
                failures += failed
            }
            let spent = milliseconds(began, .now) / 1000
            Thread.sleep(forTimeInterval: max(0, 2 - spent))
        }
    }
}

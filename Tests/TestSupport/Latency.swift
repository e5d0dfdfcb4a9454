/// Latencies of an ordinary request, measured one after another, summed up as their
/// median: what a well-behaved client of a server under abuse sees.
public enum Latency {
    /// Runs `request` `samples` times in a row and returns the median duration.
    /// - Throws: what `request` throws (a failed request is a failed measurement).
    public static func median(samples: Int, _ request: () async throws -> Void) async throws -> Duration {
        var durations: [Duration] = []
        for _ in 0..<samples {
            let start = ContinuousClock.now
            try await request()
            durations.append(ContinuousClock.now - start)
        }
        durations.sort()
        return durations[durations.count / 2]
    }

    /// Whether `during` stays within what a shared 2-core machine allows for `before`:
    /// at most ten times it, or half a second, whichever is more. A ratio rather than an
    /// absolute limit: the other builders on the machine slow both alike.
    public static func isUsual(_ during: Duration, before: Duration) -> Bool {
        during <= max(before * 10, .milliseconds(500))
    }
}

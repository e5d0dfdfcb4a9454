import Foundation

/// Summary statistics over a list of measurements, in milliseconds: every benchmark
/// reports percentiles by the same (nearest-rank) rule, so their numbers compare.
public struct Stats: CustomStringConvertible, Sendable {
    /// The sorted samples.
    public let samples: [Double]

    /// Sorts `samples` (milliseconds).
    public init(_ samples: [Double]) { self.samples = samples.sorted() }

    /// The value below which `fraction` of the samples lie (nearest rank).
    public func percentile(_ fraction: Double) -> Double {
        guard !samples.isEmpty else { return .nan }
        let rank = Int((fraction * Double(samples.count)).rounded(.up)) - 1
        return samples[min(max(rank, 0), samples.count - 1)]
    }

    /// The median.
    public var median: Double { percentile(0.5) }
    /// The 95th percentile.
    public var p95: Double { percentile(0.95) }
    /// The 99th percentile.
    public var p99: Double { percentile(0.99) }

    /// "p50 / p95 (n)".
    public var description: String { String(format: "%.1f / %.1f ms (n=%d)", median, p95, samples.count) }
}

/// Milliseconds between two instants.
public func milliseconds(_ from: ContinuousClock.Instant, _ to: ContinuousClock.Instant) -> Double {
    seconds(from.duration(to: to)) * 1000
}

/// A duration in seconds.
public func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

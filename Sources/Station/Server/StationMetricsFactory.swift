import CoreMetrics
import Prometheus

/// swift-metrics' factory over a Prometheus registry of the station's own, giving each
/// metric the help text its name has in ``StationMetrics/help``.
///
/// Why not swift-prometheus' own `PrometheusMetricsFactory`: it makes every metric with
/// empty help, so its exposition has no `# HELP` lines (which `promtool check metrics`
/// lints), and the registry refuses a name made again with other help ("All metrics with
/// the same name must have identical help text", a `fatalError`), so help cannot be added
/// beside it. One registry per station (not `MetricsSystem.bootstrap`, once per process):
/// tests run many stations in one process.
struct StationMetricsFactory: MetricsFactory {
    /// Where the metrics live, read by the `/metrics` route.
    let registry: PrometheusCollectorRegistry
    /// The buckets of the request-duration histograms: a millisecond to ten seconds.
    static let durationBuckets: [Duration] = [
        .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
        .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(5), .seconds(10),
    ]
    /// The buckets of value histograms (none are made; the protocol asks for them).
    static let valueBuckets: [Double] = [1, 10, 100, 1000]

    /// The Prometheus name of `label` (the label itself: no namespace, subsystem or unit is
    /// added) with its help text. Every label is one of ``StationMetrics``' names, never empty
    /// (the descriptor's precondition).
    private func descriptor(_ label: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: label, unitName: "", helpText: StationMetrics.help[label] ?? "")
    }

    func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
        registry.makeCounter(descriptor: descriptor(label), labels: dimensions)
    }

    func makeFloatingPointCounter(label: String, dimensions: [(String, String)]) -> any FloatingPointCounterHandler {
        registry.makeCounter(descriptor: descriptor(label), labels: dimensions)
    }

    func makeMeter(label: String, dimensions: [(String, String)]) -> any MeterHandler {
        registry.makeGauge(descriptor: descriptor(label), labels: dimensions)
    }

    func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
        guard aggregate else { return registry.makeGauge(descriptor: descriptor(label), labels: dimensions) }
        return registry.makeValueHistogram(descriptor: descriptor(label), labels: dimensions, buckets: Self.valueBuckets)
    }

    func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler {
        registry.makeDurationHistogram(descriptor: descriptor(label), labels: dimensions, buckets: Self.durationBuckets)
    }

    func destroyCounter(_ handler: any CounterHandler) {
        if let counter = handler as? Prometheus.Counter { registry.unregisterCounter(counter) }
    }

    func destroyFloatingPointCounter(_ handler: any FloatingPointCounterHandler) {
        if let counter = handler as? Prometheus.Counter { registry.unregisterCounter(counter) }
    }

    func destroyMeter(_ handler: any MeterHandler) {
        if let gauge = handler as? Prometheus.Gauge { registry.unregisterGauge(gauge) }
    }

    func destroyRecorder(_ handler: any RecorderHandler) {
        if let gauge = handler as? Prometheus.Gauge { registry.unregisterGauge(gauge) }
        if let histogram = handler as? Histogram<Double> { registry.unregisterValueHistogram(histogram) }
    }

    func destroyTimer(_ handler: any TimerHandler) {
        if let histogram = handler as? Histogram<Duration> { registry.unregisterDurationHistogram(histogram) }
    }
}

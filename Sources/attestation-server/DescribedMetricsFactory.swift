import Metrics
import Prometheus

/// swift-prometheus's `PrometheusMetricsFactory` with each family's help text. That factory
/// registers every metric with an empty help (swift-metrics' API has none to give it), so
/// `/metrics` had no `# HELP` line and `promtool check metrics` refused all of it. Here each
/// metric is made through the registry's own API with the help of its name in `help`; the
/// buckets and the destruction of metrics are the wrapped factory's.
struct DescribedMetricsFactory: MetricsFactory {
    let base: PrometheusMetricsFactory
    /// By metric name (`ServiceMetrics.help`).
    let help: [String: String]

    private var registry: PrometheusCollectorRegistry { base.registry }

    /// The whole name as the metric's name (no namespace, subsystem or unit added), with its help.
    private func descriptor(_ name: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: name, unitName: "", helpText: help[name] ?? "")
    }

    func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
        registry.makeCounter(descriptor: descriptor(label), labels: dimensions)
    }

    func makeFloatingPointCounter(label: String, dimensions: [(String, String)]) -> any FloatingPointCounterHandler {
        registry.makeCounter(descriptor: descriptor(label), labels: dimensions)
    }

    func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
        guard aggregate else { return registry.makeGauge(descriptor: descriptor(label), labels: dimensions) }
        return registry.makeValueHistogram(
            descriptor: descriptor(label), labels: dimensions,
            buckets: base.valueHistogramBuckets[label] ?? base.defaultValueHistogramBuckets)
    }

    func makeMeter(label: String, dimensions: [(String, String)]) -> any MeterHandler {
        registry.makeGauge(descriptor: descriptor(label), labels: dimensions)
    }

    func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler {
        registry.makeDurationHistogram(
            descriptor: descriptor(label), labels: dimensions,
            buckets: base.durationHistogramBuckets[label] ?? base.defaultDurationHistogramBuckets)
    }

    func destroyCounter(_ handler: any CounterHandler) { base.destroyCounter(handler) }
    func destroyFloatingPointCounter(_ handler: any FloatingPointCounterHandler) {
        base.destroyFloatingPointCounter(handler)
    }
    func destroyRecorder(_ handler: any RecorderHandler) { base.destroyRecorder(handler) }
    func destroyMeter(_ handler: any MeterHandler) { base.destroyMeter(handler) }
    func destroyTimer(_ handler: any TimerHandler) { base.destroyTimer(handler) }
}

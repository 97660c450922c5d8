import AttestationService
import Metrics
import Prometheus

/// The process's metrics system: swift-metrics backed by a Prometheus registry, which `/metrics`
/// writes out.
enum PrometheusMetrics {
    static let durationBuckets: [Duration] = [
        .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10),
        .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .seconds(1),
    ]

    /// Makes the registry the process's metrics system; once, before any metric is made.
    static func bootstrap() -> PrometheusCollectorRegistry {
        let registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = durationBuckets
        MetricsSystem.bootstrap(DescribedMetricsFactory(base: factory, help: ServiceMetrics.help))
        return registry
    }
}

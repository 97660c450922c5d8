import Metrics
import Synchronization

/// The service's metrics through swift-metrics; the executable chooses the backend (Prometheus).
/// Label values come from fixed sets (route names, status codes), never from the request.
final class ServiceMetrics: Sendable {
    private let counters = Mutex<[String: Counter]>([:])
    private let latencies = Mutex<[String: Timer]>([:])
    private let renders: [String: Timer]
    let openConnections = Meter(label: "http_open_connections")
    /// Connections refused at accept because their address had maxConnectionsPerAddress open.
    let refusedConnections = Counter(label: "http_connections_refused_total", dimensions: [("reason", "per_address")])

    init() {
        renders = Dictionary(uniqueKeysWithValues: ["pdf", "png"].map {
            ($0, Timer(label: "attestation_render_seconds", dimensions: [("format", $0)], preferredDisplayUnit: .seconds))
        })
    }

    func request(route: String, status: Int, duration: Duration) {
        let key = "\(route) \(status)"
        let counter = counters.withLock { cache in
            if let known = cache[key] { return known }
            let made = Counter(label: "http_requests_total", dimensions: [("route", route), ("status", String(status))])
            cache[key] = made
            return made
        }
        counter.increment()
        let timer = latencies.withLock { cache in
            if let known = cache[route] { return known }
            let made = Timer(label: "http_request_duration_seconds", dimensions: [("route", route)], preferredDisplayUnit: .seconds)
            cache[route] = made
            return made
        }
        timer.recordNanoseconds(duration.nanoseconds)
    }

    func render(format: String, duration: Duration) {
        renders[format]?.recordNanoseconds(duration.nanoseconds)
    }
}

extension Duration {
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    var milliseconds: Double { Double(nanoseconds) / 1_000_000 }
}

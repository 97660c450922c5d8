import Foundation
import Metrics
import Synchronization

/// The service's metrics through swift-metrics; the executable chooses the backend (Prometheus).
/// Label values come from fixed sets (route names, status codes), never from the request.
public final class ServiceMetrics: Sendable {
    private let counters = Mutex<[String: Counter]>([:])
    private let latencies = Mutex<[String: Timer]>([:])
    private let renders: [String: Timer]
    let openConnections = Meter(label: "http_open_connections")
    private let reloads = [true, false].map {
        Counter(label: "attestation_configuration_reloads_total", dimensions: [("result", $0 ? "applied" : "refused")])
    }
    /// 1 while the files on disk do not load and the last good configuration serves.
    private let degraded = Meter(label: "attestation_configuration_degraded")
    private let lastApplied = Meter(label: "attestation_configuration_last_applied_timestamp_seconds")
    /// Link ids revoked earlier that the revocation list on disk no longer holds: still
    /// revoked, until a restart (`Service.MissingRevocations`).
    private let missingRevocations = Meter(label: "attestation_revocations_missing_from_list")
    /// Connections refused at accept because their address had maxConnectionsPerAddress open.
    let refusedConnections = Counter(label: "http_connections_refused_total", dimensions: [("reason", "per_address")])
    /// Connections waiting for a request, closed for a new one at maxConnections.
    let evictedConnections = Counter(label: "http_connections_evicted_total")

    init() {
        degraded.set(0)
        missingRevocations.set(0)
        lastApplied.set(Date().timeIntervalSince1970)
        renders = Dictionary(
            uniqueKeysWithValues: ["pdf", "png", "page_png", "paper_pdf"].map {
                (
                    $0,
                    Timer(
                        label: "attestation_render_seconds", dimensions: [("format", $0)],
                        preferredDisplayUnit: .seconds)
                )
            })
    }

    func request(route: String, status: Int, duration: Duration) {
        let key = "\(route) \(status)"
        let counter = counters.withLock { cache in
            if let known = cache[key] { return known }
            let made = Counter(
                label: "http_requests_total", dimensions: [("route", route), ("status", String(status))])
            cache[key] = made
            return made
        }
        counter.increment()
        let timer = latencies.withLock { cache in
            if let known = cache[route] { return known }
            let made = Timer(
                label: "http_request_duration_seconds", dimensions: [("route", route)], preferredDisplayUnit: .seconds)
            cache[route] = made
            return made
        }
        timer.recordNanoseconds(duration.nanoseconds)
    }

    func reload(applied: Bool) {
        reloads[applied ? 0 : 1].increment()
        degraded.set(applied ? 0 : 1)
        if applied { lastApplied.set(Date().timeIntervalSince1970) }
    }

    func revocationsMissing(_ count: Int) {
        missingRevocations.set(count)
    }

    func render(format: String, duration: Duration) {
        renders[format]?.recordNanoseconds(duration.nanoseconds)
    }

    /// What each family above means, for Prometheus's `# HELP` lines: swift-metrics has no
    /// place for a description, so the backend the executable chooses takes them from here by
    /// name. A family without one fails `promtool check metrics` (ServerTests).
    public static let help: [String: String] = [
        "http_requests_total":
            "HTTP requests answered, by route (a fixed route, a file of the site, or other) and status code.",
        "http_request_duration_seconds": "Time taken to answer an HTTP request, by route.",
        "http_open_connections": "HTTP connections open now.",
        "http_connections_refused_total":
            "Connections refused when accepted, by reason (per_address: the address had maxConnectionsPerAddress open).",
        "http_connections_evicted_total":
            "Connections waiting for a request (idle, or slow with their headers), closed to make room for a new one at maxConnections.",
        "attestation_render_seconds":
            "Time taken to render a document, by format (pdf, png: the QR code alone, page_png: a page image).",
        "attestation_configuration_reloads_total":
            "Reloads of the configuration, keys and revocation list, by result (applied, refused).",
        "attestation_configuration_degraded":
            "1 while the files on disk do not load and the last good configuration serves, else 0.",
        "attestation_configuration_last_applied_timestamp_seconds":
            "When the configuration in force was loaded, in seconds since the Unix epoch.",
        "attestation_revocations_missing_from_list":
            "Link ids revoked earlier that the revocation list on disk no longer holds; they stay revoked until a restart.",
    ]
}

extension Duration {
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    var milliseconds: Double { Double(nanoseconds) / 1_000_000 }
}

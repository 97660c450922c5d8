import AttestationKit
import Foundation
import HTTPServer
import Logging
import Synchronization

/// The HTTP face of the service: the routes of DESIGN.md, one access-log line and metrics per
/// request. Thread-safe; every request reads the snapshot current when it arrived.
public final class Service: Sendable {
    private let current: Mutex<ServiceSnapshot>
    private let draining = Atomic<Bool>(false)
    private let logger: Logger
    private let metrics = ServiceMetrics()
    private let metricsExposition: @Sendable () -> [UInt8]

    /// - Parameter metricsExposition: the Prometheus text for `/metrics`.
    public init(snapshot: ServiceSnapshot, logger: Logger, metricsExposition: @escaping @Sendable () -> [UInt8]) {
        self.current = Mutex(snapshot)
        self.logger = logger
        self.metricsExposition = metricsExposition
        _ = LicensesPage.file  // the /licenses page is built now rather than by its first request
    }

    public var snapshot: ServiceSnapshot { current.withLock { $0 } }

    /// Puts a freshly loaded snapshot in force for the requests that follow.
    public func replace(with snapshot: ServiceSnapshot) {
        current.withLock { $0 = snapshot }
    }

    /// From now on `/healthz` says 503, so load balancers stop sending here.
    public func beginShutdown() {
        draining.store(true, ordering: .relaxed)
    }

    /// Observes the HTTP server: the `http_open_connections` gauge, the refusals it makes itself
    /// (access log and metrics, route `refused`), and its reports.
    public var serverObserver: HTTPServerObserver {
        let gauge = metrics.openConnections
        let refusedConnections = metrics.refusedConnections
        return HTTPServerObserver(
            connectionOpened: { gauge.increment() }, connectionClosed: { gauge.decrement() },
            libraryMessage: { [logger] in logger.notice("libmicrohttpd: \($0)") },
            repeatedLibraryMessage: { [logger] message, count in
                logger.notice("libmicrohttpd: \(message) (\(count) more times in the last interval)")
            },
            requestRefused: { [self] method, status, bytes in record(method: method, route: "refused", status: status, bytes: bytes, duration: .zero) },
            connectionRefused: { refusedConnections.increment() },
            connectionsRefused: { [logger] count, seconds in
                logger.warning("refused \(count) connections in the last \(seconds) s from addresses already at maxConnectionsPerAddress")
            })
    }

    /// The responses to the requests the HTTP server refuses itself: worded in French, as JSON
    /// under /api/, with the headers of every error.
    public var refusalResponder: HTTPRefusalResponder { Routes.refusal }

    /// The handler to give `HTTPServer`.
    public var handler: HTTPHandler { { [self] in respond(to: $0) } }

    public func respond(to request: HTTPRequest) -> HTTPResponse {
        let start = ContinuousClock.now
        let snapshot = current.withLock { $0 }
        let (route, response) = Routes(snapshot: snapshot, metrics: metrics, draining: draining.load(ordering: .relaxed),
                                       metricsExposition: metricsExposition).respond(to: request)
        record(method: request.method, route: route, status: response.status, bytes: response.body.count,
               duration: ContinuousClock.now - start)
        return response
    }

    /// The access-log line and the metrics of one request. Route names only: never the query
    /// string, which holds the token.
    private func record(method: String, route: String, status: Int, bytes: Int, duration: Duration) {
        metrics.request(route: route, status: status, duration: duration)
        logger.info("\(Self.loggedMethod(method)) \(route) \(status) \(Self.format(duration.milliseconds))ms \(bytes)B")
    }

    private static func loggedMethod(_ method: String) -> String {
        ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "CONNECT"].contains(method) ? method : "OTHER"
    }

    private static func format(_ milliseconds: Double) -> String {
        String(format: "%.2f", milliseconds)
    }
}

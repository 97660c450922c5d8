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

    /// Observes the HTTP server's connections for the `http_open_connections` gauge.
    public var serverObserver: HTTPServerObserver {
        let gauge = metrics.openConnections
        let logger = logger
        return HTTPServerObserver(
            connectionOpened: { gauge.increment() }, connectionClosed: { gauge.decrement() },
            libraryMessage: { logger.notice("libmicrohttpd: \($0)") })
    }

    /// The handler to give `HTTPServer`.
    public var handler: HTTPHandler { { [self] in respond(to: $0) } }

    public func respond(to request: HTTPRequest) -> HTTPResponse {
        let start = ContinuousClock.now
        let snapshot = current.withLock { $0 }
        let (route, response) = Routes(snapshot: snapshot, metrics: metrics, draining: draining.load(ordering: .relaxed),
                                       metricsExposition: metricsExposition).respond(to: request)
        let duration = ContinuousClock.now - start
        metrics.request(route: route, status: response.status, duration: duration)
        // Route names only: never the query string, which holds the token.
        logger.info("\(Self.loggedMethod(request.method)) \(route) \(response.status) \(Self.format(duration.milliseconds))ms \(response.body.count)B")
        return response
    }

    private static func loggedMethod(_ method: String) -> String {
        ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "CONNECT"].contains(method) ? method : "OTHER"
    }

    private static func format(_ milliseconds: Double) -> String {
        String(format: "%.2f", milliseconds)
    }
}

import AttestationConfiguration
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
    /// Set while the files on disk do not load: the last good snapshot is still in force.
    private let refusedReload = Mutex<RefusedReload?>(nil)
    /// Set while the revocation list on disk lacks ids revoked earlier in this process's life.
    private let missingRevocations = Mutex<MissingRevocations?>(nil)
    /// The pinned forms verified links asked for since they went missing (at most
    /// `maximumMissingForms`: only links signed with a trusted key can add one).
    private let missingForms = Mutex<Set<String>>([])
    static let maximumMissingForms = 64
    private let logger: Logger
    private let metrics = ServiceMetrics()
    private let requestIDs = RequestIDs()
    private let metricsExposition: @Sendable () -> [UInt8]
    private let clock: @Sendable () -> Date

    /// - Parameters:
    ///   - metricsExposition: the Prometheus text for `/metrics`.
    ///   - clock: the present moment of every attestation and form in force; tests set a day of
    ///     2020–2021, the server keeps the system's.
    public init(
        snapshot: ServiceSnapshot, logger: Logger, metricsExposition: @escaping @Sendable () -> [UInt8],
        clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.current = Mutex(snapshot)
        self.logger = logger
        self.metricsExposition = metricsExposition
        self.clock = clock
        _ = LicensesPage.file  // the /licenses page is built now rather than by its first request
    }

    public var snapshot: ServiceSnapshot { current.withLock { $0 } }

    /// Puts a freshly loaded snapshot in force for the requests that follow.
    public func replace(with snapshot: ServiceSnapshot) {
        current.withLock { $0 = snapshot }
    }

    /// A reload that did not load: when and why, as `/healthz` tells it.
    public struct RefusedReload: Sendable {
        public let since: Date
        public let error: ConfigurationError
    }

    /// Loads the configuration again and puts it in force, or, when anything in it does not load
    /// (a file vanished, broke or emptied), keeps the running one: fail closed, logged at error
    /// level, `/healthz` says `degraded` and `/metrics` counts it until a reload succeeds.
    /// - Parameter trigger: what asked for it, for the log (`SIGHUP`, `file change`).
    @discardableResult
    public func reload(trigger: String, _ load: () throws(ConfigurationError) -> ServiceSnapshot) -> Bool {
        let previous = snapshot
        let started = Date()
        var fresh: ServiceSnapshot
        do {
            fresh = try load()
        } catch {
            let since = refusedReload.withLock { refused in
                let since = refused?.since ?? Date()
                refused = RefusedReload(since: since, error: error)
                return since
            }
            metrics.reload(applied: false)
            var metadata: Logger.Metadata = [
                "trigger": .string(trigger), "file": .string(error.source), "error": .string(error.message),
                "degraded_since": .string(since.formatted(.iso8601)),
            ]
            if !error.path.isEmpty { metadata["json_path"] = .string(error.path) }
            logger.error("reload refused, the previous configuration stays in force", metadata: metadata)
            return false
        }
        // Revocation never fails open: every id revoked before stays revoked, whatever this
        // reading of the list holds (`previous` holds every id revoked so far).
        let dropped = previous.state.revoked.ids.subtracting(fresh.state.revoked.ids)
        let listFile = fresh.state.resolve(fresh.state.configuration.revocationList).path
        if !dropped.isEmpty { fresh = fresh.revoking(dropped) }
        replace(with: fresh)
        let missing = missingRevocations.withLock { missing in
            missing =
                dropped.isEmpty
                ? nil : MissingRevocations(since: missing?.since ?? Date(), count: dropped.count, file: listFile)
            return missing
        }
        metrics.revocationsMissing(dropped.count)
        if let missing {
            logger.error(
                "revocation list reloaded without link ids revoked before: they stay revoked until a restart",
                metadata: [
                    "trigger": .string(trigger), "file": .string(missing.file),
                    "missing_ids": .stringConvertible(missing.count),
                    "degraded_since": .string(missing.since.formatted(.iso8601)),
                ])
        }
        let wasDegraded = refusedReload.withLock { refused in
            defer { refused = nil }
            return refused != nil
        }
        metrics.reload(applied: true)
        let state = fresh.state
        // A form put back is no longer missing; the others stay until links stop asking.
        missingForms.withLock { missing in missing = missing.filter { state.catalog.form(id: $0) == nil } }
        logger.notice(
            "configuration reloaded",
            metadata: [
                "trigger": .string(trigger), "keys": .stringConvertible(state.keys.keys.count),
                "revoked_links": .stringConvertible(state.revoked.ids.count),
                "forms": .stringConvertible(state.catalog.forms.count),
                "public_paths": .stringConvertible(fresh.publicFiles.files.count),
                "recovered": .stringConvertible(wasDegraded),
                // How long reading and preparing everything took: what a revocation waits for
                // at most once the list is quiet.
                "duration_ms": .stringConvertible(Int(Date().timeIntervalSince(started) * 1000)),
            ])
        for dropped in Set(previous.publicFiles.files.keys).subtracting(fresh.publicFiles.files.keys).sorted() {
            logger.notice("static file no longer served", metadata: ["path": .string(dropped)])
        }
        if fresh.settings != previous.settings {
            logger.warning("server settings changed: they apply at the next restart")
        }
        return true
    }

    /// Link ids revoked earlier in this process's life that the revocation list on disk no
    /// longer holds: they stay revoked (a list rewritten in place is empty for a moment, and a
    /// reload then must not bring revoked links back), until a restart.
    public struct MissingRevocations: Sendable {
        public let since: Date
        public let count: Int
        public let file: String
    }

    /// The ids the list on disk dropped, if any (see `MissingRevocations`).
    public var revocationsMissing: MissingRevocations? { missingRevocations.withLock { $0 } }

    /// The reload refused now in force, if any.
    public var degraded: RefusedReload? { refusedReload.withLock { $0 } }

    /// From now on `/healthz` says 503, so load balancers stop sending here.
    public func beginShutdown() {
        draining.store(true, ordering: .relaxed)
    }

    /// Observes the HTTP server: the `http_open_connections` gauge, the refusals it makes itself
    /// (access log and metrics, route `refused`), and its reports.
    public var serverObserver: HTTPServerObserver {
        let gauge = metrics.openConnections
        let refusedConnections = metrics.refusedConnections
        let evictedConnections = metrics.evictedConnections
        return HTTPServerObserver(
            connectionOpened: { gauge.increment() }, connectionClosed: { gauge.decrement() },
            libraryMessage: { [logger] in logger.notice("libmicrohttpd message", metadata: ["text": "\($0)"]) },
            repeatedLibraryMessage: { [logger] message, count in
                logger.notice("libmicrohttpd message repeated", metadata: ["text": "\(message)", "count": "\(count)"])
            },
            requestRefused: { [self] method, status, bytes in
                record(
                    RequestRecord(
                        id: requestIDs.next(), method: method, route: "refused", status: status, bytes: bytes,
                        duration: .zero, refusal: "http_\(status)"))
            },
            connectionRefused: { refusedConnections.increment() },
            connectionsRefused: { [logger] count, seconds in
                logger.warning(
                    "connections refused: their address already has maxConnectionsPerAddress open",
                    metadata: [
                        "count": "\(count)", "interval_s": "\(seconds)",
                    ])
            },
            connectionEvicted: { evictedConnections.increment() },
            connectionsEvicted: { [logger] count, seconds in
                logger.warning(
                    "connections waiting for a request closed to make room: maxConnections were open",
                    metadata: ["count": "\(count)", "interval_s": "\(seconds)"])
            })
    }

    /// The paths of the service's own routes (not the site's files), as its log names them. The
    /// fuzz corpus holds a request to each (attestation-fuzz write-seeds), so a new route is
    /// replayed by make test as soon as it exists.
    public static var fixedRoutes: Set<String> { Routes.fixedRoutes }

    /// The responses to the requests the HTTP server refuses itself: worded in French, as JSON
    /// under /api/, with the headers of every error.
    public var refusalResponder: HTTPRefusalResponder { Routes.refusal }

    /// The requests `HTTPServer` hands to threads of their own: page images, large QR codes and
    /// offline templates (tens of milliseconds of CPU), against a millisecond for a PDF.
    public var isExpensive: @Sendable (HTTPRequest) -> Bool { Routes.isExpensive }

    /// The handler to give `HTTPServer`.
    public var handler: HTTPHandler { { [self] in respond(to: $0) } }

    public func respond(to request: HTTPRequest) -> HTTPResponse {
        let start = ContinuousClock.now
        let id = requestIDs.next()
        let snapshot = current.withLock { $0 }
        let health: Routes.Health =
            if draining.load(ordering: .relaxed) { .stopping } else if let refused = degraded {
                .degraded(refused)
            } else if let missing = revocationsMissing {
                .revocationsMissing(missing)
            } else if let forms = missingForms.withLock({ $0.isEmpty ? nil : $0.sorted() }) {
                .formsMissing(forms)
            } else { .ok }
        let outcome = Routes(
            snapshot: snapshot, metrics: metrics, health: health,
            metricsExposition: metricsExposition, now: clock()
        ).respond(to: request)
        if let form = outcome.missingForm {
            missingForms.withLock { if $0.count < Self.maximumMissingForms { $0.insert(form) } }
        }
        var response = outcome.response
        response.headers.append(("X-Request-Id", id))
        record(
            RequestRecord(
                id: id, method: request.method, route: outcome.route, status: response.status,
                bytes: response.body.count, duration: ContinuousClock.now - start, refusal: outcome.refusal))
        return response
    }

    /// One request as the access log and the metrics see it: route names only, never the query
    /// string (which holds the token), and the English reason of a refusal.
    private struct RequestRecord {
        let id: String
        let method: String
        let route: String
        let status: Int
        let bytes: Int
        let duration: Duration
        let refusal: String?
    }

    private func record(_ request: RequestRecord) {
        metrics.request(route: request.route, status: request.status, duration: request.duration)
        var metadata: Logger.Metadata = [
            "request_id": .string(request.id), "method": .string(Self.loggedMethod(request.method)),
            "route": .string(request.route), "status": .stringConvertible(request.status),
            "duration_ms": .stringConvertible(Self.rounded(request.duration.milliseconds)),
            "bytes": .stringConvertible(request.bytes),
        ]
        if let refusal = request.refusal { metadata["refusal"] = .string(refusal) }
        // A link the server cannot serve although it verified is the operator's to fix.
        logger.log(
            level: request.status == 500 || request.refusal == "form_not_installed" ? .error : .info, "request",
            metadata: metadata)
    }

    private static func loggedMethod(_ method: String) -> String {
        ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "CONNECT"].contains(method)
            ? method : "OTHER"
    }

    /// Milliseconds to the hundredth: the log's precision.
    private static func rounded(_ milliseconds: Double) -> Double {
        (milliseconds * 100).rounded() / 100
    }
}

/// Request ids for the log and the `X-Request-Id` header: a random prefix for this process, so
/// replicas never collide, then a counter.
final class RequestIDs: Sendable {
    private let prefix = String(UInt32.random(in: .min ... .max), radix: 16)
    private let counter = Atomic<UInt64>(0)

    func next() -> String {
        let (value, _) = counter.add(1, ordering: .relaxed)
        return prefix + "-" + String(value, radix: 16)
    }
}

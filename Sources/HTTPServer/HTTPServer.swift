import CMicroHTTPD
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// What the server tells its owner about, for metrics and logs. Called on worker threads.
public struct HTTPServerObserver: Sendable {
    public var connectionOpened: @Sendable () -> Void
    public var connectionClosed: @Sendable () -> Void
    /// A message from libmicrohttpd itself, its numbers filled in and its strings left out
    /// (`…`): those could hold a client's URI or headers. A message repeated within
    /// `reportInterval` comes once, then once more with its count (`repeatedLibraryMessage`).
    public var libraryMessage: @Sendable (String) -> Void
    /// The same message came `count` more times in the interval, and was held back.
    public var repeatedLibraryMessage: @Sendable (_ message: String, _ count: Int) -> Void
    /// A request answered without the handler (a refusal: 400, 413, 414, 431, 505): its method
    /// (empty when libmicrohttpd refused it by itself), status and body size.
    public var requestRefused: @Sendable (_ method: String, _ status: Int, _ bytes: Int) -> Void
    /// A connection refused at accept, its address having `maxConnectionsPerAddress` open.
    public var connectionRefused: @Sendable () -> Void
    /// A connection waiting for a request closed to make room for a new one, the server having
    /// `maxConnections` open (see `ConnectionTable`).
    public var connectionEvicted: @Sendable () -> Void
    /// `count` connections closed so over the last `seconds`: at most once per `reportInterval`.
    public var connectionsEvicted: @Sendable (_ count: Int, _ seconds: Int) -> Void
    /// `count` connections refused so, over the last `seconds`: at most once per `reportInterval`,
    /// for the log.
    public var connectionsRefused: @Sendable (_ count: Int, _ seconds: Int) -> Void

    public init(
        connectionOpened: @escaping @Sendable () -> Void = {}, connectionClosed: @escaping @Sendable () -> Void = {},
        libraryMessage: @escaping @Sendable (String) -> Void = { _ in },
        repeatedLibraryMessage: @escaping @Sendable (_ message: String, _ count: Int) -> Void = { _, _ in },
        requestRefused: @escaping @Sendable (_ method: String, _ status: Int, _ bytes: Int) -> Void = { _, _, _ in },
        connectionRefused: @escaping @Sendable () -> Void = {},
        connectionsRefused: @escaping @Sendable (_ count: Int, _ seconds: Int) -> Void = { _, _ in },
        connectionEvicted: @escaping @Sendable () -> Void = {},
        connectionsEvicted: @escaping @Sendable (_ count: Int, _ seconds: Int) -> Void = { _, _ in }
    ) {
        self.connectionOpened = connectionOpened
        self.connectionClosed = connectionClosed
        self.libraryMessage = libraryMessage
        self.repeatedLibraryMessage = repeatedLibraryMessage
        self.requestRefused = requestRefused
        self.connectionRefused = connectionRefused
        self.connectionsRefused = connectionsRefused
        self.connectionEvicted = connectionEvicted
        self.connectionsEvicted = connectionsEvicted
    }
}

/// An HTTP/1.1 server on libmicrohttpd: worker threads with epoll, one libmicrohttpd daemon
/// each, given their connections by `ConnectionAcceptor`; each request answered by a plain
/// function of the request on the thread that read it.
public final class HTTPServer: Sendable {
    /// The port actually listened on (useful with port 0).
    public let port: Int
    public let configuration: HTTPServerConfiguration
    private let core: ServerCore
    private let running: Locked<RunningDaemon?>

    /// Opens the socket and starts the workers; the server answers as soon as this returns.
    /// - Parameters:
    ///   - refusalResponder: words the responses to the requests the server refuses itself (see
    ///     `HTTPRefusal`); the server adds `Connection: close` (but to `overloaded`, which gets
    ///     `Retry-After`).
    ///   - isExpensive: the requests whose handling costs enough CPU to hold a worker's other
    ///     connections behind it (milliseconds, not microseconds): they are handled on threads of
    ///     their own, a bounded number at a time (`ExpensiveRequests`). Called on the workers.
    public init(
        configuration: HTTPServerConfiguration, observer: HTTPServerObserver = HTTPServerObserver(),
        refusalResponder: @escaping HTTPRefusalResponder = HTTPRefusal.plainText,
        isExpensive: (@Sendable (HTTPRequest) -> Bool)? = nil,
        handler: @escaping HTTPHandler
    ) throws(HTTPServerError) {
        guard configuration.maxConnections > 0, configuration.maxConnectionsPerAddress >= 0,
            configuration.connectionTimeout > 0, configuration.maxRequestBytes >= 1024,
            configuration.maxQueryParameters >= 1, configuration.reportInterval >= 1,
            configuration.expensiveThreads >= 0, configuration.expensiveQueue >= 0
        else {
            throw .invalidLimits
        }
        if configuration.tls != nil, cmhd_supports_tls() == 0 {
            throw .tlsUnsupported
        }
        let socket = try ListeningSocket.open(host: configuration.host, port: configuration.port)
        let core = ServerCore(
            handler: handler, refusalResponder: refusalResponder, observer: observer,
            isExpensive: isExpensive, configuration: configuration)
        let daemon = try RunningDaemon.start(socket: socket, configuration: configuration, core: core)
        self.port = socket.port
        self.configuration = configuration
        self.core = core
        self.running = Locked(daemon)
    }

    deinit {
        _ = stop(gracePeriod: 0)
    }

    /// Connections open now.
    public var openConnections: Int { core.openConnections.load(ordering: .relaxed) }

    /// Requests read and not yet fully answered.
    public var requestsInFlight: Int { core.inFlight.load(ordering: .relaxed) }

    /// Stops accepting, shuts down the kept-alive connections waiting for a request (nothing
    /// of one read: their clients retry elsewhere), lets every request already under way finish
    /// (a request in flight, or one partly received: their responses close the connection),
    /// then stops the workers. Returns the number of connections still carrying a request when
    /// the grace period ran out, cut short by the stop.
    @discardableResult
    public func stop(gracePeriod: Double) -> Int {
        guard let daemon = running.withLock({ $0.take() }) else { return 0 }
        core.draining.store(true, ordering: .relaxed)
        daemon.quiesce()
        core.connections.beginDraining()
        let unfinished = core.connections.waitUntilClosed(
            deadline: .now + .milliseconds(Int(max(0, gracePeriod) * 1000)))
        daemon.stop()
        return unfinished
    }
}

/// The daemons (one worker thread each, see `ConnectionAcceptor`) and what must outlive them:
/// the socket, the TLS texts, the retained core.
private struct RunningDaemon: ~Copyable {
    let daemons: [OpaquePointer]
    let socket: Int32
    let acceptor: ConnectionAcceptor
    let tlsStrings: [UnsafeMutablePointer<CChar>]
    let core: Unmanaged<ServerCore>
    /// Closes the connections too slow to send their headers (see `ConnectionTable`) and sends
    /// the periodic reports.
    let sweeper: PeriodicTask

    /// Bytes of libmicrohttpd's memory pool per stored header or query parameter: its record
    /// (struct MHD_HTTP_Header, 56 bytes on 64-bit) rounded to the pool's 16-byte alignment.
    static let recordBytes = 64

    /// Each connection's memory pool: libmicrohttpd keeps there the request's head as received
    /// and a record per header and per query parameter, and answers by itself (English HTML,
    /// unlogged) when they do not fit. Sized so that the server's own checks see first every
    /// request within the limits whose header lines average 32 bytes or more (a head of R bytes
    /// then needs R + 2R), up to about 700 headers of any size, and heads up to twice the limit
    /// with a few headers (refused by `Callbacks`, logged and counted); plus a record per allowed
    /// query parameter (more are cut before libmicrohttpd records them, see
    /// `Callbacks.uriLogged`) and 8 KB for the response headers. The cost: libmicrohttpd zeroes
    /// the whole pool between two requests on a connection (MHD_pool_reset), 1.4 µs for the
    /// 63.7 KB of the default limits against 0.4 µs for the 40 KB it had before (memset, best of
    /// 7 × 20,000), and a kept-alive connection holds it all in memory.
    static func poolBytes(_ configuration: HTTPServerConfiguration) -> Int {
        3 * configuration.maxRequestBytes + configuration.maxQueryParameters * recordBytes + 8192
    }

    static func start(
        socket: ListeningSocket, configuration: HTTPServerConfiguration,
        core: ServerCore
    ) throws(HTTPServerError) -> RunningDaemon {
        let threads =
            configuration.threads > 0 ? configuration.threads : max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        // One daemon per worker thread rather than libmicrohttpd's pool, and the listening socket
        // ConnectionAcceptor's, which gives each connection to the daemon with the fewest.
        var flags =
            MHD_USE_EPOLL_INTERNAL_THREAD.rawValue | MHD_USE_ITC.rawValue | MHD_USE_ERROR_LOG.rawValue
            | MHD_USE_NO_LISTEN_SOCKET.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue
        var tlsStrings: [UnsafeMutablePointer<CChar>] = []
        if let tls = configuration.tls {
            flags |= MHD_USE_TLS.rawValue
            tlsStrings = [strdup(tls.privateKeyPEM), strdup(tls.certificatePEM), strdup(tls.priorities)]
        }
        let retained = Unmanaged.passRetained(core)
        let context = retained.toOpaque()
        // The per-address limit is the accept policy's (see `ConnectionTable`); libmicrohttpd's
        // own, which logs every refusal, is a backstop behind it. Likewise the connection limit,
        // which the acceptor keeps for all the daemons together (over it by the connections on
        // their way out to make room, `ConnectionAcceptor.maxEvicting` at most).
        let backstopPerAddress =
            configuration.maxConnectionsPerAddress > 0 ? configuration.maxConnectionsPerAddress + threads : 0
        // The logger first: libmicrohttpd sends messages about the options before it to stderr.
        var options: [MHD_OptionItem] = [
            MHD_OptionItem(
                option: .EXTERNAL_LOGGER, value: functionAddress(Callbacks.libraryMessage),
                ptr_value: context),
            MHD_OptionItem(
                option: .CONNECTION_LIMIT, value: configuration.maxConnections + ConnectionAcceptor.maxEvicting,
                ptr_value: nil),
            MHD_OptionItem(option: .PER_IP_CONNECTION_LIMIT, value: backstopPerAddress, ptr_value: nil),
            MHD_OptionItem(option: .CONNECTION_TIMEOUT, value: configuration.connectionTimeout, ptr_value: nil),
            MHD_OptionItem(option: .CONNECTION_MEMORY_LIMIT, value: poolBytes(configuration), ptr_value: nil),
            MHD_OptionItem(option: .URI_LOG_CALLBACK, value: functionAddress(Callbacks.uriLogged), ptr_value: context),
            MHD_OptionItem(
                option: .NOTIFY_CONNECTION, value: functionAddress(Callbacks.connectionNotified),
                ptr_value: context),
            MHD_OptionItem(
                option: .NOTIFY_COMPLETED, value: functionAddress(Callbacks.requestCompleted),
                ptr_value: context),
        ]
        // Debian 13's libmicrohttpd 1.0 parses at the strictest level it has: one 400 and the
        // connection closed for a header line with an empty name, `Content-Length: 0, 5` and the
        // like. Debian 12's 0.9.75 has no such level; RequestChecks refuses there what it can
        // see (the tests of both say which answer each version gives).
        var strictParsing = MHD_OptionItem()
        if cmhd_strictest_parsing(&strictParsing) > 0 { options.append(strictParsing) }
        if tlsStrings.count == 3 {
            options.append(
                MHD_OptionItem(option: .HTTPS_MEM_KEY, value: 0, ptr_value: UnsafeMutableRawPointer(tlsStrings[0])))
            options.append(
                MHD_OptionItem(option: .HTTPS_MEM_CERT, value: 0, ptr_value: UnsafeMutableRawPointer(tlsStrings[1])))
            options.append(
                MHD_OptionItem(option: .HTTPS_PRIORITIES, value: 0, ptr_value: UnsafeMutableRawPointer(tlsStrings[2])))
        }
        options.append(MHD_OptionItem(option: .END, value: 0, ptr_value: nil))

        var daemons: [OpaquePointer] = []
        func undo() {
            core.finishExpensive()
            for daemon in daemons { MHD_stop_daemon(daemon) }
            retained.release()
            for string in tlsStrings { free(string) }
            closeDiscardingError(socket.descriptor)
        }
        for _ in 0..<threads {
            let started = options.withUnsafeBufferPointer {
                cmhd_start_daemon(
                    UInt32(flags), Callbacks.acceptPolicy, context, Callbacks.access, context, $0.baseAddress)
            }
            guard let started else {
                undo()
                throw configuration.tls == nil ? .startFailed : .tlsCredentialsRejected
            }
            daemons.append(started)
        }
        core.workers.serve(daemons, limit: configuration.maxConnections)
        let acceptor: ConnectionAcceptor
        do {
            acceptor = try ConnectionAcceptor(socket: socket.descriptor, core: core)
        } catch {
            undo()
            throw error
        }
        let interval = Duration.milliseconds(min(1000, max(250, configuration.connectionTimeout * 250)))
        let reportInterval = configuration.reportInterval
        let sweeper = PeriodicTask(name: "http-server.sweeper", interval: interval) { [core] in
            core.connections.sweep()
            if let refused = core.connections.refusalsToReport(interval: .seconds(reportInterval)) {
                core.observer.connectionsRefused(refused, reportInterval)
            }
            if let evicted = core.connections.evictionsToReport(interval: .seconds(reportInterval)) {
                core.observer.connectionsEvicted(evicted, reportInterval)
            }
            for (message, count) in core.messages.due() {
                core.observer.repeatedLibraryMessage(message, count)
            }
        }
        return RunningDaemon(
            daemons: daemons, socket: socket.descriptor, acceptor: acceptor, tlsStrings: tlsStrings, core: retained,
            sweeper: sweeper)
    }

    /// Stops accepting: the listening socket is closed.
    func quiesce() {
        acceptor.stop()
        closeDiscardingError(socket)
    }

    consuming func stop() {
        sweeper.stop()
        // Every suspended connection resumed first: MHD_stop_daemon aborts the process otherwise.
        core.takeUnretainedValue().finishExpensive()
        for daemon in daemons { MHD_stop_daemon(daemon) }
        for string in tlsStrings { free(string) }
        core.release()
    }

    private static func functionAddress<F>(_ function: F) -> Int {
        Int(bitPattern: unsafeBitCast(function, to: UnsafeRawPointer.self))
    }
}

/// The state libmicrohttpd's callbacks reach through their context pointer.
final class ServerCore: Sendable {
    let handler: HTTPHandler
    let refusalResponder: HTTPRefusalResponder
    let observer: HTTPServerObserver
    let inFlight = Atomic<Int>(0)
    let openConnections = Atomic<Int>(0)
    /// Set once stopping: responses then close their connection.
    let draining = Atomic<Bool>(false)
    let maxRequestBytes: Int
    let maxQueryParameters: Int
    /// Plain TCP: a refusal libmicrohttpd has no memory left to send can be written on the socket
    /// (`DirectAnswer`).
    let plainSockets: Bool
    /// Worker threads whose connection the layer just closed itself (answered by `DirectAnswer`,
    /// or its client gone before its expensive request was handled), for the message
    /// libmicrohttpd then logs about the handler's refusal to go on.
    let answeredDirectly = Locked<Set<UInt>>([])
    /// Sockets whose head libmicrohttpd found no room for, answered by `DirectAnswer` and counted
    /// then: not counted again as libmicrohttpd's own refusal. Until the connection closes.
    let headsAnsweredDirectly = Locked<Set<Int32>>([])
    let connections: ConnectionTable
    let messages: MessageThrottle
    let workers = WorkerLoad()
    let isExpensive: (@Sendable (HTTPRequest) -> Bool)?
    let expensive: ExpensiveRequests?

    init(
        handler: @escaping HTTPHandler, refusalResponder: @escaping HTTPRefusalResponder, observer: HTTPServerObserver,
        isExpensive: (@Sendable (HTTPRequest) -> Bool)?, configuration: HTTPServerConfiguration
    ) {
        self.handler = handler
        self.refusalResponder = refusalResponder
        self.observer = observer
        self.isExpensive = isExpensive
        let cores = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        expensive =
            isExpensive == nil
            ? nil
            : ExpensiveRequests(
                threads: configuration.expensiveThreads > 0 ? configuration.expensiveThreads : max(1, cores / 2),
                capacity: configuration.expensiveQueue, handler: handler,
                abandoned: { request in observer.requestRefused(request.method, 499, 0) })
        maxRequestBytes = configuration.maxRequestBytes
        maxQueryParameters = configuration.maxQueryParameters
        plainSockets = configuration.tls == nil
        connections = ConnectionTable(
            headerSeconds: configuration.connectionTimeout,
            maxPerAddress: configuration.maxConnectionsPerAddress)
        messages = MessageThrottle(interval: .seconds(configuration.reportInterval))
    }
}

extension ServerCore {
    /// Seconds a client refused as `overloaded` is told to wait.
    static let retryAfterSeconds = 1

    /// The expensive requests' threads stopped, every connection they had resumed.
    func finishExpensive() {
        expensive?.finish { [refusalResponder] request in
            var response = refusalResponder(HTTPRefusal(.overloaded(retryAfter: Self.retryAfterSeconds)), request)
            response.headers += [("Retry-After", String(Self.retryAfterSeconds)), ("Connection", "close")]
            return response
        }
    }
}

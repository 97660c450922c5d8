import CMicroHTTPD
import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// What the server tells its owner about, for metrics and logs. Called on worker threads.
public struct HTTPServerObserver: Sendable {
    public var connectionOpened: @Sendable () -> Void
    public var connectionClosed: @Sendable () -> Void
    /// A message from libmicrohttpd itself. Only its format string is passed on, never the
    /// values, which could hold a client's URI or headers.
    public var libraryMessage: @Sendable (String) -> Void
    /// A request answered by the server itself, never shown to the handler (413, 414, 431):
    /// its method, status and body size.
    public var requestRefused: @Sendable (_ method: String, _ status: Int, _ bytes: Int) -> Void

    public init(connectionOpened: @escaping @Sendable () -> Void = {}, connectionClosed: @escaping @Sendable () -> Void = {},
                libraryMessage: @escaping @Sendable (String) -> Void = { _ in },
                requestRefused: @escaping @Sendable (_ method: String, _ status: Int, _ bytes: Int) -> Void = { _, _, _ in }) {
        self.connectionOpened = connectionOpened
        self.connectionClosed = connectionClosed
        self.libraryMessage = libraryMessage
        self.requestRefused = requestRefused
    }
}

/// An HTTP/1.1 server on libmicrohttpd: a pool of worker threads with epoll, each request
/// answered by a plain function of the request on the thread that read it.
public final class HTTPServer: Sendable {
    /// The port actually listened on (useful with port 0).
    public let port: Int
    public let configuration: HTTPServerConfiguration
    private let core: ServerCore
    private let running: Mutex<RunningDaemon?>

    /// Opens the socket and starts the workers; the server answers as soon as this returns.
    public init(configuration: HTTPServerConfiguration, observer: HTTPServerObserver = HTTPServerObserver(),
                handler: @escaping HTTPHandler) throws(HTTPServerError) {
        guard configuration.maxConnections > 0, configuration.maxConnectionsPerAddress >= 0,
              configuration.connectionTimeout > 0, configuration.maxRequestBytes >= 1024 else {
            throw HTTPServerError("limites invalides : connexions > 0, par adresse ≥ 0, délai > 0 s, taille de requête ≥ 1024 octets.")
        }
        if configuration.tls != nil, MHD_is_feature_supported(.FEATURE_TLS) != .YES {
            throw HTTPServerError("cette libmicrohttpd n’a pas été compilée avec TLS (GnuTLS).")
        }
        let socket = try ListeningSocket.open(host: configuration.host, port: configuration.port)
        let core = ServerCore(handler: handler, observer: observer, maxRequestBytes: configuration.maxRequestBytes,
                              headerSeconds: configuration.connectionTimeout)
        let daemon = try RunningDaemon.start(socket: socket, configuration: configuration, core: core)
        self.port = socket.port
        self.configuration = configuration
        self.core = core
        self.running = Mutex(daemon)
    }

    deinit {
        _ = stop(gracePeriod: 0)
    }

    /// Connections open now.
    public var openConnections: Int { core.openConnections.load(ordering: .relaxed) }

    /// Requests read and not yet fully answered.
    public var requestsInFlight: Int { core.inFlight.load(ordering: .relaxed) }

    /// Stops accepting, lets the requests in flight finish (their responses close the
    /// connection), then stops the workers. Returns the number of requests still unfinished
    /// when the grace period ran out, cut short by the stop.
    @discardableResult
    public func stop(gracePeriod: Double) -> Int {
        guard let daemon = running.withLock({ $0.take() }) else { return 0 }
        core.draining.store(true, ordering: .relaxed)
        daemon.quiesce()
        var waited = 0.0
        while core.inFlight.load(ordering: .relaxed) > 0, waited < gracePeriod {
            usleep(5_000)
            waited += 0.005
        }
        let unfinished = core.inFlight.load(ordering: .relaxed)
        daemon.stop()
        return unfinished
    }
}

/// The daemon and what must outlive it: the socket, the TLS texts, the retained core.
private struct RunningDaemon: ~Copyable {
    let daemon: OpaquePointer
    let socket: Int32
    let tlsStrings: [UnsafeMutablePointer<CChar>]
    let core: Unmanaged<ServerCore>
    /// Closes the connections too slow to send their headers (see `HeaderDeadlines`).
    let sweeper: DispatchSourceTimer

    static func start(socket: ListeningSocket, configuration: HTTPServerConfiguration,
                      core: ServerCore) throws(HTTPServerError) -> RunningDaemon {
        let threads = configuration.threads > 0 ? configuration.threads : max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        var flags = MHD_USE_EPOLL_INTERNAL_THREAD.rawValue | MHD_USE_ITC.rawValue | MHD_USE_ERROR_LOG.rawValue
        var tlsStrings: [UnsafeMutablePointer<CChar>] = []
        if let tls = configuration.tls {
            flags |= MHD_USE_TLS.rawValue
            tlsStrings = [strdup(tls.privateKeyPEM), strdup(tls.certificatePEM)]
        }
        let retained = Unmanaged.passRetained(core)
        let context = retained.toOpaque()
        // The logger first: libmicrohttpd sends messages about the options before it to stderr.
        var options: [MHD_OptionItem] = [
            MHD_OptionItem(option: .EXTERNAL_LOGGER, value: functionAddress(Callbacks.libraryMessage),
                           ptr_value: context),
            MHD_OptionItem(option: .LISTEN_SOCKET, value: Int(socket.descriptor), ptr_value: nil),
            MHD_OptionItem(option: .THREAD_POOL_SIZE, value: threads, ptr_value: nil),
            MHD_OptionItem(option: .CONNECTION_LIMIT, value: configuration.maxConnections, ptr_value: nil),
            MHD_OptionItem(option: .PER_IP_CONNECTION_LIMIT, value: configuration.maxConnectionsPerAddress, ptr_value: nil),
            MHD_OptionItem(option: .CONNECTION_TIMEOUT, value: configuration.connectionTimeout, ptr_value: nil),
            // Room for twice the limit and the response headers, so that requests just over the
            // limit are refused by `Callbacks` (logged, counted) rather than by libmicrohttpd.
            MHD_OptionItem(option: .CONNECTION_MEMORY_LIMIT, value: 2 * configuration.maxRequestBytes + 8192, ptr_value: nil),
            MHD_OptionItem(option: .NOTIFY_CONNECTION, value: functionAddress(Callbacks.connectionNotified),
                           ptr_value: context),
            MHD_OptionItem(option: .NOTIFY_COMPLETED, value: functionAddress(Callbacks.requestCompleted),
                           ptr_value: context),
        ]
        if tlsStrings.count == 2 {
            options.append(MHD_OptionItem(option: .HTTPS_MEM_KEY, value: 0, ptr_value: UnsafeMutableRawPointer(tlsStrings[0])))
            options.append(MHD_OptionItem(option: .HTTPS_MEM_CERT, value: 0, ptr_value: UnsafeMutableRawPointer(tlsStrings[1])))
        }
        options.append(MHD_OptionItem(option: .END, value: 0, ptr_value: nil))

        let started = options.withUnsafeBufferPointer {
            cmhd_start_daemon(UInt32(flags), Callbacks.access, context, $0.baseAddress)
        }
        guard let started else {
            retained.release()
            tlsStrings.forEach { free($0) }
            close(socket.descriptor)
            throw HTTPServerError(configuration.tls == nil
                ? "libmicrohttpd n’a pas pu démarrer (threads ou mémoire insuffisants ?)."
                : "libmicrohttpd n’a pas pu démarrer : certificat ou clé TLS illisible, ou qui ne vont pas ensemble.")
        }
        let sweeper = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "http-server.header-deadlines"))
        let interval = DispatchTimeInterval.milliseconds(min(1000, max(250, configuration.connectionTimeout * 250)))
        sweeper.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(100))
        let deadlines = core.deadlines
        sweeper.setEventHandler { deadlines.sweep() }
        sweeper.resume()
        return RunningDaemon(daemon: started, socket: socket.descriptor, tlsStrings: tlsStrings, core: retained,
                             sweeper: sweeper)
    }

    /// Stops accepting: the listening socket leaves the workers and is closed.
    func quiesce() {
        let descriptor = MHD_quiesce_daemon(daemon)
        close(descriptor >= 0 ? descriptor : socket)
    }

    consuming func stop() {
        sweeper.cancel()
        MHD_stop_daemon(daemon)
        tlsStrings.forEach { free($0) }
        core.release()
    }

    private static func functionAddress<F>(_ function: F) -> Int {
        Int(bitPattern: unsafeBitCast(function, to: UnsafeRawPointer.self))
    }
}

/// The state libmicrohttpd's callbacks reach through their context pointer.
final class ServerCore: Sendable {
    let handler: HTTPHandler
    let observer: HTTPServerObserver
    let inFlight = Atomic<Int>(0)
    let openConnections = Atomic<Int>(0)
    /// Set once stopping: responses then close their connection.
    let draining = Atomic<Bool>(false)
    let maxRequestBytes: Int
    let deadlines: HeaderDeadlines

    init(handler: @escaping HTTPHandler, observer: HTTPServerObserver, maxRequestBytes: Int, headerSeconds: Int) {
        self.handler = handler
        self.observer = observer
        self.maxRequestBytes = maxRequestBytes
        self.deadlines = HeaderDeadlines(seconds: headerSeconds)
    }
}

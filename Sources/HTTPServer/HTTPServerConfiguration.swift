/// Where and how the server listens, and the limits that keep one client from starving others.
public struct HTTPServerConfiguration: Sendable, Equatable {
    /// An address or host name; `0.0.0.0` or `::` for every interface.
    public var host: String
    /// 0 asks the system for a free port (see `HTTPServer.port`).
    public var port: Int
    /// Worker threads, each with its own epoll loop; 0 means one per core.
    public var threads: Int
    /// Open connections in all; more are refused at accept.
    public var maxConnections: Int
    /// Open connections from one address; 0 means no limit.
    public var maxConnectionsPerAddress: Int
    /// Seconds a connection may stay idle (keep-alive or a slow client) before it is closed.
    public var connectionTimeout: Int
    /// Bytes for the decoded URI, and for the headers, of one request: more gets 414 or 431.
    /// libmicrohttpd itself refuses raw requests over about twice this size.
    public var maxRequestBytes: Int
    /// Query parameters of one request: more gets 414. libmicrohttpd keeps a record of each in
    /// the connection's memory, which is sized for this many.
    public var maxQueryParameters: Int
    /// Seconds between two log reports of the same kind of event (connections refused, a
    /// repeated libmicrohttpd message): one line per interval, with a count, however many.
    public var reportInterval: Int
    /// HTTPS when set, through libmicrohttpd's GnuTLS.
    public var tls: TLSCredentials?
    /// Threads for the requests the owner marks as expensive (`HTTPServer.init`'s
    /// `isExpensive`, see `ExpensiveRequests`); 0 means half the cores, at least one.
    public var expensiveThreads: Int
    /// Expensive requests that may wait for one of those threads; more get 503 at once.
    public var expensiveQueue: Int

    /// The limits have no default here: the owner's configuration holds them, once (the service's
    /// are `ServerSettings.defaults`). The two without a configuration key keep theirs.
    public init(
        host: String, port: Int, threads: Int, maxConnections: Int, maxConnectionsPerAddress: Int,
        connectionTimeout: Int, maxRequestBytes: Int, maxQueryParameters: Int = 100, reportInterval: Int = 10,
        tls: TLSCredentials? = nil, expensiveThreads: Int = 0, expensiveQueue: Int = 64
    ) {
        self.host = host
        self.port = port
        self.threads = threads
        self.maxConnections = maxConnections
        self.maxConnectionsPerAddress = maxConnectionsPerAddress
        self.connectionTimeout = connectionTimeout
        self.maxRequestBytes = maxRequestBytes
        self.maxQueryParameters = maxQueryParameters
        self.reportInterval = reportInterval
        self.tls = tls
        self.expensiveThreads = expensiveThreads
        self.expensiveQueue = expensiveQueue
    }
}

/// A certificate chain and its private key, both PEM text, and what TLS the server speaks.
public struct TLSCredentials: Sendable, Equatable {
    public var certificatePEM: String
    public var privateKeyPEM: String
    /// GnuTLS priorities (MHD_OPTION_HTTPS_PRIORITIES).
    public var priorities: String

    /// Mozilla's "intermediate" configuration as GnuTLS priorities: TLS 1.2 and 1.3 only;
    /// AES-GCM and ChaCha20-Poly1305 (no CBC, no CCM); ECDHE, or DHE with RSA, for TLS 1.2;
    /// the groups X25519, P-256, P-384 and ffdhe2048 (no X448, no P-521); the server's order.
    /// Without it, libmicrohttpd 0.9.75 with GnuTLS 3.7 accepted TLS 1.0 and 1.1, CBC and CCM
    /// suites, X448 and P-521 from a client that offered them (gnutls-cli, each alone).
    public static let intermediatePriorities =
        "NORMAL:-VERS-ALL:+VERS-TLS1.3:+VERS-TLS1.2:-CIPHER-ALL:+AES-128-GCM:+AES-256-GCM:+CHACHA20-POLY1305"
        + ":-MAC-ALL:+AEAD:-KX-ALL:+ECDHE-ECDSA:+ECDHE-RSA:+DHE-RSA"
        + ":-GROUP-ALL:+GROUP-X25519:+GROUP-SECP256R1:+GROUP-SECP384R1:+GROUP-FFDHE2048:%SERVER_PRECEDENCE"

    public init(
        certificatePEM: String, privateKeyPEM: String, priorities: String = TLSCredentials.intermediatePriorities
    ) {
        self.certificatePEM = certificatePEM
        self.privateKeyPEM = privateKeyPEM
        self.priorities = priorities
    }
}

/// Why the server could not start. The owner words it for its users; `description` is English.
public enum HTTPServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A limit out of range: connections > 0, per address ≥ 0, timeout > 0 s, request size ≥ 1024
    /// bytes, query parameters ≥ 1, report interval ≥ 1 s, expensive threads ≥ 0, queue ≥ 0.
    case invalidLimits
    /// A port outside 0...65535.
    case invalidPort(Int)
    /// The host name did not resolve; `reason` is the resolver's (gai_strerror).
    case unknownHost(host: String, reason: String)
    /// Another program listens on that port.
    case addressInUse(host: String, port: Int)
    /// The system refused the port (below 1024 without the right).
    case permissionDenied(host: String, port: Int)
    /// The address belongs to no interface of this machine.
    case addressNotAvailable(host: String, port: Int)
    /// Another failure of socket, bind or listen; `reason` is strerror's.
    case listenFailed(host: String, port: Int, reason: String)
    /// TLS asked of a libmicrohttpd built without it.
    case tlsUnsupported
    /// libmicrohttpd refused the certificate or the key (unreadable, or not a pair).
    case tlsCredentialsRejected
    /// libmicrohttpd could not start (threads or memory).
    case startFailed

    public var description: String {
        switch self {
        case .invalidLimits:
            "invalid limits: connections > 0, per address >= 0, timeout > 0 s, request size >= 1024 bytes, query parameters >= 1, report interval >= 1 s, expensive threads >= 0, expensive queue >= 0"
        case .invalidPort(let port): "invalid port \(port): 0 to 65535 expected"
        case .unknownHost(let host, let reason): "unknown listening address \(host): \(reason)"
        case .addressInUse(let host, let port): "cannot listen on \(host):\(port): port already in use"
        case .permissionDenied(let host, let port): "cannot listen on \(host):\(port): permission denied"
        case .addressNotAvailable(let host, let port): "cannot listen on \(host):\(port): address not on this machine"
        case .listenFailed(let host, let port, let reason): "cannot listen on \(host):\(port): \(reason)"
        case .tlsUnsupported: "this libmicrohttpd was built without TLS (GnuTLS)"
        case .tlsCredentialsRejected: "libmicrohttpd could not start: TLS certificate or key unreadable, or not a pair"
        case .startFailed: "libmicrohttpd could not start (threads or memory)"
        }
    }
}

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
    /// HTTPS when set, through libmicrohttpd's GnuTLS.
    public var tls: TLSCredentials?

    public init(host: String = "127.0.0.1", port: Int = 8080, threads: Int = 0, maxConnections: Int = 1024,
                maxConnectionsPerAddress: Int = 128, connectionTimeout: Int = 15, maxRequestBytes: Int = 16384,
                tls: TLSCredentials? = nil) {
        self.host = host
        self.port = port
        self.threads = threads
        self.maxConnections = maxConnections
        self.maxConnectionsPerAddress = maxConnectionsPerAddress
        self.connectionTimeout = connectionTimeout
        self.maxRequestBytes = maxRequestBytes
        self.tls = tls
    }
}

/// A certificate chain and its private key, both PEM text.
public struct TLSCredentials: Sendable, Equatable {
    public var certificatePEM: String
    public var privateKeyPEM: String

    public init(certificatePEM: String, privateKeyPEM: String) {
        self.certificatePEM = certificatePEM
        self.privateKeyPEM = privateKeyPEM
    }
}

/// Why the server could not start.
public struct HTTPServerError: Error, Sendable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) { self.description = description }
}

import Foundation

/// The `server` object of `config.json`: where `attestation-server` listens and its limits.
/// Every key is optional; `defaults` lists the values used when one is absent.
public struct ServerSettings: Codable, Sendable, Equatable {
    public var host: String?
    public var port: Int?
    /// Worker threads; 0 means one per core.
    public var threads: Int?
    public var maxConnections: Int?
    public var maxConnectionsPerAddress: Int?
    /// Seconds before an idle or stalled connection is closed.
    public var connectionTimeout: Int?
    /// Bytes allowed for a request line and its headers.
    public var maxRequestBytes: Int?
    /// Seconds given to requests in flight on SIGTERM before the server stops anyway.
    public var shutdownTimeout: Int?
    /// A static site replacing the one built into the server (the personal page and its files);
    /// relative to the configuration file. When given it must exist and hold `index.html`.
    public var publicDirectory: String?
    /// PEM files for HTTPS; both or neither.
    public var tls: TLSFiles?
    public var logLevel: LogLevel?
    public var logFormat: LogFormat?
    /// Reload when the configuration, the revocation list or a form changes on disk, without
    /// waiting for SIGHUP. Off for administrators who edit several files and apply them at once.
    public var reloadOnChange: Bool?
    /// The addresses `/metrics` answers (IP addresses or CIDR prefixes); 403 for any other.
    public var metricsFrom: [String]?

    public struct TLSFiles: Codable, Sendable, Equatable {
        public var certificate: String
        public var privateKey: String

        public init(certificate: String, privateKey: String) {
            self.certificate = certificate
            self.privateKey = privateKey
        }
    }

    public init() {}

    public static let defaults = ResolvedServerSettings(
        host: "127.0.0.1", port: 8080, threads: 0, maxConnections: 1024, maxConnectionsPerAddress: 128,
        connectionTimeout: 15, maxRequestBytes: 16384, shutdownTimeout: 10, publicDirectory: nil,
        tls: nil, logLevel: .info, logFormat: .text, reloadOnChange: true, metricsFrom: ["127.0.0.0/8", "::1"])

    /// Every value with its default filled in.
    public var resolved: ResolvedServerSettings {
        let d = Self.defaults
        return ResolvedServerSettings(
            host: host ?? d.host, port: port ?? d.port, threads: threads ?? d.threads,
            maxConnections: maxConnections ?? d.maxConnections,
            maxConnectionsPerAddress: maxConnectionsPerAddress ?? d.maxConnectionsPerAddress,
            connectionTimeout: connectionTimeout ?? d.connectionTimeout,
            maxRequestBytes: maxRequestBytes ?? d.maxRequestBytes,
            shutdownTimeout: shutdownTimeout ?? d.shutdownTimeout, publicDirectory: publicDirectory,
            tls: tls, logLevel: logLevel ?? d.logLevel, logFormat: logFormat ?? d.logFormat,
            reloadOnChange: reloadOnChange ?? d.reloadOnChange, metricsFrom: metricsFrom ?? d.metricsFrom)
    }

    struct Invalid: Error {
        let path: String
        let message: String
    }

    func validate() throws(Invalid) {
        let r = resolved
        func check(_ ok: Bool, _ path: String, _ message: String) throws(Invalid) {
            if !ok { throw Invalid(path: path, message: message) }
        }
        try check(!r.host.isEmpty, "host", "adresse vide ; par exemple 127.0.0.1, 0.0.0.0 ou ::.")
        try check((0...65535).contains(r.port), "port", "de 0 à 65535 attendu (0 : un port libre au hasard).")
        try check((0...256).contains(r.threads), "threads", "de 0 à 256 attendu (0 : un par cœur).")
        try check((1...1_000_000).contains(r.maxConnections), "maxConnections", "de 1 à 1000000 attendu.")
        try check(
            (0...1_000_000).contains(r.maxConnectionsPerAddress), "maxConnectionsPerAddress",
            "de 0 à 1000000 attendu (0 : sans limite).")
        try check((1...3600).contains(r.connectionTimeout), "connectionTimeout", "de 1 à 3600 secondes attendu.")
        try check(
            (4096...1_048_576).contains(r.maxRequestBytes), "maxRequestBytes", "de 4096 à 1048576 octets attendu.")
        try check((0...3600).contains(r.shutdownTimeout), "shutdownTimeout", "de 0 à 3600 secondes attendu.")
    }
}

/// Server settings with every default applied; command-line options override some of them.
public struct ResolvedServerSettings: Sendable, Equatable {
    public var host: String
    public var port: Int
    public var threads: Int
    public var maxConnections: Int
    public var maxConnectionsPerAddress: Int
    public var connectionTimeout: Int
    public var maxRequestBytes: Int
    public var shutdownTimeout: Int
    /// nil: the site built into the server.
    public var publicDirectory: String?
    public var tls: ServerSettings.TLSFiles?
    public var logLevel: LogLevel
    public var logFormat: LogFormat
    public var reloadOnChange: Bool
    public var metricsFrom: [String]
}

extension ServiceState {
    /// The server settings of the configuration, defaults applied.
    public var serverSettings: ResolvedServerSettings { (configuration.server ?? ServerSettings()).resolved }
}

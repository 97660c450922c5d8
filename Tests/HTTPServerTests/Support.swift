import HTTPServer

extension HTTPServerConfiguration {
    /// A server on loopback with ordinary limits, each test changing the one it is about.
    static func forTests(
        host: String = "127.0.0.1", port: Int = 0, threads: Int = 0, maxConnections: Int = 1024,
        maxConnectionsPerAddress: Int = 128, connectionTimeout: Int = 15, maxRequestBytes: Int = 16384,
        maxQueryParameters: Int = 100, reportInterval: Int = 10
    ) -> HTTPServerConfiguration {
        HTTPServerConfiguration(
            host: host, port: port, threads: threads, maxConnections: maxConnections,
            maxConnectionsPerAddress: maxConnectionsPerAddress, connectionTimeout: connectionTimeout,
            maxRequestBytes: maxRequestBytes, maxQueryParameters: maxQueryParameters,
            reportInterval: reportInterval)
    }
}

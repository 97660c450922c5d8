import AttestationConfiguration
import Foundation
import HTTPServer

extension ServiceState {
    /// What `HTTPServer` needs, with the TLS files read.
    public func httpConfiguration(
        _ settings: ResolvedServerSettings
    ) throws(ConfigurationError) -> HTTPServerConfiguration {
        var tls: TLSCredentials?
        if let files = settings.tls {
            func read(_ path: String, key: String) throws(ConfigurationError) -> String {
                let url = resolve(path)
                guard let text = try? String(contentsOf: url, encoding: .utf8), text.contains("-----BEGIN ") else {
                    throw ConfigurationError(
                        source: configurationFile.path, path: "server.tls.\(key)",
                        message: "\(url.path) introuvable, illisible ou pas au format PEM.")
                }
                return text
            }
            tls = TLSCredentials(
                certificatePEM: try read(files.certificate, key: "certificate"),
                privateKeyPEM: try read(files.privateKey, key: "privateKey"))
        }
        return HTTPServerConfiguration(
            host: settings.host, port: settings.port, threads: settings.threads,
            maxConnections: settings.maxConnections,
            maxConnectionsPerAddress: settings.maxConnectionsPerAddress, connectionTimeout: settings.connectionTimeout,
            maxRequestBytes: settings.maxRequestBytes, tls: tls)
    }
}

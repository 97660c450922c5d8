import AttestationConfiguration
import AttestationKit
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

    /// `server.metricsFrom` read: the addresses `/metrics` answers.
    public func metricsAddresses(_ settings: ResolvedServerSettings) throws(ConfigurationError) -> [AddressRange] {
        var ranges: [AddressRange] = []
        for (index, text) in settings.metricsFrom.enumerated() {
            guard let range = AddressRange(text) else {
                throw ConfigurationError(
                    source: configurationFile.path, path: "server.metricsFrom[\(index)]",
                    message:
                        "\(VisibleText.quoted(text)) n’est ni une adresse IP ni un préfixe CIDR ; par exemple 127.0.0.0/8, ::1 ou 10.0.0.0/8."
                )
            }
            ranges.append(range)
        }
        return ranges
    }
}

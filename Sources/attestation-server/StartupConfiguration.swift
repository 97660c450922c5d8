import AttestationConfiguration
import AttestationService
import Foundation
import HTTPServer
import Logging

/// The configuration the server starts with: the files loaded, the command line's options put
/// over their server settings, and how to load the files again for a reload.
struct StartupConfiguration {
    /// The options that take the place of a server setting.
    struct Overrides {
        var host: String?
        var port: Int?
        var logLevel: LogLevel?
        var logFormat: LogFormat?
    }

    let snapshot: ServiceSnapshot
    let settings: ResolvedServerSettings
    let http: HTTPServerConfiguration
    /// Loads the files again, as at start; a reload keeps the command line's options.
    let load: () throws(ConfigurationError) -> ServiceSnapshot

    /// - Parameter publicDirectory: `--public-directory`, relative to the working directory.
    init(file: String, publicDirectory: String?, overrides: Overrides) throws(ConfigurationError) {
        let configurationFile = URL(fileURLWithPath: file).standardizedFileURL
        load = { () throws(ConfigurationError) -> ServiceSnapshot in
            let snapshot = try ServiceSnapshot.load(
                configurationFile: configurationFile, publicDirectory: publicDirectory)
            // The forms in force now, laid out here rather than by the first request (a built-in
            // form is laid out on its first use). One that cannot be is a defect of the build,
            // which RenderingTests catch; a request for it then answers the error.
            let inForce = snapshot.state.calendar.version(at: Date())?.forms.map(\.id) ?? []
            try? snapshot.renderer.prepareLayouts(of: inForce)
            return snapshot
        }
        snapshot = try load()
        var settings = snapshot.settings
        settings.host = overrides.host ?? settings.host
        settings.port = overrides.port ?? settings.port
        settings.logLevel = overrides.logLevel ?? settings.logLevel
        settings.logFormat = overrides.logFormat ?? settings.logFormat
        self.settings = settings
        http = try snapshot.state.httpConfiguration(settings)
    }

    /// What `--check-config` writes.
    var summary: String {
        let state = snapshot.state
        return """
            Configuration valide : \(state.configurationFile.path)
              clés publiques : \(state.keys.keys.count) ; liens révoqués : \(state.revoked.ids.count)
              formulaires : \(state.catalog.forms.map(\.id).joined(separator: ", "))
              décalage accepté : de \(state.bounds.minimum) à +\(state.bounds.maximum) minutes
              site statique : \(snapshot.siteOrigin) (\(snapshot.publicFiles.files.count) chemins)
              écoute : \(http.tls == nil ? "http" : "https") sur \(settings.host):\(settings.port), \(settings.threads == 0 ? "un thread par cœur" : "\(settings.threads) threads")
            """
    }

    /// The static site's files that are not served, for the operator to see at start.
    func logFilesLeftOut(logger: Logger) {
        for skipped in snapshot.publicFiles.skipped {
            logger.warning(
                "static file left out (link outside the directory, unreadable or too large)",
                metadata: ["path": .string(skipped)])
        }
    }
}

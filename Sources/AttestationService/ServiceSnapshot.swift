import AttestationConfiguration
import AttestationKit
import Foundation
import HTTPServer
import LinkTokens
import Rendering

/// Everything a request reads, loaded together from the configuration: links are checked,
/// documents drawn and files served from one consistent version. A reload builds a new one
/// and swaps it in whole, or keeps the old one.
public struct ServiceSnapshot: Sendable {
    public let state: ServiceState
    public let renderer: AttestationRenderer
    public let publicFiles: PublicFiles
    public let settings: ResolvedServerSettings
    /// `server.metricsFrom`: the addresses `/metrics` answers.
    public let metricsFrom: [AddressRange]

    /// - Parameter publicDirectory: a site on disk replacing the configuration's `server.publicDirectory`
    ///   and the built-in one (a path from the working directory: `--public-directory`).
    /// The same snapshot with `ids` revoked too (see `Service.reload`).
    func revoking(_ ids: Set<LinkID>) -> ServiceSnapshot {
        ServiceSnapshot(
            state: state.revoking(ids), renderer: renderer, publicFiles: publicFiles, settings: settings,
            metricsFrom: metricsFrom)
    }

    public static func load(
        configurationFile: URL, publicDirectory: String? = nil,
        unicodeFontPath: String = AttestationRenderer.defaultUnicodeFontPath
    ) throws(ConfigurationError) -> ServiceSnapshot {
        var state = try ServiceState.load(configurationFile: configurationFile)
        let renderer: AttestationRenderer
        do { renderer = try AttestationRenderer(forms: state.catalog.forms, unicodeFontPath: unicodeFontPath) } catch {
            // A form's own file (a picture that does not decode, a font HarfBuzz cannot read):
            // the error names the form's JSON file, as its load errors do.
            if case .layout(let form, _) = error, let file = state.catalog.sourceFiles[form] {
                throw ConfigurationError(source: file, path: "", message: error.description)
            }
            throw ConfigurationError(source: configurationFile.path, path: "formsDirectory", message: error.description)
        }
        var settings = state.serverSettings
        if let publicDirectory {
            settings.publicDirectory = URL(fileURLWithPath: publicDirectory).standardizedFileURL.path
        }
        var site = PublicFiles.builtIn
        if let path = settings.publicDirectory {
            let directory = state.resolve(path)
            // A site named explicitly is what the administrator means to serve: a wrong path must
            // not quietly serve the built-in one, nor an empty one.
            guard FileManager.default.fileExists(atPath: directory.appendingPathComponent("index.html").path) else {
                throw ConfigurationError(
                    source: publicDirectory == nil ? configurationFile.path : "--public-directory",
                    path: publicDirectory == nil ? "server.publicDirectory" : "",
                    message: "dossier \(directory.path) introuvable ou sans index.html ; sans cette clé, "
                        + "le serveur sert le site qu’il contient.")
            }
            site = PublicFiles.load(from: directory)
        }
        // Last: a revocation written while the rest loaded is in force with this reload.
        state = try state.rereadingRevocationList()
        return ServiceSnapshot(
            state: state, renderer: renderer, publicFiles: site, settings: settings,
            metricsFrom: try state.metricsAddresses(settings))
    }

    /// Where the static site comes from, for `--check-config` and the log.
    public var siteOrigin: String {
        settings.publicDirectory.map { state.resolve($0).path } ?? "intégré au serveur"
    }
}

extension ServiceSnapshot {
    /// The files whose change calls for a reload: the configuration, the revocation list, the
    /// forms directory (keys are in the configuration itself). The static site is reloaded with
    /// them but not watched.
    public var watchedPaths: [String] {
        var paths = [state.configurationFile.path, state.resolve(state.configuration.revocationList).path]
        if let forms = state.configuration.formsDirectory { paths.append(state.resolve(forms).path) }
        return paths
    }
}

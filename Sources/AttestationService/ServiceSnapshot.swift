import AttestationKit
import AttestationConfiguration
import Foundation
import Rendering

/// Everything a request reads, loaded together from the configuration: links are checked,
/// documents drawn and files served from one consistent version. A reload builds a new one
/// and swaps it in whole, or keeps the old one.
public struct ServiceSnapshot: Sendable {
    public let state: ServiceState
    public let renderer: AttestationRenderer
    public let publicFiles: PublicFiles
    public let settings: ResolvedServerSettings

    /// `publicDirectory`, when given, replaces `server.publicDirectory` (the container image keeps
    /// the site beside the binaries while the configuration lives on a volume).
    public static func load(configurationFile: URL, publicDirectory: String? = nil,
                            unicodeFontPath: String = AttestationRenderer.defaultUnicodeFontPath) throws(ConfigurationError) -> ServiceSnapshot {
        let state = try ServiceState.load(configurationFile: configurationFile)
        let renderer: AttestationRenderer
        do { renderer = try AttestationRenderer(forms: state.catalog.forms, unicodeFontPath: unicodeFontPath) } catch {
            throw ConfigurationError(source: configurationFile.path, path: "formsDirectory", message: error.description)
        }
        var settings = state.serverSettings
        if let publicDirectory { settings.publicDirectory = URL(fileURLWithPath: publicDirectory).standardizedFileURL.path }
        let directory = state.resolve(settings.publicDirectory)
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory)
        // The default directory may be absent (a server of links only); one named explicitly may not.
        if publicDirectory != nil || state.configuration.server?.publicDirectory != nil, !(exists && isDirectory.boolValue) {
            throw ConfigurationError(source: publicDirectory == nil ? configurationFile.path : "--public-directory",
                                     path: publicDirectory == nil ? "server.publicDirectory" : "",
                                     message: "dossier \(directory.path) introuvable.")
        }
        return ServiceSnapshot(state: state, renderer: renderer, publicFiles: PublicFiles.load(from: directory),
                               settings: settings)
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

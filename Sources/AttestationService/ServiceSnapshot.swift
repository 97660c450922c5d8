import AttestationKit
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

    public static func load(configurationFile: URL,
                            unicodeFontPath: String = AttestationRenderer.defaultUnicodeFontPath) throws(ConfigurationError) -> ServiceSnapshot {
        let state = try ServiceState.load(configurationFile: configurationFile)
        let renderer: AttestationRenderer
        do { renderer = try AttestationRenderer(forms: state.catalog.forms, unicodeFontPath: unicodeFontPath) } catch {
            throw ConfigurationError(source: configurationFile.path, path: "formsDirectory", message: error.description)
        }
        let settings = state.serverSettings
        let directory = state.resolve(settings.publicDirectory)
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory)
        if state.configuration.server?.publicDirectory != nil, !(exists && isDirectory.boolValue) {
            throw ConfigurationError(source: configurationFile.path, path: "server.publicDirectory",
                                     message: "dossier \(directory.path) introuvable.")
        }
        return ServiceSnapshot(state: state, renderer: renderer, publicFiles: PublicFiles.load(from: directory),
                               settings: settings)
    }
}

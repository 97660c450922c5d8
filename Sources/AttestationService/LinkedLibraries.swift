import HTTPServer
import Rendering

/// The versions of the C libraries the programs run on, by the component ids of the Licenses
/// module: what `/licenses` and `attestation-admin licenses` show as « version liée ».
public enum LinkedLibraries {
    public static let versions: [String: String] =
        HTTPServer.libraryVersions.merging(AttestationRenderer.libraryVersions) { first, _ in first }

    /// Refuses, before anything else, C libraries whose private layouts the programs were not
    /// checked against (`AttestationRenderer.checkLibraries`): the French message says which.
    public static func check() throws(RenderingError) {
        try AttestationRenderer.checkLibraries()
    }
}

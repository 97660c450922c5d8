import HTTPServer
import Rendering

/// The versions of the C libraries the programs run on, by the component ids of the Licenses
/// module: what `/licenses` and `attestation-admin licenses` show as « version liée ».
public enum LinkedLibraries {
    public static let versions: [String: String] =
        HTTPServer.libraryVersions.merging(AttestationRenderer.libraryVersions) { first, _ in first }
}

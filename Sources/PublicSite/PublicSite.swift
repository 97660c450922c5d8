/// The static site, `Public/` at the top of the checkout, inside the binary: the personal page is
/// served from any working directory, in a container or under systemd, with no other file.
/// (`Public` here is a symbolic link to it: a build plugin sees only files under a target's folder.)
public enum PublicSite {
    /// Request path (`/app.js`) to the file's bytes: every file of `Public/`, by its path there.
    public static let files: [String: [UInt8]] = Dictionary(
        uniqueKeysWithValues: EmbeddedFiles.base64.keys.filter { $0.hasPrefix("Public/") }.map {
            (String($0.dropFirst("Public".count)), EmbeddedFiles.required($0))
        })
}

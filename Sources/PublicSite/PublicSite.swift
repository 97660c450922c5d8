/// The static site, `Public/` at the top of the checkout, inside the binary: the personal page is
/// served from any working directory, in a container or under systemd, with no other file.
/// (`Public` here is a symbolic link to it: SwiftPM embeds only files under a target's folder.)
///
/// SwiftPM names embedded files by their base name alone, so the request paths are listed here;
/// a test checks that this list and the folder hold the same files.
public enum PublicSite {
    /// Request path (`/app.js`) to the file's bytes.
    public static let files: [String: [UInt8]] = [
        "/app.css": PackageResources.app_css,
        "/app.js": PackageResources.app_js,
        "/hors-ligne.js": PackageResources.hors_ligne_js,
        "/icone.svg": PackageResources.icone_svg,
        "/icones/apple-touch-icon.png": PackageResources.apple_touch_icon_png,
        "/icones/icone-192.png": PackageResources.icone_192_png,
        "/icones/icone-512.png": PackageResources.icone_512_png,
        "/icones/icone-masquable-512.png": PackageResources.icone_masquable_512_png,
        "/index.html": PackageResources.index_html,
        "/manifest.webmanifest": PackageResources.manifest_webmanifest,
        "/raccourcis.html": PackageResources.raccourcis_html,
        "/raccourcis.js": PackageResources.raccourcis_js,
        "/sw.js": PackageResources.sw_js,
        "/vendor/qrcode-generator.js": PackageResources.qrcode_generator_js,
    ]
}

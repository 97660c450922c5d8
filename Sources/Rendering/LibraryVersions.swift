import CCairo
import CHarfBuzz
import CHaru
import CPNG
import CQRencode
import CZlib

extension AttestationRenderer {
    /// The versions of the C libraries this module draws with, as loaded now, by the component ids
    /// of the Licenses module.
    public static let libraryVersions: [String: String] = {
        var versions: [String: String] = [:]
        if let version = HPDF_GetVersion() { versions["libharu"] = String(cString: version) }
        if let version = QRcode_APIVersionString() { versions["libqrencode"] = String(cString: version) }
        // The version string compiled into the loaded libpng, not the header's.
        if let version = png_get_header_ver(nil) { versions["libpng"] = String(cString: version) }
        if let version = zlibVersion() { versions["zlib"] = String(cString: version) }
        if let version = hb_version_string() { versions["harfbuzz"] = String(cString: version) }
        if let version = cairo_version_string() { versions["cairo"] = String(cString: version) }
        let fontconfig = Int(FcGetVersion())
        versions["fontconfig"] = "\(fontconfig / 10000).\(fontconfig / 100 % 100).\(fontconfig % 100)"
        return versions
    }()
}

import Foundation
import PublicSite
import Testing

private let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Public")

/// The site built into the server is `Public/`, every file of it, byte for byte: a file added to
/// the folder and not to `PublicSite.files` (or the reverse) fails here, not in production.
@Suite struct PublicSiteTests {
    @Test func theBuiltInSiteIsThePublicFolderByteForByte() throws {
        let enumerator = try #require(
            FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]))
        var onDisk: [String: [UInt8]] = [:]
        for case let url as URL in enumerator
        where (try url.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true {
            let path = String(url.standardizedFileURL.path.dropFirst(folder.standardizedFileURL.path.count))
            onDisk[path] = [UInt8](try Data(contentsOf: url))
        }
        #expect(Set(PublicSite.files.keys) == Set(onDisk.keys))
        for (path, bytes) in onDisk {
            #expect(PublicSite.files[path] == bytes, "\(path) differs from the built-in copy")
        }
        #expect(PublicSite.files["/index.html"]?.isEmpty == false)
    }

    /// The QR encoder the page uses offline is Debian's file as it is (scripts/upkeep/update-vendor-js.sh),
    /// the one /licenses names.
    @Test func theVendoredQREncoderIsDebiansFile() throws {
        let package = "/usr/share/javascript/qrcode-generator/qrcode.js"
        try #require(
            FileManager.default.fileExists(atPath: package),
            "\(package) is missing: apt-get install node-qrcode-generator")
        #expect(
            PublicSite.files["/vendor/qrcode-generator.js"]
                == [UInt8](try Data(contentsOf: URL(fileURLWithPath: package))),
            "Public/vendor/qrcode-generator.js differs from Debian's: run scripts/upkeep/update-vendor-js.sh")
    }
}

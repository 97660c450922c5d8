/// The full texts: plain files under `Texts/`, each named by its id, copied byte for byte by
/// scripts/upkeep/update-licences.py from the file its `source` names (LicensesTests compares them again on
/// every run). The EmbedLicenceTexts build plugin compiles each into this enum as a string
/// (`static let` named after the file), so the programs need no file beside them.
enum LicenceTexts {}

enum Licences {
    static let all: [LicenceText] = [
        embedded(
            "LGPL-2.1", LicenceTexts.LGPL_2_1, title: "GNU Lesser General Public License, version 2.1",
            source: "/usr/share/common-licenses/LGPL-2.1"),
        embedded(
            "LGPL-3", LicenceTexts.LGPL_3, title: "GNU Lesser General Public License, version 3",
            source: "/usr/share/common-licenses/LGPL-3"),
        embedded(
            "LGPL-2", LicenceTexts.LGPL_2, title: "GNU Library General Public License, version 2",
            source: "/usr/share/common-licenses/LGPL-2"),
        embedded(
            "GPL-2", LicenceTexts.GPL_2, title: "GNU General Public License, version 2",
            source: "/usr/share/common-licenses/GPL-2"),
        embedded(
            "GPL-3", LicenceTexts.GPL_3, title: "GNU General Public License, version 3",
            source: "/usr/share/common-licenses/GPL-3"),
        embedded(
            "Apache-2.0", LicenceTexts.Apache_2_0, title: "Apache License, version 2.0",
            source: "/usr/share/common-licenses/Apache-2.0"),
        embedded(
            "MPL-1.1", LicenceTexts.MPL_1_1, title: "Mozilla Public License, version 1.1",
            source: "/usr/share/common-licenses/MPL-1.1"),
        embedded(
            "CC0-1.0", LicenceTexts.CC0_1_0, title: "Creative Commons CC0 1.0 Universal",
            source: "/usr/share/common-licenses/CC0-1.0"),
        embedded(
            "GPL-1", LicenceTexts.GPL_1, title: "GNU General Public License, version 1",
            source: "/usr/share/common-licenses/GPL-1"),
        embedded(
            "Artistic", LicenceTexts.Artistic, title: "The «\u{202F}Artistic License\u{202F}» (Perl)",
            source: "/usr/share/common-licenses/Artistic"),
        embedded(
            "Apache-2.0-Swift", LicenceTexts.Apache_2_0_Swift,
            title: "Apache License, version 2.0, avec l’exception des bibliothèques d’exécution (Swift)",
            source: "/opt/swift/usr/share/swift/LICENSE.txt (chaîne d’outils Swift 6)"),
        debian("libmicrohttpd12", LicenceTexts.Debian_libmicrohttpd12),
        debian("libgnutls30", LicenceTexts.Debian_libgnutls30),
        debian("libnettle8", LicenceTexts.Debian_libnettle8, also: "libhogweed6"),
        debian("libgmp10", LicenceTexts.Debian_libgmp10),
        debian("libtasn1-6", LicenceTexts.Debian_libtasn1_6),
        debian("libidn2-0", LicenceTexts.Debian_libidn2_0),
        debian("libunistring2", LicenceTexts.Debian_libunistring2),
        debian("libp11-kit0", LicenceTexts.Debian_libp11_kit0),
        debian("libffi8", LicenceTexts.Debian_libffi8),
        debian("libhpdf-2.3.0", LicenceTexts.Debian_libhpdf_2_3_0),
        debian("libqrencode4", LicenceTexts.Debian_libqrencode4),
        debian("libpng16-16", LicenceTexts.Debian_libpng16_16),
        debian("zlib1g", LicenceTexts.Debian_zlib1g),
        debian("libharfbuzz0b", LicenceTexts.Debian_libharfbuzz0b, also: "libharfbuzz-subset0"),
        debian("libfreetype6", LicenceTexts.Debian_libfreetype6),
        debian("libglib2.0-0", LicenceTexts.Debian_libglib2_0_0),
        debian("libgraphite2-3", LicenceTexts.Debian_libgraphite2_3),
        debian("libbrotli1", LicenceTexts.Debian_libbrotli1),
        debian("libpcre2-8-0", LicenceTexts.Debian_libpcre2_8_0),
        debian("libcairo2", LicenceTexts.Debian_libcairo2),
        debian("libpixman-1-0", LicenceTexts.Debian_libpixman_1_0),
        debian("libfontconfig1", LicenceTexts.Debian_libfontconfig1),
        debian("libexpat1", LicenceTexts.Debian_libexpat1),
        debian("libx11-6", LicenceTexts.Debian_libx11_6),
        debian("libxext6", LicenceTexts.Debian_libxext6),
        debian("libxrender1", LicenceTexts.Debian_libxrender1),
        debian("libxcb1", LicenceTexts.Debian_libxcb1, also: "libxcb-render0 et libxcb-shm0"),
        debian("libxau6", LicenceTexts.Debian_libxau6),
        debian("libxdmcp6", LicenceTexts.Debian_libxdmcp6),
        debian("libbsd0", LicenceTexts.Debian_libbsd0),
        debian("libmd0", LicenceTexts.Debian_libmd0),
        debian("fonts-urw-base35", LicenceTexts.Debian_fonts_urw_base35),
        debian("fonts-dejavu-core", LicenceTexts.Debian_fonts_dejavu_core),
        debian("node-qrcode-generator", LicenceTexts.Debian_node_qrcode_generator),
        embedded(
            "ICU", LicenceTexts.ICU, title: "Licence d’ICU (Unicode License V3 et licences des données tierces)",
            source:
                "/usr/share/doc/nodejs/LICENSE, partie «\u{202F}ICU\u{202F}» (Node.js embarque ICU), sans son retrait de quatre espaces"
        ),
        embedded(
            "NOTICE-swift-log", LicenceTexts.NOTICE_swift_log, title: "Fichier NOTICE de swift-log",
            source: "NOTICE.txt de swift-log"),
        embedded(
            "NOTICE-swift-metrics", LicenceTexts.NOTICE_swift_metrics, title: "Fichier NOTICE de swift-metrics",
            source: "NOTICE.txt de swift-metrics"),
        embedded(
            "MIT-SwiftCSV", LicenceTexts.MIT_SwiftCSV, title: "Licence MIT de SwiftCSV",
            source: "LICENSE de SwiftCSV"),
        embedded(
            "CC-BY-4.0", LicenceTexts.CC_BY_4_0, title: "Creative Commons Attribution 4.0 International",
            source: "paragraphe « License: CC-BY-4.0 » du fichier copyright Debian de fonts-urw-base35, désindenté"),
        embedded(
            "MIT-formulaire", LicenceTexts.MIT_formulaire,
            title: "Licence MIT du générateur d’attestations du ministère de l’Intérieur",
            source: "LICENSE du générateur officiel (reference/official-LICENCE.txt)"),
    ]

    /// The text of `Texts/ID.txt`.
    private static func embedded(_ id: String, _ text: String, title: String, source: String) -> LicenceText {
        LicenceText(id: id, title: title, source: source, text: text)
    }

    /// A Debian package's `copyright` file.
    private static func debian(_ package: String, _ text: String, also other: String? = nil) -> LicenceText {
        let packages = [package] + (other.map { [$0] } ?? [])
        return embedded(
            "Debian-\(package)", text, title: "Fichier copyright Debian de \(packages.joined(separator: " et "))",
            source: "/usr/share/doc/\(package)/copyright (Debian 12)")
    }
}

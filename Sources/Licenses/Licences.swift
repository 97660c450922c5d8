/// The full texts, one file each under `Texts/`, copied byte for byte from the files named in
/// their header (LicensesTests compares them again on every run).
enum LicenceTexts {}

enum Licences {
    static let all: [LicenceText] = [
        LicenceText(id: "LGPL-2.1", title: "GNU Lesser General Public License, version 2.1",
                    source: "/usr/share/common-licenses/LGPL-2.1", text: LicenceTexts.lgpl21),
        LicenceText(id: "LGPL-3", title: "GNU Lesser General Public License, version 3",
                    source: "/usr/share/common-licenses/LGPL-3", text: LicenceTexts.lgpl3),
        LicenceText(id: "LGPL-2", title: "GNU Library General Public License, version 2",
                    source: "/usr/share/common-licenses/LGPL-2", text: LicenceTexts.lgpl2),
        LicenceText(id: "GPL-2", title: "GNU General Public License, version 2",
                    source: "/usr/share/common-licenses/GPL-2", text: LicenceTexts.gpl2),
        LicenceText(id: "GPL-3", title: "GNU General Public License, version 3",
                    source: "/usr/share/common-licenses/GPL-3", text: LicenceTexts.gpl3),
        LicenceText(id: "Apache-2.0", title: "Apache License, version 2.0",
                    source: "/usr/share/common-licenses/Apache-2.0", text: LicenceTexts.apache2),
        LicenceText(id: "Apache-2.0-Swift",
                    title: "Apache License, version 2.0, avec l’exception des bibliothèques d’exécution (Swift)",
                    source: "/opt/swift/usr/share/swift/LICENSE.txt (chaîne d’outils Swift 6)",
                    text: LicenceTexts.apache2SwiftRuntime),
        debian("libmicrohttpd12", LicenceTexts.debianLibmicrohttpd12),
        debian("libgnutls30", LicenceTexts.debianLibgnutls30),
        debian("libnettle8", LicenceTexts.debianLibnettle8, also: "libhogweed6"),
        debian("libgmp10", LicenceTexts.debianLibgmp10),
        debian("libtasn1-6", LicenceTexts.debianLibtasn16),
        debian("libidn2-0", LicenceTexts.debianLibidn20),
        debian("libunistring2", LicenceTexts.debianLibunistring2),
        debian("libp11-kit0", LicenceTexts.debianLibp11Kit0),
        debian("libffi8", LicenceTexts.debianLibffi8),
        debian("libhpdf-2.3.0", LicenceTexts.debianLibhpdf230),
        debian("libqrencode4", LicenceTexts.debianLibqrencode4),
        debian("libpng16-16", LicenceTexts.debianLibpng1616),
        debian("zlib1g", LicenceTexts.debianZlib1g),
        debian("fonts-dejavu-core", LicenceTexts.debianFontsDejavuCore),
        LicenceText(id: "ICU", title: "Licence d’ICU (Unicode License V3 et licences des données tierces)",
                    source: "/usr/share/doc/nodejs/LICENSE, partie « ICU » (Node.js embarque ICU), sans son retrait de quatre espaces",
                    text: LicenceTexts.icu),
        LicenceText(id: "NOTICE-swift-crypto", title: "Fichier NOTICE de swift-crypto",
                    source: "NOTICE.txt de swift-crypto", text: LicenceTexts.noticeSwiftCrypto),
        LicenceText(id: "BoringSSL-ISC", title: "BoringSSL : licence ISC des fichiers nouveaux",
                    source: "en-tête de Sources/CCryptoBoringSSL/crypto/curve25519/curve25519.cc (swift-crypto)",
                    text: LicenceTexts.boringSSLISC),
        LicenceText(id: "BoringSSL-OpenSSL", title: "BoringSSL : licence OpenSSL",
                    source: "en-tête de Sources/CCryptoBoringSSL/crypto/fipsmodule/modes/ofb.cc.inc (swift-crypto)",
                    text: LicenceTexts.boringSSLOpenSSL),
        LicenceText(id: "BoringSSL-SSLeay", title: "BoringSSL : licence SSLeay d’origine",
                    source: "en-tête de Sources/CCryptoBoringSSL/crypto/md5/md5.cc (swift-crypto)",
                    text: LicenceTexts.boringSSLSSLeay),
        LicenceText(id: "NOTICE-swift-asn1", title: "Fichier NOTICE de swift-asn1",
                    source: "NOTICE.txt de swift-asn1", text: LicenceTexts.noticeSwiftAsn1),
        LicenceText(id: "NOTICE-swift-log", title: "Fichier NOTICE de swift-log",
                    source: "NOTICE.txt de swift-log", text: LicenceTexts.noticeSwiftLog),
        LicenceText(id: "NOTICE-swift-metrics", title: "Fichier NOTICE de swift-metrics",
                    source: "NOTICE.txt de swift-metrics", text: LicenceTexts.noticeSwiftMetrics),
        LicenceText(id: "MIT-SwiftCSV", title: "Licence MIT de SwiftCSV",
                    source: "LICENSE de SwiftCSV", text: LicenceTexts.mitSwiftCSV),
        LicenceText(id: "MIT-formulaire", title: "Licence MIT du générateur d’attestations du ministère de l’Intérieur",
                    source: "LICENSE du générateur officiel (reference/official-LICENCE.txt)", text: LicenceTexts.mitFormulaire),
    ]

    /// A Debian package's `copyright` file.
    private static func debian(_ package: String, _ text: String, also other: String? = nil) -> LicenceText {
        let packages = [package] + (other.map { [$0] } ?? [])
        return LicenceText(id: "Debian-\(package)",
                           title: "Fichier copyright Debian de \(packages.joined(separator: " et "))",
                           source: "/usr/share/doc/\(package)/copyright (Debian 12)", text: text)
    }
}

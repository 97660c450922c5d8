/// The components, the C libraries first (as `ldd` lists them for attestation-server), then the
/// Swift runtime and packages, then the fonts and texts.
enum Components {
    static let all: [ThirdPartyComponent] = [
        debian(id: "libmicrohttpd", name: "GNU libmicrohttpd", role: "serveur HTTP",
               upstream: "https://www.gnu.org/software/libmicrohttpd/", packages: ["libmicrohttpd12"], source: "libmicrohttpd",
               copyright: ["2007-2021 Christian Grothoff", "2015-2019 Evgeny Grin (Karlson2k)", "2020 Silvio Clecio"],
               licence: "LGPL 2.1 ou ultérieure", texts: ["LGPL-2.1"]),
        debian(id: "gnutls", name: "GnuTLS", role: "TLS (HTTPS) de libmicrohttpd",
               upstream: "https://www.gnutls.org/", packages: ["libgnutls30"], source: "gnutls28",
               copyright: ["Copyright (C) 2000-2019 Free Software Foundation, Inc.", "Nikos Mavrogiannopoulos"],
               licence: "LGPL 2.1 ou ultérieure (la bibliothèque)", texts: ["LGPL-2.1", "LGPL-3", "GPL-2", "GPL-3", "Apache-2.0"]),
        debian(id: "nettle", name: "Nettle", role: "primitives cryptographiques de GnuTLS (libnettle, libhogweed)",
               upstream: "https://www.lysator.liu.se/~nisse/nettle/", packages: ["libnettle8", "libhogweed6"], source: "nettle",
               copyright: ["2001-2022 Niels Möller"],
               licence: "LGPL 3 ou ultérieure, ou GPL 2 ou ultérieure", texts: ["LGPL-3", "GPL-2", "GPL-3", "LGPL-2"]),
        debian(id: "gmp", name: "GNU MP (GMP)", role: "calcul sur les grands nombres, pour Nettle",
               upstream: "https://gmplib.org/", packages: ["libgmp10"], source: "gmp",
               copyright: ["1991, 1996, 1999, 2000, 2007 Free Software Foundation, Inc."],
               licence: "LGPL 3 ou ultérieure, ou GPL 2 ou ultérieure", texts: ["LGPL-3", "GPL-2", "GPL-3"]),
        debian(id: "libtasn1", name: "GNU Libtasn1", role: "lecture des structures ASN.1 des certificats, pour GnuTLS",
               upstream: "https://www.gnu.org/software/libtasn1/", packages: ["libtasn1-6"], source: "libtasn1-6",
               copyright: ["Copyright (C) 2000-2022 Free Software Foundation, Inc."],
               licence: "LGPL 2.1 ou ultérieure (la bibliothèque)", texts: ["LGPL-2.1", "LGPL-3", "GPL-3"]),
        debian(id: "libidn2", name: "GNU Libidn2", role: "noms de domaine internationalisés, pour GnuTLS",
               upstream: "https://www.gnu.org/software/libidn/#libidn2", packages: ["libidn2-0"], source: "libidn2",
               copyright: ["Copyright (C) 2011-2014 Simon Josefsson"],
               licence: "LGPL 3 ou ultérieure, ou GPL 2 ou ultérieure (la bibliothèque)", texts: ["LGPL-3", "GPL-2", "GPL-3"]),
        debian(id: "libunistring", name: "GNU libunistring", role: "traitement des chaînes Unicode, pour GnuTLS et Libidn2",
               upstream: "https://www.gnu.org/software/libunistring/", packages: ["libunistring2"], source: "libunistring",
               copyright: ["1995-2022 Free Software Foundation, Inc."],
               licence: "LGPL 3 ou ultérieure, ou GPL 2 ou ultérieure", texts: ["LGPL-3", "GPL-2", "GPL-3"]),
        debian(id: "p11-kit", name: "p11-kit", role: "accès aux magasins de certificats (PKCS #11), pour GnuTLS",
               upstream: "https://p11-glue.github.io/p11-glue/p11-kit.html", packages: ["libp11-kit0"], source: "p11-kit",
               copyright: ["2011 Collabora Ltd.", "2004, 2005, 2007, 2008, 2012, 2013 Stefan Walter",
                           "2012, 2013, 2014, 2015, 2016, 2017, 2018, 2019 Red Hat, Inc."],
               licence: "BSD à trois clauses (la bibliothèque)", texts: ["LGPL-2.1", "Apache-2.0"], copyleft: false),
        debian(id: "libffi", name: "libffi", role: "appels de fonctions construits à l’exécution, pour p11-kit",
               upstream: "https://sourceware.org/libffi/", packages: ["libffi8"], source: "libffi",
               copyright: ["Copyright (c) 1996-2011 Red Hat, Inc.", "Copyright (C) 1996-2011 Anthony Green"],
               licence: "MIT (Expat)", texts: ["GPL-3"], copyleft: false),
        debian(id: "libharu", name: "libharu", role: "génération PDF",
               upstream: "https://github.com/libharu/libharu", packages: ["libhpdf-2.3.0"], source: "libharu",
               copyright: ["1999-2006, Takeshi Kanno", "2007-2015, Antony Dovgal", "2010, Sergey Konovalov", "2011, Koen Deforche"],
               licence: "licence de libharu (permissive)", texts: [], copyleft: false),
        debian(id: "libqrencode", name: "libqrencode", role: "calcul des QR codes",
               upstream: "https://fukuchi.org/works/qrencode/", packages: ["libqrencode4"], source: "qrencode",
               copyright: ["(C) 2006-2017 Kentaro Fukuchi", "(C) 2002, 2003, 2004, 2006 Phil Karn, KA9Q"],
               licence: "LGPL 2.1 ou ultérieure", texts: ["LGPL-2.1"]),
        debian(id: "libpng", name: "libpng", role: "écriture du QR code en image PNG",
               upstream: "http://www.libpng.org/pub/png/libpng.html", packages: ["libpng16-16"], source: "libpng1.6",
               copyright: ["1995-2022 The PNG Reference Library Authors.", "1998-2018 Glenn Randers-Pehrson", "2018-2022 Cosmin Truta"],
               licence: "licence de libpng (permissive)", texts: ["GPL-2", "Apache-2.0"], copyleft: false),
        debian(id: "zlib", name: "zlib", role: "compression des PDF et des PNG",
               upstream: "https://zlib.net/", packages: ["zlib1g"], source: "zlib",
               copyright: ["1995-2013 Jean-loup Gailly and Mark Adler"],
               licence: "licence zlib (permissive)", texts: [], copyleft: false),
        debian(id: "dejavu", name: "Polices DejaVu (DejaVu Sans)",
               role: "police des valeurs qu’Helvetica ne peut écrire : les PDF en incorporent les seuls glyphes utilisés",
               upstream: "https://dejavu-fonts.github.io/", packages: ["fonts-dejavu-core"], source: "fonts-dejavu",
               copyright: ["Copyright (c) 2003 by Bitstream, Inc. All Rights Reserved.", "DejaVu changes are in public domain."],
               licence: "licence Bitstream Vera ; modifications de DejaVu dans le domaine public", texts: ["GPL-2"], copyleft: false),

        ThirdPartyComponent(
            id: "swift", name: "Swift : bibliothèque standard, Foundation, Dispatch",
            role: "environnement d’exécution des deux programmes", upstreamURL: "https://www.swift.org/",
            debianPackages: [], debianSourcePackage: nil, copyright: ["Apple Inc. and the Swift project authors"],
            licence: "Apache 2.0 avec l’exception des bibliothèques d’exécution", licenceIDs: ["Apache-2.0-Swift"],
            note: "Bibliothèques de la chaîne d’outils Swift 6 (libswiftCore, libFoundation, libdispatch…), liées dynamiquement.",
            sourceOffer: nil),
        ThirdPartyComponent(
            id: "icu", name: "ICU (swift-foundation-icu)",
            role: "données et règles Unicode de Foundation (dates, langues, découpage du texte)",
            upstreamURL: "https://github.com/swiftlang/swift-foundation-icu",
            debianPackages: [], debianSourcePackage: nil, copyright: ["Copyright © 2016-2024 Unicode, Inc."],
            licence: "Unicode License V3 et licences des données tierces", licenceIDs: ["ICU"],
            note: "ICU 76.1, adapté par le projet Swift, dans lib_FoundationICU de la chaîne d’outils.", sourceOffer: nil),
        swiftPackage(id: "swift-argument-parser", role: "lecture des options en ligne de commande",
                     url: "https://github.com/apple/swift-argument-parser",
                     copyright: ["Copyright (c) 2020 Apple Inc. and the Swift project authors"],
                     licence: "Apache 2.0 avec l’exception des bibliothèques d’exécution", texts: ["Apache-2.0-Swift"]),
        swiftPackage(id: "swift-crypto", role: "signature et vérification des liens (Ed25519)",
                     url: "https://github.com/apple/swift-crypto",
                     copyright: ["Copyright 2019 The SwiftCrypto Project"],
                     licence: "Apache 2.0", texts: ["Apache-2.0", "NOTICE-swift-crypto"]),
        ThirdPartyComponent(
            id: "boringssl", name: "BoringSSL (inclus dans swift-crypto)", role: "implémentation cryptographique de swift-crypto",
            upstreamURL: "https://boringssl.googlesource.com/boringssl",
            debianPackages: [], debianSourcePackage: nil,
            copyright: ["The BoringSSL Authors", "The OpenSSL Project", "Eric Young (eay@cryptsoft.com)"],
            licence: "licences OpenSSL et SSLeay, licence ISC pour le code nouveau",
            licenceIDs: ["BoringSSL-ISC", "BoringSSL-OpenSSL", "BoringSSL-SSLeay"],
            note: "Copie de BoringSSL (révision aefa5d24da34ef77ac797bdbe684734e5bd870f4) compilée dans les programmes. "
                + "Chaque fichier source porte l’en-tête de sa licence ; les trois textes ci-dessous sont ces en-têtes, tels "
                + "qu’ils figurent dans swift-crypto, chacun avec l’année et le titulaire de son fichier.",
            sourceOffer: nil),
        ThirdPartyComponent(
            id: "fiat-crypto", name: "Fiat Cryptography (inclus dans BoringSSL)",
            role: "arithmétique des courbes Curve25519 (signatures Ed25519 des liens) et P-256 de BoringSSL",
            upstreamURL: "https://github.com/mit-plv/fiat-crypto",
            debianPackages: [], debianSourcePackage: nil,
            copyright: ["Copyright (c) 2015-2020 the fiat-crypto authors"],
            licence: "MIT", licenceIDs: ["MIT-fiat-crypto"],
            note: "Code généré et prouvé par Fiat Cryptography, dans le dossier third_party/fiat de BoringSSL, compilé "
                + "dans les programmes avec lui. Le projet fiat-crypto le distribue au choix sous licence MIT, Apache 2.0 "
                + "ou BSD à une clause ; BoringSSL le reprend sous licence MIT, dont le texte suit.",
            sourceOffer: nil),
        swiftPackage(id: "swift-asn1", role: "encodage ASN.1, pour swift-crypto",
                     url: "https://github.com/apple/swift-asn1",
                     copyright: ["Copyright 2022 The SwiftASN1 Project"],
                     licence: "Apache 2.0", texts: ["Apache-2.0", "NOTICE-swift-asn1"]),
        swiftPackage(id: "swift-log", role: "journal des requêtes", url: "https://github.com/apple/swift-log",
                     copyright: ["Copyright 2018, 2019 The SwiftLog Project"],
                     licence: "Apache 2.0", texts: ["Apache-2.0", "NOTICE-swift-log"]),
        swiftPackage(id: "swift-metrics", role: "mesures du service", url: "https://github.com/apple/swift-metrics",
                     copyright: ["Copyright 2018, 2019 The SwiftMetrics Project"],
                     licence: "Apache 2.0", texts: ["Apache-2.0", "NOTICE-swift-metrics"]),
        swiftPackage(id: "swift-prometheus", role: "mesures au format Prometheus (/metrics)",
                     url: "https://github.com/swift-server/swift-prometheus",
                     copyright: ["Copyright (c) 2018-2025 SwiftPrometheus project authors"],
                     licence: "Apache 2.0", texts: ["Apache-2.0"]),
        swiftPackage(id: "swift-atomics", role: "opérations atomiques, pour swift-prometheus",
                     url: "https://github.com/apple/swift-atomics",
                     copyright: ["Copyright (c) 2020 - 2025 Apple Inc. and the Swift project authors"],
                     licence: "Apache 2.0 avec l’exception des bibliothèques d’exécution", texts: ["Apache-2.0-Swift"]),
        swiftPackage(id: "swiftcsv", name: "SwiftCSV", role: "lecture des fichiers CSV de personnes (attestation-admin)",
                     url: "https://github.com/swiftcsv/SwiftCSV",
                     copyright: ["Copyright (c) 2014 Naoto Kaneko.", "Copyright (c) 2019 SwiftCSV Contributors."],
                     licence: "MIT", texts: ["MIT-SwiftCSV"]),

        ThirdPartyComponent(
            id: "formulaire", name: "Texte du formulaire officiel et format du QR code",
            role: "textes, mise en page et contenu du QR code des attestations, repris du générateur du ministère de l’Intérieur",
            upstreamURL: "https://github.com/LAB-MI/attestation-deplacement-derogatoire-q4-2020",
            debianPackages: [], debianSourcePackage: nil,
            copyright: ["Copyright (c) 2020 Ministère de l'intérieur", "Copyright (c) 2020 Johann Pardanaud"],
            licence: "MIT", licenceIDs: ["MIT-formulaire"],
            note: "Le service dessine ses propres pages ; il ne charge aucun fichier du ministère.", sourceOffer: nil),
    ]

    /// A C library or font from Debian 12: its Debian copyright file comes first, then the full
    /// texts that file refers to in /usr/share/common-licenses.
    private static func debian(id: String, name: String, role: String, upstream: String, packages: [String], source: String,
                               copyright: [String], licence: String, texts: [String], copyleft: Bool = true) -> ThirdPartyComponent {
        ThirdPartyComponent(
            id: id, name: name, role: role, upstreamURL: upstream, debianPackages: packages, debianSourcePackage: source,
            copyright: copyright, licence: licence, licenceIDs: ["Debian-\(packages[0])"] + texts, note: nil,
            sourceOffer: copyleft ? sourceOffer(packages: packages, source: source, upstream: upstream) : nil)
    }

    /// Where the exact source of a dynamically linked LGPL or GPL library is.
    static func sourceOffer(packages: [String], source: String, upstream: String) -> String {
        let named = packages.count == 1 ? "du paquet \(packages[0])" : "des paquets \(packages.joined(separator: " et "))"
        return "Le service lie ce composant dynamiquement, sans le modifier : c’est la bibliothèque \(named) de Debian 12. "
            + "Sa source exacte est celle du paquet source Debian « \(source) » : apt-get source \(source), "
            + "ou https://sources.debian.org/src/\(source)/ ; source amont : \(upstream)"
    }

    private static func swiftPackage(id: String, name: String? = nil, role: String, url: String, copyright: [String],
                                     licence: String, texts: [String]) -> ThirdPartyComponent {
        ThirdPartyComponent(id: id, name: name ?? id, role: role, upstreamURL: url, debianPackages: [],
                            debianSourcePackage: nil, copyright: copyright, licence: licence, licenceIDs: texts,
                            note: "Paquet Swift compilé dans les programmes (version de Package.resolved).", sourceOffer: nil)
    }
}

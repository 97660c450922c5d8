/// The components, the C libraries first (as `ldd` lists them for attestation-server), then the
/// Swift runtime and packages, then the fonts and texts.
enum Components {
    static let all: [ThirdPartyComponent] = [
        debian(
            id: "libmicrohttpd", name: "GNU libmicrohttpd", role: "serveur HTTP",
            upstream: "https://www.gnu.org/software/libmicrohttpd/", packages: ["libmicrohttpd12"],
            source: "libmicrohttpd",
            copyright: ["2007-2021 Christian Grothoff", "2015-2019 Evgeny Grin (Karlson2k)", "2020 Silvio Clecio"],
            licence: "LGPL 2.1 ou ultérieure", texts: ["LGPL-2.1"]),
        debian(
            id: "gnutls", name: "GnuTLS", role: "TLS (HTTPS) de libmicrohttpd",
            upstream: "https://www.gnutls.org/", packages: ["libgnutls30"], source: "gnutls28",
            copyright: ["Copyright (C) 2000-2019 Free Software Foundation, Inc.", "Nikos Mavrogiannopoulos"],
            licence: "LGPL 2.1 ou ultérieure (la bibliothèque)",
            texts: ["LGPL-2.1", "LGPL-3", "GPL-2", "GPL-3", "Apache-2.0"]),
        debian(
            id: "nettle", name: "Nettle",
            role: "signature et vérification des liens (Ed25519), primitives cryptographiques de GnuTLS "
                + "(libnettle, libhogweed)",
            upstream: "https://www.lysator.liu.se/~nisse/nettle/", packages: ["libnettle8", "libhogweed6"],
            source: "nettle",
            copyright: ["2001-2022 Niels Möller"],
            licence: "LGPL 3 ou ultérieure, ou GPL 2 ou ultérieure", texts: ["LGPL-3", "GPL-2", "GPL-3", "LGPL-2"]),
        debian(
            id: "gmp", name: "GNU MP (GMP)", role: "calcul sur les grands nombres, pour Nettle",
            upstream: "https://gmplib.org/", packages: ["libgmp10"], source: "gmp",
            copyright: ["1991, 1996, 1999, 2000, 2007 Free Software Foundation, Inc."],
            licence: "LGPL 3 ou ultérieure, ou GPL 2 ou ultérieure", texts: ["LGPL-3", "GPL-2", "GPL-3"]),
        debian(
            id: "libtasn1", name: "GNU Libtasn1", role: "lecture des structures ASN.1 des certificats, pour GnuTLS",
            upstream: "https://www.gnu.org/software/libtasn1/", packages: ["libtasn1-6"], source: "libtasn1-6",
            copyright: ["Copyright (C) 2000-2022 Free Software Foundation, Inc."],
            licence: "LGPL 2.1 ou ultérieure (la bibliothèque)", texts: ["LGPL-2.1", "LGPL-3", "GPL-3"]),
        debian(
            id: "libidn2", name: "GNU Libidn2", role: "noms de domaine internationalisés, pour GnuTLS",
            upstream: "https://www.gnu.org/software/libidn/#libidn2", packages: ["libidn2-0"], source: "libidn2",
            copyright: ["Copyright (C) 2011-2014 Simon Josefsson"],
            licence: "LGPL 3 ou ultérieure, ou GPL 2 ou ultérieure (la bibliothèque)",
            texts: ["LGPL-3", "GPL-2", "GPL-3"]),
        debian(
            id: "libunistring", name: "GNU libunistring",
            role: "traitement des chaînes Unicode, pour GnuTLS et Libidn2",
            upstream: "https://www.gnu.org/software/libunistring/", packages: ["libunistring2"], source: "libunistring",
            copyright: ["1995-2022 Free Software Foundation, Inc."],
            licence: "LGPL 3 ou ultérieure, ou GPL 2 ou ultérieure", texts: ["LGPL-3", "GPL-2", "GPL-3"]),
        debian(
            id: "p11-kit", name: "p11-kit", role: "accès aux magasins de certificats (PKCS #11), pour GnuTLS",
            upstream: "https://p11-glue.github.io/p11-glue/p11-kit.html", packages: ["libp11-kit0"], source: "p11-kit",
            copyright: [
                "2011 Collabora Ltd.", "2004, 2005, 2007, 2008, 2012, 2013 Stefan Walter",
                "2012, 2013, 2014, 2015, 2016, 2017, 2018, 2019 Red Hat, Inc.",
            ],
            licence: "BSD à trois clauses (la bibliothèque)", texts: ["LGPL-2.1", "Apache-2.0"], copyleft: false),
        debian(
            id: "libffi", name: "libffi", role: "appels de fonctions construits à l’exécution, pour p11-kit",
            upstream: "https://sourceware.org/libffi/", packages: ["libffi8"], source: "libffi",
            copyright: ["Copyright (c) 1996-2011 Red Hat, Inc.", "Copyright (C) 1996-2011 Anthony Green"],
            licence: "MIT (Expat)", texts: ["GPL-3"], copyleft: false),
        debian(
            id: "libharu", name: "libharu", role: "génération PDF",
            upstream: "https://github.com/libharu/libharu", packages: ["libhpdf-2.3.0"], source: "libharu",
            copyright: [
                "1999-2006, Takeshi Kanno", "2007-2015, Antony Dovgal", "2010, Sergey Konovalov", "2011, Koen Deforche",
            ],
            licence: "licence de libharu (permissive)", texts: [], copyleft: false),
        debian(
            id: "libqrencode", name: "libqrencode", role: "calcul des QR codes",
            upstream: "https://fukuchi.org/works/qrencode/", packages: ["libqrencode4"], source: "qrencode",
            copyright: ["(C) 2006-2017 Kentaro Fukuchi", "(C) 2002, 2003, 2004, 2006 Phil Karn, KA9Q"],
            licence: "LGPL 2.1 ou ultérieure", texts: ["LGPL-2.1"]),
        debian(
            id: "libpng", name: "libpng", role: "écriture du QR code en image PNG",
            upstream: "http://www.libpng.org/pub/png/libpng.html", packages: ["libpng16-16"], source: "libpng1.6",
            copyright: [
                "1995-2022 The PNG Reference Library Authors.", "1998-2018 Glenn Randers-Pehrson",
                "2018-2022 Cosmin Truta",
            ],
            licence: "licence de libpng (permissive)", texts: ["GPL-2", "Apache-2.0"], copyleft: false),
        debian(
            id: "zlib", name: "zlib", role: "compression des PDF et des PNG",
            upstream: "https://zlib.net/", packages: ["zlib1g"], source: "zlib",
            copyright: ["1995-2013 Jean-loup Gailly and Mark Adler"],
            licence: "licence zlib (permissive)", texts: [], copyleft: false),
        debian(
            id: "harfbuzz", name: "HarfBuzz (hb-subset)",
            role: "sous-ensemble de la police DejaVu Sans incorporé aux PDF : les seuls glyphes utilisés",
            upstream: "https://harfbuzz.github.io/", packages: ["libharfbuzz0b", "libharfbuzz-subset0"],
            source: "harfbuzz",
            copyright: [
                "2005-2023, Behdad Esfahbod", "2010-2022, Google, Inc", "1998-2022, Red Hat, Inc",
                "2018-2020, Adobe, Inc",
            ],
            licence: "MIT (Old MIT)", texts: ["Apache-2.0", "CC0-1.0", "GPL-2", "GPL-3", "LGPL-2.1"], copyleft: false),
        debian(
            id: "freetype", name: "FreeType", role: "lecture des polices, pour HarfBuzz",
            upstream: "https://freetype.org/", packages: ["libfreetype6"], source: "freetype",
            copyright: ["1996-2022 David Turner, Robert Wilhelm and Werner Lemberg"],
            licence: "FreeType License (FTL) ou GPL 2 ou ultérieure, au choix", texts: ["GPL-2", "GPL-3"]),
        debian(
            id: "glib", name: "GLib", role: "bibliothèque utilitaire, pour HarfBuzz",
            upstream: "https://gitlab.gnome.org/GNOME/glib", packages: ["libglib2.0-0"], source: "glib2.0",
            copyright: [
                "1995-2011 Peter Mattis, Spencer Kimball, Josh MacDonald, Sebastian Wilhelmi and others",
                "2000-2022 Red Hat, Inc",
            ],
            licence: "LGPL 2.1 ou ultérieure",
            texts: ["LGPL-2.1", "LGPL-2", "LGPL-3", "GPL-2", "Apache-2.0", "CC0-1.0"]),
        debian(
            id: "graphite2", name: "Graphite2", role: "moteur de rendu des polices Graphite, pour HarfBuzz",
            upstream: "https://graphite.sil.org/", packages: ["libgraphite2-3"], source: "graphite2",
            copyright: ["(C) 2010-2011, SIL International"],
            licence: "LGPL 2.1 ou ultérieure, ou MPL 1.1, ou GPL 2 ou ultérieure, au choix",
            texts: ["LGPL-2.1", "MPL-1.1", "GPL-2", "GPL-1", "Artistic"]),
        debian(
            id: "brotli", name: "Brotli", role: "décompression des polices WOFF2, pour FreeType",
            upstream: "https://github.com/google/brotli", packages: ["libbrotli1"], source: "brotli",
            copyright: ["2009, 2010, 2013-2015 by the Brotli Authors"],
            licence: "MIT", texts: [], copyleft: false),
        debian(
            id: "pcre2", name: "PCRE2", role: "expressions rationnelles, pour GLib",
            upstream: "https://github.com/PCRE2Project/pcre2", packages: ["libpcre2-8-0"], source: "pcre2",
            copyright: ["1997-2022 University of Cambridge"],
            licence: "BSD à trois clauses, avec l’exception des bibliothèques binaires", texts: [], copyleft: false),
        debian(
            id: "cairo", name: "cairo", role: "dessin des pages de l’attestation en images PNG",
            upstream: "https://www.cairographics.org/", packages: ["libcairo2"], source: "cairo",
            copyright: ["Copyright 2004, 2005 Red Hat, Inc.", "Copyright 2000, 2002, 2004, 2005 Keith Packard"],
            licence: "LGPL 2.1 ou MPL 1.1, au choix", texts: ["LGPL-2.1", "MPL-1.1"]),
        debian(
            id: "pixman", name: "pixman", role: "calcul des pixels, pour cairo",
            upstream: "https://www.pixman.org/", packages: ["libpixman-1-0"], source: "pixman",
            copyright: [
                "Copyright 2004, 2005, 2007, 2008, 2009, 2010 Red Hat, Inc.",
                "Copyright 1987, 1988, 1989, 1998  The Open Group",
            ],
            licence: "MIT", texts: [], copyleft: false),
        debian(
            id: "fontconfig", name: "Fontconfig", role: "désignation des fichiers de police, pour cairo",
            upstream: "https://www.freedesktop.org/wiki/Software/fontconfig/", packages: ["libfontconfig1"],
            source: "fontconfig",
            copyright: ["Copyright © 2001,2003 Keith Packard"],
            licence: "licence de Fontconfig (permissive, type MIT)", texts: [], copyleft: false),
        debian(
            id: "expat", name: "Expat", role: "lecture XML de la configuration, pour Fontconfig",
            upstream: "https://libexpat.github.io/", packages: ["libexpat1"], source: "expat",
            copyright: [
                "Copyright (C) 1998-2000 Thai Open Source Software Center Ltd and Clark Cooper",
                "Copyright (C) 2001-2017 Expat maintainers",
            ],
            licence: "MIT", texts: [], copyleft: false),
        debian(
            id: "libx11", name: "libX11",
            role: "client X11, lié par le cairo de Debian (inutilisé : les images sont dessinées en mémoire)",
            upstream: "https://gitlab.freedesktop.org/xorg/lib/libx11", packages: ["libx11-6"], source: "libx11",
            copyright: ["Copyright 1984-1994, 1998 The Open Group", "Copyright © 2009 Red Hat, Inc."],
            licence: "MIT/X11", texts: [], copyleft: false),
        debian(
            id: "libxext", name: "libXext", role: "extensions X11, pour cairo (inutilisées ici)",
            upstream: "https://gitlab.freedesktop.org/xorg/lib/libxext", packages: ["libxext6"], source: "libxext",
            copyright: ["Copyright 1986, 1987, 1988, 1989, 1994, 1998  The Open Group"],
            licence: "MIT/X11", texts: [], copyleft: false),
        debian(
            id: "libxrender", name: "libXrender", role: "extension X Render, pour cairo (inutilisée ici)",
            upstream: "https://gitlab.freedesktop.org/xorg/lib/libxrender", packages: ["libxrender1"],
            source: "libxrender",
            copyright: ["Copyright © 2001,2003 Keith Packard", "Copyright © 2000 SuSE, Inc."],
            licence: "MIT/X11", texts: [], copyleft: false),
        debian(
            id: "libxcb", name: "libxcb (xcb, xcb-render, xcb-shm)",
            role: "protocole X11, pour cairo et libX11 (inutilisé ici)",
            upstream: "https://xcb.freedesktop.org/", packages: ["libxcb1", "libxcb-render0", "libxcb-shm0"],
            source: "libxcb",
            copyright: ["Copyright (C) 2001-2006 Bart Massey, Jamey Sharp, and Josh Triplett."],
            licence: "MIT/X11", texts: [], copyleft: false),
        debian(
            id: "libxau", name: "libXau", role: "authentification X11, pour libxcb (inutilisée ici)",
            upstream: "https://gitlab.freedesktop.org/xorg/lib/libxau", packages: ["libxau6"], source: "libxau",
            copyright: ["Copyright 1988, 1998  The Open Group"],
            licence: "MIT/X11", texts: [], copyleft: false),
        debian(
            id: "libxdmcp", name: "libXdmcp", role: "protocole XDMCP, pour libxcb (inutilisé ici)",
            upstream: "https://gitlab.freedesktop.org/xorg/lib/libxdmcp", packages: ["libxdmcp6"], source: "libxdmcp",
            copyright: ["Copyright 1989, 1998  The Open Group"],
            licence: "MIT/X11", texts: [], copyleft: false),
        debian(
            id: "libbsd", name: "libbsd", role: "fonctions des systèmes BSD, pour libXdmcp",
            upstream: "https://libbsd.freedesktop.org/", packages: ["libbsd0"], source: "libbsd",
            copyright: ["Copyright © 2004-2006, 2008-2022 Guillem Jover <guillem@hadrons.org>"],
            licence: "BSD (licences à deux et trois clauses, ISC, MIT)", texts: [], copyleft: false),
        debian(
            id: "libmd", name: "libmd", role: "fonctions de hachage, pour libbsd",
            upstream: "https://www.hadrons.org/software/libmd/", packages: ["libmd0"], source: "libmd",
            copyright: ["Copyright © 2009, 2011, 2016 Guillem Jover <guillem@hadrons.org>"],
            licence: "BSD, ISC, domaine public", texts: [], copyleft: false),
        ThirdPartyComponent(
            id: "urw-base35", name: "Polices URW base 35 (Nimbus Sans)",
            role:
                "police des images de l’attestation, aux mêmes chasses qu’Helvetica : les images n’en contiennent que le rendu",
            upstreamURL: "https://github.com/ArtifexSoftware/urw-base35-fonts",
            debianPackages: ["fonts-urw-base35"], debianSourcePackage: "fonts-urw-base35",
            copyright: ["2015 URW Software", "2016, 2017 URW++ Design and Development GmbH"],
            licence: "AGPL 3 avec l’exception des polices", licenceIDs: ["Debian-fonts-urw-base35", "GPL-2"],
            note:
                "NimbusSans-Regular.otf, NimbusSans-Bold.otf et NimbusSans-Italic.otf de /usr/share/fonts/opentype/urw-base35, "
                + "lues par cairo (FreeType) ; la licence AGPL 3 et son exception pour les polices sont dans le fichier copyright Debian.",
            sourceOffer:
                "Le service lit ces polices à l’exécution, chargées dynamiquement et sans modification : ce sont les fichiers "
                + "du paquet fonts-urw-base35 de Debian 12. Leur source exacte est celle du paquet source Debian «\u{202F}fonts-urw-base35\u{202F}» : "
                + "apt-get source fonts-urw-base35, ou https://sources.debian.org/src/fonts-urw-base35/ ; "
                + "source amont : https://github.com/ArtifexSoftware/urw-base35-fonts"),
        debian(
            id: "dejavu", name: "Polices DejaVu (DejaVu Sans)",
            role: "police des valeurs qu’Helvetica ne peut écrire : les PDF en incorporent les seuls glyphes utilisés",
            upstream: "https://dejavu-fonts.github.io/", packages: ["fonts-dejavu-core"], source: "fonts-dejavu",
            copyright: [
                "Copyright (c) 2003 by Bitstream, Inc. All Rights Reserved.", "DejaVu changes are in public domain.",
            ],
            licence: "licence Bitstream Vera ; modifications de DejaVu dans le domaine public", texts: ["GPL-2"],
            copyleft: false),
        ThirdPartyComponent(
            id: "luciole", name: "Police Luciole (Regular, Bold, Regular-Italic, Bold-Italic) 1.001",
            role: "police des attestations d’avril à juin 2021 : les PDF en incorporent les seuls glyphes utilisés",
            upstreamURL: "https://www.luciole-vision.com/",
            debianPackages: [], debianSourcePackage: nil,
            copyright: ["2019 Laurent Bourcellier & Jonathan Perez"],
            licence: "Creative Commons Attribution 4.0 International (CC BY 4.0)", licenceIDs: ["CC-BY-4.0"],
            note: "Les quatre fichiers que le générateur du ministère de l’Intérieur incluait (src/*.ttf, "
                + "LAB-MI/attestation-deplacement-derogatoire-covid-19, avril à juin 2021), compilés dans les programmes "
                + "sans modification (Sources/FormSchema/Files) ; chaque PDF en incorpore un sous-ensemble.",
            sourceOffer: nil),
        ThirdPartyComponent(
            id: "logos-2021", name: "Logos Marianne (République française) et TousAntiCovid",
            role: "en-tête des attestations de mai et juin 2021, comme sur celles du ministère",
            upstreamURL: "https://github.com/LAB-MI/attestation-deplacement-derogatoire-covid-19",
            debianPackages: [], debianSourcePackage: nil,
            copyright: ["Copyright (c) 2020 Ministère de l'intérieur"],
            licence: "MIT (le dépôt du générateur)", licenceIDs: ["MIT-formulaire"],
            note: "RF.png et TAC.png du générateur (src/, commits de mai et juin 2021), sans modification. Le bloc "
                + "Marianne est l’identité de l’État : il figure ici comme sur les attestations officielles que ces "
                + "versions reproduisent, sans faire de ce service un service de l’État.",
            sourceOffer: nil),
        ThirdPartyComponent(
            id: "qrcode-generator", name: "QR Code Generator for JavaScript (qrcode-generator) 1.4.4",
            role: "QR code des attestations que la page personnelle crée sans réseau, dans le navigateur",
            upstreamURL: "https://github.com/kazuhikoarase/qrcode-generator",
            debianPackages: ["node-qrcode-generator"], debianSourcePackage: "node-qrcode-generator",
            copyright: ["2019, Kazuhiko Arase"],
            licence: "MIT (Expat)", licenceIDs: ["Debian-node-qrcode-generator"],
            note: "Le site sert une copie de /usr/share/javascript/qrcode-generator/qrcode.js du paquet Debian 12, "
                + "sans modification (son en-tête : «\u{202F}Copyright (c) 2009 Kazuhiko Arase\u{202F}», licence MIT) : "
                + "/vendor/qrcode-generator.js (scripts/upkeep/update-vendor-js.sh).",
            sourceOffer: nil),

        ThirdPartyComponent(
            id: "swift", name: "Swift : bibliothèque standard, Foundation, Dispatch",
            role: "environnement d’exécution des deux programmes", upstreamURL: "https://www.swift.org/",
            debianPackages: [], debianSourcePackage: nil, copyright: ["Apple Inc. and the Swift project authors"],
            licence: "Apache 2.0 avec l’exception des bibliothèques d’exécution", licenceIDs: ["Apache-2.0-Swift"],
            note:
                "Bibliothèques de la chaîne d’outils Swift 6 (libswiftCore, libFoundation, libdispatch…), liées dynamiquement.",
            sourceOffer: nil),
        ThirdPartyComponent(
            id: "icu", name: "ICU (swift-foundation-icu)",
            role: "données et règles Unicode de Foundation (dates, langues, découpage du texte)",
            upstreamURL: "https://github.com/swiftlang/swift-foundation-icu",
            debianPackages: [], debianSourcePackage: nil, copyright: ["Copyright © 2016-2024 Unicode, Inc."],
            licence: "Unicode License V3 et licences des données tierces", licenceIDs: ["ICU"],
            note: "ICU 76.1, adapté par le projet Swift, dans lib_FoundationICU de la chaîne d’outils.",
            sourceOffer: nil),
        swiftPackage(
            id: "swift-argument-parser", role: "lecture des options en ligne de commande",
            url: "https://github.com/apple/swift-argument-parser",
            copyright: ["Copyright (c) 2020 Apple Inc. and the Swift project authors"],
            licence: "Apache 2.0 avec l’exception des bibliothèques d’exécution", texts: ["Apache-2.0-Swift"]),
        swiftPackage(
            id: "swift-log", role: "journal des requêtes", url: "https://github.com/apple/swift-log",
            copyright: ["Copyright 2018, 2019 The SwiftLog Project"],
            licence: "Apache 2.0", texts: ["Apache-2.0", "NOTICE-swift-log"]),
        swiftPackage(
            id: "swift-metrics", role: "mesures du service", url: "https://github.com/apple/swift-metrics",
            copyright: ["Copyright 2018, 2019 The SwiftMetrics Project"],
            licence: "Apache 2.0", texts: ["Apache-2.0", "NOTICE-swift-metrics"]),
        swiftPackage(
            id: "swift-prometheus", role: "mesures au format Prometheus (/metrics)",
            url: "https://github.com/swift-server/swift-prometheus",
            copyright: ["Copyright (c) 2018-2025 SwiftPrometheus project authors"],
            licence: "Apache 2.0", texts: ["Apache-2.0"]),
        swiftPackage(
            id: "swift-atomics", role: "opérations atomiques, pour swift-prometheus",
            url: "https://github.com/apple/swift-atomics",
            copyright: ["Copyright (c) 2020 - 2025 Apple Inc. and the Swift project authors"],
            licence: "Apache 2.0 avec l’exception des bibliothèques d’exécution", texts: ["Apache-2.0-Swift"]),
        swiftPackage(
            id: "swiftcsv", name: "SwiftCSV", role: "lecture des fichiers CSV de personnes (attestation-admin)",
            url: "https://github.com/swiftcsv/SwiftCSV",
            copyright: ["Copyright (c) 2014 Naoto Kaneko.", "Copyright (c) 2019 SwiftCSV Contributors."],
            licence: "MIT", texts: ["MIT-SwiftCSV"]),

        ThirdPartyComponent(
            id: "formulaire", name: "Texte du formulaire officiel et format du QR code",
            role:
                "textes, mise en page et contenu du QR code des attestations, repris du générateur du ministère de l’Intérieur",
            upstreamURL: "https://github.com/LAB-MI/attestation-deplacement-derogatoire-q4-2020",
            debianPackages: [], debianSourcePackage: nil,
            copyright: ["Copyright (c) 2020 Ministère de l'intérieur", "Copyright (c) 2020 Johann Pardanaud"],
            licence: "MIT", licenceIDs: ["MIT-formulaire"],
            note: "Le service dessine ses propres pages ; il ne charge aucun fichier du ministère à l’exécution. Les "
                + "versions de 2021 viennent de LAB-MI/attestation-deplacement-derogatoire-covid-19 (même licence).",
            sourceOffer: nil),
    ]

    /// A C library or font from Debian 12: its Debian copyright file comes first, then the full
    /// texts that file refers to in /usr/share/common-licenses.
    private static func debian(
        id: String, name: String, role: String, upstream: String, packages: [String], source: String,
        copyright: [String], licence: String, texts: [String], copyleft: Bool = true
    ) -> ThirdPartyComponent {
        ThirdPartyComponent(
            id: id, name: name, role: role, upstreamURL: upstream, debianPackages: packages,
            debianSourcePackage: source,
            copyright: copyright, licence: licence, licenceIDs: ["Debian-\(packages[0])"] + texts, note: nil,
            sourceOffer: copyleft ? sourceOffer(packages: packages, source: source, upstream: upstream) : nil)
    }

    /// Where the exact source of a dynamically linked LGPL or GPL library is.
    static func sourceOffer(packages: [String], source: String, upstream: String) -> String {
        let named =
            packages.count == 1 ? "du paquet \(packages[0])" : "des paquets \(packages.joined(separator: " et "))"
        return
            "Le service lie ce composant dynamiquement, sans le modifier : c’est la bibliothèque \(named) de Debian 12. "
            + "Sa source exacte est celle du paquet source Debian «\u{202F}\(source)\u{202F}» : apt-get source \(source), "
            + "ou https://sources.debian.org/src/\(source)/ ; source amont : \(upstream)"
    }

    private static func swiftPackage(
        id: String, name: String? = nil, role: String, url: String, copyright: [String],
        licence: String, texts: [String]
    ) -> ThirdPartyComponent {
        ThirdPartyComponent(
            id: id, name: name ?? id, role: role, upstreamURL: url, debianPackages: [],
            debianSourcePackage: nil, copyright: copyright, licence: licence, licenceIDs: texts,
            note: "Paquet Swift compilé dans les programmes (version de Package.resolved).", sourceOffer: nil)
    }
}

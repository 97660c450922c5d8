import AttestationKit
import AttestationService
import FormSchema
import Foundation
import LinkTokens

/// The computed part of the seed corpus (`attestation-fuzz write-seeds Tests/Fuzz/Corpus`):
/// tokens signed with the fixture's key, the payloads behind them and their odd variants, the
/// forms, and requests naming the fixture's links. Signatures are deterministic (Ed25519) and
/// the fixture fixed, so writing them again gives the same files.
enum Seeds {
    static func write(to directory: URL) throws -> Int {
        var count = 0
        for (target, seeds) in [
            ("link-token", linkToken()), ("query", query()), ("form-json", try formJSON()),
            ("font-file", fontFile()), ("png-picture", pngPicture()),
        ] {
            let folder = directory.appendingPathComponent(target)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for (name, bytes) in seeds {
                try Data(bytes).write(to: folder.appendingPathComponent(name))
                count += 1
            }
        }
        return count
    }

    // MARK: link-token

    static let linkNames = [
        "camille", "verrouille", "outre-mer", "expire", "revoque", "long", "formulaire-absent", "fuseau-inconnu",
    ]

    static func linkToken() -> [(String, [UInt8])] {
        var seeds: [(String, [UInt8])] = []
        let t = { (name: String, token: String) in seeds.append(("t-\(name)", Array(("t" + token).utf8))) }
        let p = { (name: String, payload: [UInt8]) in seeds.append(("p-\(name)", [UInt8(ascii: "p")] + payload)) }
        for (name, link) in zip(linkNames, Fixture.links) {
            t(name, link.token)
            p(name, payload(of: link.token))
        }
        let token = Fixture.links[0].token
        t("tronque", String(token.dropLast(10)))
        t("altere", String(token.prefix(40)) + (token.dropFirst(40).first == "A" ? "B" : "A") + token.dropFirst(41))
        t("remplissage", token + "==")
        t(
            "alphabet-standard",
            token.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/") + "+/")
        t("vide", "")
        t("caracteres-hors-alphabet", "é\u{0}\n ?t=%41")
        t("version-2", LinkTokenTarget.sign(Wire().bytes(version: 2), with: Fixture.key))
        t("cle-inconnue", LinkTokenTarget.sign(Wire(keyID: "cle-retiree").bytes(), with: Fixture.key))
        t(
            "autre-cle-mauvaise-signature",
            LinkTokenTarget.sign(Wire(keyID: Fixture.otherKey.id).bytes(), with: Fixture.key))
        t("autre-cle", LinkTokenTarget.sign(Wire(keyID: Fixture.otherKey.id).bytes(), with: Fixture.otherKey))
        t("trop-long", String(repeating: "A", count: LinkToken.maximumLength + 1))

        // Payloads at the edges of the format, which the fuzzer signs before verifying.
        p("minimal", Wire().bytes())
        p("fuseau-et-verrou", Wire(flags: 6, zone: "Pacific/Noumea").bytes())
        p("drapeau-inconnu", Wire(flags: 8).bytes())
        p("drapeau-expire-sans-date", Wire(flags: 1).bytes())
        p("expire-a-zero", Wire(flags: 1, expiry: 0).bytes())
        p("varint-non-canonique", Wire().bytes(issuedBytes: [0x80, 0x00]))
        p("emis-63-bits", Wire().bytes(issuedBytes: [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F]))
        p("emis-derniere-minute", Wire().bytes(issuedBytes: [0xFF, 0xFF, 0xFF, 0xFF, 0x0F]))
        p("expire-apres-la-derniere-minute", Wire(flags: 1, expiry: 1 << 32).bytes())
        p("varint-10-octets", Wire().bytes(issuedBytes: Array(repeating: 0xFF, count: 9) + [0x01]))
        p("code-postal-99999", Wire(zip: 99_999).bytes())
        p("code-postal-100000", Wire(zip: 100_000).bytes())
        p("naissance-jour-0", Wire(birthDays: 0).bytes())
        p("naissance-future", Wire(birthDays: 99_999).bytes())
        p("32-motifs", Wire(reasons: Array(repeating: "travail", count: 32)).bytes())
        p("33-motifs", Wire(reasons: Array(repeating: "travail", count: 33)).bytes())
        p("motif-inconnu", Wire(reasons: ["teletravail"]).bytes())
        p("aucun-motif", Wire(reasons: []).bytes())
        p("octet-en-trop", Wire().bytes() + [0])
        p("utf8-invalide", Wire(firstName: [0xC3, 0x28]).bytes())
        p("nom-non-nfc", Wire(firstName: Array("Chloe\u{301}".utf8)).bytes())
        p("nom-espaces", Wire(firstName: Array("  Camille ".utf8)).bytes())
        p("nom-controle", Wire(firstName: Array("Ca\u{7}mille".utf8)).bytes())
        p("nom-vide", Wire(firstName: []).bytes())
        p("nom-51-caracteres", Wire(firstName: Array(String(repeating: "a", count: 51).utf8)).bytes())
        p(
            "nom-diacritiques-empiles",
            Wire(firstName: Array(("Z" + String(repeating: "\u{301}", count: 200)).utf8)).bytes())
        p("fuseau-vide", Wire(flags: 4, zone: "").bytes())
        // One character, 18 ASCII letters once transliterated for the QR code.
        p(
            "ligatures",
            Wire(
                firstName: Array(String(repeating: "\u{FDFA}", count: 50).utf8),
                address: Array(String(repeating: "\u{FDFA}", count: 100).utf8)
            ).bytes())
        p("formulaire-ancien", Wire(formID: "deplacement-2020-11-02", reasons: ["achats_culturel_cultuel"]).bytes())
        p("tronque", Array(Wire().bytes().dropLast(3)))

        seeds.append(
            (
                "r-liste",
                Array(
                    """
                    # révoqués le 28/11
                    \(Fixture.revokedID)
                    fuzz-lien-000000  # commentaire
                    \r\n\tAAAAAAAAAAAAAAAA\t\r\n
                    """.utf8)
            ))
        seeds.append(("r-ligne-invalide", Array("AAAAAAAAAAAAAAAA\nceci n’est pas un identifiant\n".utf8)))
        seeds.append(("r-vide", []))
        seeds.append(("r-separateurs", Array("\u{2028}AAAAAAAAAAAAAAAA\u{85}#\r\u{0}".utf8)))
        seeds = seeds.map { name, bytes in name.hasPrefix("r-") ? (name, [UInt8(ascii: "r")] + bytes) : (name, bytes) }

        // A refusal searched for this "token" with String.contains, which traps on it (see `holds`).
        seeds.append(("nul-apres-point", [UInt8(ascii: ".")] + Array(repeating: 0, count: 49)))
        seeds.append(("b-identifiant", Array("b\(Fixture.revokedID)".utf8)))
        seeds.append(("b-bits-de-poids-faible", Array("bAB".utf8)))
        seeds.append(("b-longueur-impossible", Array("bABCDE".utf8)))
        seeds.append(("b-octets", [UInt8(ascii: "b"), 0xFB, 0xFF, 0x00, 0x3E, 0x3F]))
        return seeds
    }

    /// The signed part of a token.
    static func payload(of token: String) -> [UInt8] {
        Array(Base64URL.decode(token)!.dropLast(64))
    }

    /// A payload written field by field, as README's "Token format" describes it, so single
    /// fields can take values `LinkToken.sign` never writes.
    struct Wire {
        var keyID = Fixture.key.id
        var flags: UInt8 = 0
        var expiry: UInt64?
        var formID = "deplacement-2020-11-28"
        var firstName = Array("Camille".utf8)
        var address = Array("999 avenue de France".utf8)
        var birthDays: UInt64 = 25_567  // 01/01/1970
        var zip: UInt64 = 75_001
        var reasons = ["travail"]
        var zone: String?

        func bytes(version: UInt8 = LinkToken.version, issuedBytes: [UInt8]? = nil) -> [UInt8] {
            var out: [UInt8] = [version]
            string(&out, Array(keyID.utf8))
            out += Array("fuzz-lien-00009".utf8).prefix(12)
            out += issuedBytes ?? varint(515_000)
            out.append(flags)
            if let expiry { out += varint(expiry) }
            string(&out, Array(formID.utf8))
            string(&out, firstName)
            string(&out, Array("Dupont".utf8))
            out += varint(birthDays)
            string(&out, Array("Lyon".utf8))
            string(&out, address)
            out += varint(zip)
            string(&out, Array("Paris".utf8))
            out += varint(UInt64(reasons.count))
            for reason in reasons { string(&out, Array(reason.utf8)) }
            if let zone { string(&out, Array(zone.utf8)) }
            return out
        }

        private func string(_ out: inout [UInt8], _ value: [UInt8]) {
            out += varint(UInt64(value.count)) + value
        }

        private func varint(_ value: UInt64) -> [UInt8] {
            var rest = value
            var out: [UInt8] = []
            while rest >= 0x80 {
                out.append(UInt8(rest & 0x7F) | 0x80)
                rest >>= 7
            }
            return out + [UInt8(rest)]
        }
    }

    // MARK: query

    static func query() -> [(String, [UInt8])] {
        let requests: [(String, String)] = [
            ("pdf", "/attestation.pdf?t=$0"),
            ("pdf-offset-moins-20", "/attestation.pdf?t=$0&offset=-20"),
            ("pdf-offset-minimum", "/attestation.pdf?offset=-180&t=$0"),
            ("pdf-offset-maximum", "/attestation.pdf?t=$0&offset=%2B1440"),
            ("pdf-offset-hors-bornes", "/attestation.pdf?t=$0&offset=1441"),
            ("pdf-offset-zeros", "/attestation.pdf?t=$0&offset=-000000"),
            ("pdf-offset-invalide", "/attestation.pdf?t=$0&offset=1e3"),
            ("pdf-at", "/attestation.pdf?t=$0&at=07:45"),
            ("pdf-at-minuit", "/attestation.pdf?t=$2&at=00%3A00"),
            ("pdf-at-invalide", "/attestation.pdf?t=$0&at=24:00"),
            ("pdf-at-sans-zero", "/attestation.pdf?t=$0&at=7:45"),
            ("pdf-offset-et-at", "/attestation.pdf?t=$0&offset=5&at=08:00"),
            ("pdf-motifs", "/attestation.pdf?t=$0&reasons=sante,achats"),
            ("pdf-motifs-espaces", "/attestation.pdf?t=$0&reasons=+sante+,%20achats"),
            ("pdf-motif-vide", "/attestation.pdf?t=$0&reasons=sante,,achats"),
            ("pdf-motif-inconnu", "/attestation.pdf?t=$0&reasons=teletravail"),
            ("pdf-motifs-vides", "/attestation.pdf?t=$0&reasons=&offset="),
            ("pdf-motifs-verrouilles", "/attestation.pdf?t=$1&reasons=travail"),
            ("pdf-outre-mer", "/attestation.pdf?t=$2&at=12:30&reasons=achats_culturel_cultuel"),
            ("pdf-expire", "/attestation.pdf?t=$3"),
            ("pdf-revoque", "/attestation.pdf?t=$4&offset=10"),
            ("pdf-long", "/attestation.pdf?t=$5&offset=-20"),
            ("pdf-formulaire-absent", "/attestation.pdf?t=$6"),
            ("pdf-fuseau-inconnu", "/attestation.pdf?t=$7"),
            ("pdf-jeton-brut", "/attestation.pdf?t=\(Fixture.links[0].token)"),
            ("pdf-jeton-tronque", "/attestation.pdf?t=\(Fixture.links[0].token.dropLast(20))"),
            ("pdf-sans-t", "/attestation.pdf?offset=-20"),
            ("pdf-t-double", "/attestation.pdf?t=$0&t=$1"),
            ("pdf-t-sans-valeur", "/attestation.pdf?t"),
            ("pdf-parametre-inconnu", "/attestation.pdf?t=$0&ofset=-20"),
            ("pdf-parametre-nul", "/attestation.pdf?t=$0&offset=-2%000"),
            ("pdf-esperluettes", "/attestation.pdf?&&t=$0&"),
            ("png", "/attestation.png?t=$0"),
            ("png-taille", "/attestation.png?t=$5&size=185"),
            ("png-taille-trop-petite", "/attestation.png?t=$0&size=184"),
            ("png-taille-invalide", "/attestation.png?t=$0&size=0x200"),
            ("png-outre-mer", "/attestation.png?t=$2&size=600&offset=-30"),
            ("png-page", "/attestation.png?t=$0&page=2&dpi=72"),
            ("png-page-size", "/attestation.png?t=$2&page=1&size=400"),
            ("head-png", "HEAD /attestation.png?t=$1&size=400"),
            ("post-pdf", "POST /attestation.pdf?t=$0"),
            ("post-api", "POST /api/v1/link?t=$0"),
            ("methode-inconnue", "BREW /"),
            ("api-link", "/api/v1/link?t=$0"),
            ("api-link-outre-mer", "/api/v1/link?t=$2"),
            ("api-link-expire", "/api/v1/link?t=$3"),
            ("api-link-offset", "/api/v1/link?t=$0&offset=-20"),
            ("api-link-sans-t", "/api/v1/link"),
            ("api-template", "/api/v1/template?t=$1"),
            ("api-template-formulaire-absent", "/api/v1/template?t=$6"),
            ("api-manifest", "/api/v1/manifest?t=$2"),
            ("api-manifest-sans-t", "/api/v1/manifest\n\0"),
            ("api-forms", "/api/v1/forms"),
            ("api-forms-parametre", "/api/v1/forms?x"),
            ("api-inconnue", "/api/v2/link?t=$0"),
            ("healthz", "/healthz"),
            ("metrics", "/metrics"),
            ("licenses", "/licenses"),
            ("licenses-parametre", "/licenses?lang=fr"),
            ("site-racine", "/"),
            ("site-script", "/app.js"),
            ("site-sous-dossier", "/sous-dossier/\nIf-None-Match: \"0\", *"),
            ("site-etag", "/app.js\nIf-None-Match: W/\"x\"\nAccept: */*"),
            ("site-remontee", "/%2e%2e/config.json"),
            ("site-fichier-cache", "/.env"),
            ("lien-complet", "https://attestation.example.org/attestation.pdf?t=\(Fixture.links[1].token)&offset=-20"),
        ]
        // A request to every route of the service that no seed above reaches, so that a route
        // added to the service is in the corpus (write-seeds, then fuzz-replay.sh's check that
        // the corpus is fresh) and goes through the query target's properties at once: its own
        // lists of routes once missed /api/v1/manifest, and only random fuzzing found it.
        let reached = Set(
            requests.map { request in
                let line = request.1.split(separator: "\n", omittingEmptySubsequences: false)[0]
                let target = line.split(separator: " ").last ?? ""
                return String(target.split(separator: "?", omittingEmptySubsequences: false)[0])
            })
        let missing = Service.fixedRoutes.subtracting(reached).sorted().map { route in
            ("route" + route.replacingOccurrences(of: "/", with: "-"), "\(route)?t=$0")
        }
        return (requests + missing).map { ($0.0, Array($0.1.utf8)) }
    }

    // MARK: form-json

    static func edit(_ object: inout [String: Any], _ key: String, _ change: (inout [String: Any]) -> Void) {
        var inner = object[key] as! [String: Any]
        change(&inner)
        object[key] = inner
    }

    static func formJSON() throws -> [(String, [UInt8])] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var seeds: [(String, [UInt8])] = []
        var base: [String: Any] = [:]
        for form in FormCatalog.builtIn.forms {
            let data = try encoder.encode(form)
            seeds.append((form.id, [UInt8](data)))
            if form.id == FormCatalog.builtIn.defaultFormID {
                base = try JSONSerialization.jsonObject(with: data) as! [String: Any]
            }
        }
        // Variants of the default form, each with a new id so that the catalog takes it.
        func variant(_ name: String, _ change: (inout [String: Any]) -> Void) throws {
            var object = base
            object["id"] = "formulaire-\(name)"
            change(&object)
            seeds.append((name, [UInt8](try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))))
        }
        func reasons(_ object: [String: Any]) -> [[String: Any]] { object["reasons"] as! [[String: Any]] }
        try variant("nouvel-id") { _ in }
        try variant("cle-inconnue") { $0["lable"] = "x" }
        try variant("cle-absente") { $0["metadata"] = nil }
        try variant("optionnel-nul") { $0["rules"] = NSNull() }
        try variant("type-inattendu") { $0["page"] = "A4" }
        try variant("id-invalide") { $0["id"] = "Formulaire Spécial" }
        try variant("page-nulle") { $0["page"] = ["width": 0, "height": 841.89] }
        try variant("page-immense") { $0["page"] = ["width": 5.9e83, "height": 841.89] }
        try variant("marque-1152") { Self.edit(&$0, "reasonLayout") { $0["markSize"] = 1152 } }
        try variant("decalage-immense") { Self.edit(&$0, "reasonLayout") { $0["boxDY"] = 1e300 } }
        try variant("largeur-immense") { Self.edit(&$0, "title") { $0["width"] = 1e300 } }
        try variant("interligne-immense") { Self.edit(&$0, "legalText") { $0["leading"] = 1e18 } }
        try variant("page-maximale") { $0["page"] = ["width": 14_400, "height": 14_400] }
        try variant("un-motif") { $0["reasons"] = Array(reasons($0).prefix(1)) }
        try variant("aucun-motif") { $0["reasons"] = [] as [Any] }
        try variant("motif-en-double") { $0["reasons"] = reasons($0) + reasons($0).prefix(1) }
        try variant("variable-inconnue") {
            $0["qrPayload"] = ["lines": ["{nom}"], "separator": ";", "trailingSeparator": false]
        }
        try variant("accolade-ouverte") {
            $0["qrPayload"] = [
                "lines": ["Nom: {lastName", "{{firstName}}"], "separator": "", "trailingSeparator": true,
            ]
        }
        try variant("qr-trop-long") {
            var format = $0["qrPayload"] as! [String: Any]
            format["lines"] = (format["lines"] as! [String]) + [String(repeating: "Adresse: {address} ", count: 6)]
            $0["qrPayload"] = format
        }
        try variant("qr-hors-page") { $0["qrCodes"] = [["page": 1, "x": 500, "y": 10, "size": 200]] }
        try variant("qr-page-3") { $0["qrCodes"] = [["page": 3, "x": 0, "y": 0, "size": 100]] }
        try variant("taille-de-police-72") {
            var title = $0["title"] as! [String: Any]
            title["size"] = 72
            title["text"] = String(repeating: "ATTESTATION ", count: 30)
            $0["title"] = title
        }
        try variant("texte-etroit") {
            var legal = $0["legalText"] as! [String: Any]
            legal["width"] = 0.001
            legal["leading"] = 0.001
            $0["legalText"] = legal
        }
        try variant("pointilles") { $0["rules"] = [["x": 0, "y": 10, "length": 595, "dash": [1, 100]]] }
        seeds.append(("tronque", Array(seeds[0].1.prefix(600))))
        seeds.append(("imbrique", Array(String(repeating: "[", count: 300).utf8)))
        seeds.append(
            (
                "nombres-extremes",
                Array(
                    #"{"id": "x", "page": {"width": 1e308, "height": -0.0}, "reasons": [{"number": 9223372036854775808}]}"#
                        .utf8)
            ))
        seeds.append(("pas-un-objet", Array("[]".utf8)))
        return seeds
    }

    // MARK: font-file, png-picture

    /// Luciole as the built-in forms embed it, and the damaged copies of issue 38, each a
    /// crash or a silent acceptance before: counts and offsets that run past a table or the file.
    static func fontFile() -> [(String, [UInt8])] {
        let luciole = FormFileTarget.base.fonts.first { $0.name == "Luciole" }!.bytes
        let font = TrueTypeTables(luciole)
        var seeds: [(String, [UInt8])] = [("luciole-regular", luciole)]
        seeds.append(("hhea-65535-metriques", font.patched("hhea", at: 34, [0xFF, 0xFF])))
        seeds.append(("maxp-65535-glyphes", font.patched("maxp", at: 4, [0xFF, 0xFF])))
        seeds.append(("table-hors-du-fichier", font.lengthened("glyf", to: luciole.count)))
        seeds.append(("cmap-sous-table-hors-du-fichier", font.cmapSubtables { _ in UInt32(luciole.count + 1000) }))
        seeds.append(("cmap-format4-longueur-0", font.format4Length(0)))
        seeds.append(("loca-format-long", font.patched("head", at: 50, [0x00, 0x01])))
        seeds.append(("glyf-plus-court-que-loca", font.lengthened("glyf", to: 100)))
        seeds.append(("tronquee", Array(luciole.prefix(luciole.count / 2))))
        seeds.append(("vide", []))
        return seeds
    }

    /// The logo of 2021 (RF.png), small valid pictures, and the refused ones of issue 38.
    static func pngPicture() -> [(String, [UInt8])] {
        let logo = FormFileTarget.base.images[0].bytes
        var seeds: [(String, [UInt8])] = [("rf", logo)]
        let png = PNGChunks(logo)
        seeds.append(("14000x14000", png.withHeader(width: 14_000, height: 14_000)))
        seeds.append(("65535x65535", png.withHeader(width: 65_535, height: 65_535)))
        seeds.append(("2048x2049", png.withHeader(width: 2_048, height: 2_049)))
        seeds.append(("crc-faux", png.corruptingCRC(of: "IDAT")))
        seeds.append(("sans-idat", png.without("IDAT")))
        seeds.append(("palette-sans-plte", png.withHeader(colourType: 3)))
        seeds.append(("profondeur-3", png.withHeader(bitDepth: 3)))
        seeds.append(("tronquee", Array(logo.prefix(logo.count / 2))))
        seeds.append(("signature-seule", Array(logo.prefix(8))))
        return seeds
    }
}

/// A TrueType file's table directory, to damage one table of a copy.
struct TrueTypeTables {
    var bytes: [UInt8]
    var tables: [String: (offset: Int, length: Int, entry: Int)] = [:]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        guard bytes.count >= 12 else { return }
        for index in 0..<Int(bigEndian(bytes, 4, 2)) {
            let entry = 12 + 16 * index
            let tag = String(decoding: bytes[entry..<entry + 4], as: UTF8.self)
            tables[tag] = (bigEndian(bytes, entry + 8, 4), bigEndian(bytes, entry + 12, 4), entry)
        }
    }

    func patched(_ tag: String, at offset: Int, _ values: [UInt8]) -> [UInt8] {
        var copy = bytes
        let start = tables[tag]!.offset + offset
        copy.replaceSubrange(start..<start + values.count, with: values)
        return copy
    }

    /// The table's length in the directory set to `length`.
    func lengthened(_ tag: String, to length: Int) -> [UInt8] {
        var copy = bytes
        let entry = tables[tag]!.entry
        copy.replaceSubrange(entry + 12..<entry + 16, with: bigEndianBytes(length, 4))
        return copy
    }

    /// Each `cmap` encoding record's subtable offset replaced.
    func cmapSubtables(_ offset: (Int) -> UInt32) -> [UInt8] {
        var copy = bytes
        let cmap = tables["cmap"]!.offset
        for index in 0..<bigEndian(bytes, cmap + 2, 2) {
            let record = cmap + 4 + 8 * index + 4
            copy.replaceSubrange(record..<record + 4, with: bigEndianBytes(Int(offset(index)), 4))
        }
        return copy
    }

    /// The `length` of each format 4 subtable set to `length`.
    func format4Length(_ length: Int) -> [UInt8] {
        var copy = bytes
        let cmap = tables["cmap"]!.offset
        for index in 0..<bigEndian(bytes, cmap + 2, 2) {
            let subtable = cmap + bigEndian(bytes, cmap + 4 + 8 * index + 4, 4)
            if bigEndian(bytes, subtable, 2) == 4 {
                copy.replaceSubrange(subtable + 2..<subtable + 4, with: bigEndianBytes(length, 2))
            }
        }
        return copy
    }
}

/// A PNG file's chunks, to make damaged copies with CRCs that are right unless said otherwise.
struct PNGChunks {
    let chunks: [(type: String, data: [UInt8])]

    init(_ bytes: [UInt8]) {
        var chunks: [(String, [UInt8])] = []
        var offset = 8
        while offset + 12 <= bytes.count {
            let length = bigEndian(bytes, offset, 4)
            let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            chunks.append((type, Array(bytes[offset + 8..<offset + 8 + length])))
            offset += 12 + length
        }
        self.chunks = chunks
    }

    func bytes(_ chunks: [(type: String, data: [UInt8])], badCRC: String? = nil) -> [UInt8] {
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        for (type, data) in chunks {
            let typed = Array(type.utf8) + data
            out += bigEndianBytes(data.count, 4) + typed
            out += bigEndianBytes(Int(Self.crc32(typed) ^ (type == badCRC ? 1 : 0)), 4)
        }
        return out
    }

    func withHeader(width: Int? = nil, height: Int? = nil, bitDepth: UInt8? = nil, colourType: UInt8? = nil) -> [UInt8]
    {
        bytes(
            chunks.map { chunk in
                guard chunk.type == "IHDR" else { return chunk }
                var data = chunk.data
                if let width { data.replaceSubrange(0..<4, with: bigEndianBytes(width, 4)) }
                if let height { data.replaceSubrange(4..<8, with: bigEndianBytes(height, 4)) }
                if let bitDepth { data[8] = bitDepth }
                if let colourType { data[9] = colourType }
                return (chunk.type, data)
            })
    }

    func corruptingCRC(of type: String) -> [UInt8] { bytes(chunks, badCRC: type) }
    func without(_ type: String) -> [UInt8] { bytes(chunks.filter { $0.type != type }) }

    /// PNG's CRC-32 (ISO 3309), bit by bit: a few seeds, not worth a table.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        }
        return crc ^ 0xFFFF_FFFF
    }
}

private func bigEndian(_ bytes: [UInt8], _ offset: Int, _ count: Int) -> Int {
    (offset..<offset + count).reduce(0) { $0 << 8 | Int(bytes[$1]) }
}

private func bigEndianBytes(_ value: Int, _ count: Int) -> [UInt8] {
    (0..<count).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
}

import Foundation
import TestSupport
import Testing

private let camille = [
    "--first-name", "Camille", "--last-name", "Dupont", "--birth-date", "01/01/1970", "--birth-place", "Lyon",
    "--address", "999 avenue de France", "--zip", "75001", "--city", "Paris",
]

private func mint(_ arguments: [String], in scratch: Scratch) throws -> String {
    let result = try Tool.admin(["mint"] + arguments, in: scratch.url)
    try #require(result.status == 0, "mint failed: \(result.stderr)")
    return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
}

/// The QR code of a sheet's SVG (a white square, then one path of `M x y h w v h h-w z`
/// rectangles in module units), drawn to an image that zbarimg reads.
private func decodedSVG(_ svg: String, scratch: Scratch, scale: Int = 6) throws -> String? {
    let side = try #require(svg.firstMatch(of: #/viewBox="0 0 (\d+) \d+"/#).flatMap { Int($0.1) })
    let width = side * scale
    var pixels = [UInt8](repeating: 255, count: width * width)
    for m in svg.matches(of: #/M(\d+) (\d+)h(\d+)v(\d+)h-\d+z/#) {
        let (x, y, w, h) = (Int(m.1)!, Int(m.2)!, Int(m.3)!, Int(m.4)!)
        for row in (y * scale)..<((y + h) * scale) {
            for column in (x * scale)..<((x + w) * scale) { pixels[row * width + column] = 0 }
        }
    }
    let image = URL(fileURLWithPath: scratch.path("sheet-\(UUID().uuidString).pgm"))
    try (Data("P5\n\(width) \(width)\n255\n".utf8) + Data(pixels)).write(to: image)
    let result = try Tool.external("zbarimg", zbarimgQRCodeOptions + [image.path])
    return result.status == 0 ? result.stdout : nil
}

@Suite struct LinkCommandsTests {
    @Test func initWritesAPrivateKeyOnlyItsOwnerCanReadAndRefusesToOverwrite() throws {
        let scratch = try initializedSite()
        let key = try FileManager.default.attributesOfItem(atPath: scratch.path("keys/k1.key"))
        #expect((key[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let directory = try FileManager.default.attributesOfItem(atPath: scratch.path("keys"))
        #expect((directory[.posixPermissions] as? NSNumber)?.intValue == 0o700)
        let config = try String(contentsOfFile: scratch.path("config.json"), encoding: .utf8)
        #expect(config.contains("\"publicKey\""))
        #expect(!config.contains("privateKey"), "the configuration holds public keys only")

        let before = try Data(contentsOf: URL(fileURLWithPath: scratch.path("keys/k1.key")))
        let again = try Tool.admin(["init"], in: scratch.url)
        #expect(again.status == 73)
        #expect(again.stderr.contains("existe déjà"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.path("keys/k1.key"))) == before, "key untouched")
    }

    /// `init --config /etc/attestation/config.json` on a new machine: the service's user must be
    /// able to enter the configuration's directory; only `keys/` is private.
    @Test func initCreatesTheConfigurationDirectoryReadableAndOnlyKeysPrivate() throws {
        let scratch = try Scratch()
        let config = scratch.path("etc/attestation/config.json")
        let result = try Tool.admin(["init", "--config", config])
        try #require(result.status == 0, "\(result.stderr)")
        let mode = { (path: String) in
            ((try FileManager.default.attributesOfItem(atPath: path))[.posixPermissions] as? NSNumber)?.intValue
        }
        #expect(try mode(scratch.path("etc/attestation")).map { $0 & 0o005 } == 0o005, "others may enter and list it")
        #expect(try mode(scratch.path("etc/attestation/keys")) == 0o700)
    }

    /// keygen and revoke rewrite files the server reads: under `umask 077` they must keep their mode.
    @Test func rewritingConfigurationAndRevocationListKeepsTheirMode() throws {
        let scratch = try initializedSite()
        for file in ["config.json", "revoked.txt"] {
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: scratch.path(file))
        }
        let link = try mint(camille + ["--reason", "travail"], in: scratch)
        let admin = Tool.admin.path
        for command in ["keygen --key-id k2", "revoke '\(link)'"] {
            let r = try Tool.external("sh", ["-c", "umask 077 && exec \(admin) \(command)"], in: scratch.url)
            #expect(r.status == 0, "\(command): \(r.stderr)")
        }
        #expect(
            try String(contentsOfFile: scratch.path("config.json"), encoding: .utf8).contains("\"k2\""), "keygen wrote")
        for file in ["config.json", "revoked.txt"] {
            let mode =
                (try FileManager.default.attributesOfItem(atPath: scratch.path(file)))[.posixPermissions] as? NSNumber
            #expect(mode?.intValue == 0o644, "\(file) keeps 0644")
        }
    }

    @Test func mintInspectRevokeInspect() throws {
        let scratch = try initializedSite()
        let link = try mint(camille + ["--reason", "travail", "--expires", "30d"], in: scratch)
        #expect(link.hasPrefix("https://attestation.example.org/attestation.pdf?t="))
        #expect(link.count < 400, "a whole link for a typical person stays under 400 characters (\(link.count))")

        let valid = try Tool.admin(["inspect", link], in: scratch.url)
        #expect(valid.status == 0, "\(valid.stderr)")
        #expect(valid.stdout.contains("statut : valide"))
        #expect(valid.stdout.contains("personne : Camille Dupont, né(e) le 01/01/1970 à Lyon"))
        #expect(valid.stdout.contains("clé : k1"))
        #expect(valid.stdout.contains("motifs : travail"))

        let file = scratch.path("a.pdf")
        let render = try Tool.admin(
            ["render", link, "--offset", "-20", "--reason", "sante", "-o", file], in: scratch.url)
        #expect(render.status == 0, "\(render.stderr)")
        let payload = try #require(try decodedQRCodes(in: file, scratch: scratch).first)
        #expect(payload.contains("Nom: Dupont;\nPrenom: Camille;\n"))
        #expect(payload.hasSuffix("Motifs: sante;\n"), "--reason replaces the link's reasons")

        let revoke = try Tool.admin(["revoke", link], in: scratch.url)
        #expect(revoke.status == 0, "\(revoke.stderr)")
        let revoked = try Tool.admin(["inspect", link], in: scratch.url)
        #expect(revoked.status == 65)
        #expect(revoked.stdout.contains("statut : révoqué"))
        let refused = try Tool.admin(["render", link, "-o", scratch.path("b.pdf")], in: scratch.url)
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("lien révoqué"))
        #expect(!FileManager.default.fileExists(atPath: scratch.path("b.pdf")))
        let twice = try Tool.admin(["revoke", link], in: scratch.url)
        #expect(twice.stdout.contains("déjà révoqué"))
    }

    @Test func alteredAndForeignLinksAreRefused() throws {
        let scratch = try initializedSite()
        let link = try mint(camille + ["--reason", "travail"], in: scratch)
        // One character changed in the middle of the token.
        var characters = Array(link)
        let index = characters.count - 100
        characters[index] = characters[index] == "A" ? "B" : "A"
        let altered = try Tool.admin(["inspect", String(characters)], in: scratch.url)
        #expect(altered.status == 65)
        #expect(altered.stderr.contains("lien altéré") || altered.stderr.contains("lien invalide"))

        // Signed by another administrator's key of the same id.
        let other = try initializedSite()
        let foreign = try mint(camille + ["--reason", "travail"], in: other)
        let result = try Tool.admin(["inspect", foreign], in: scratch.url)
        #expect(result.status == 65)
        #expect(result.stderr.contains("lien altéré"))
    }

    @Test func rotationKeepsOldLinksUntilTheirKeyIsRemoved() throws {
        let scratch = try initializedSite()
        let old = try mint(camille + ["--reason", "travail"], in: scratch)
        let keygen = try Tool.admin(["keygen", "--key-id", "k2"], in: scratch.url)
        #expect(keygen.status == 0, "\(keygen.stderr)")
        let new = try mint(camille + ["--reason", "travail"], in: scratch)
        #expect(try Tool.admin(["inspect", new], in: scratch.url).stdout.contains("clé : k2"))
        #expect(try Tool.admin(["inspect", old], in: scratch.url).status == 0, "old links still work")
        #expect(try Tool.admin(["keygen", "--key-id", "k2"], in: scratch.url).status == 65, "no duplicate key id")

        // Remove k1 from the configuration: its links stop working.
        let configURL = URL(fileURLWithPath: scratch.path("config.json"))
        var config = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: configURL)) as? [String: Any])
        config["keys"] = (config["keys"] as! [[String: Any]]).filter { $0["id"] as? String != "k1" }
        try JSONSerialization.data(withJSONObject: config).write(to: configURL)
        let removed = try Tool.admin(["inspect", old], in: scratch.url)
        #expect(removed.status == 65)
        #expect(removed.stderr.contains("clé inconnue"))
    }

    @Test func aPrivateKeyOthersCanReadIsRefused() throws {
        let scratch = try initializedSite()
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: scratch.path("keys/k1.key"))
        let result = try Tool.admin(["mint"] + camille + ["--reason", "travail"], in: scratch.url)
        #expect(result.status == 77)
        #expect(result.stderr.contains("chmod 600"))
        #expect(result.stdout.isEmpty, "no link printed")
    }

    @Test func htmlPageHasALinkAndAQRCodePerPerson() throws {
        let scratch = try initializedSite()
        let output = scratch.path("links.html")
        let result = try Tool.admin(
            ["mint"] + camille + [
                "--reason", "travail", "--expires", "2099-06-30", "--time-zone", "America/Martinique",
                "--format", "html", "-o", output,
            ], in: scratch.url)
        #expect(result.status == 0, "\(result.stderr)")
        let html = try String(contentsOfFile: output, encoding: .utf8)
        #expect(
            html.contains("Valable jusqu’au 30/06/2099 18:00 (America/Martinique)."),
            "the expiry in the link's zone, named")
        #expect(html.contains("<html lang=\"fr\">"))
        #expect(html.contains("<h2>Camille Dupont</h2>"))
        #expect(html.contains("href=\"https://attestation.example.org/attestation.pdf?t="))
        #expect(html.contains("pour un favori ou un raccourci"), "one line on what the PDF link is for")
        #expect(html.contains("il ouvre sa page personnelle"), "one line on what the QR code is for")
        #expect(html.contains("<svg"))
        #expect(!html.contains("{{"), "every placeholder of the template filled in")
        #expect(!html.contains("<script"), "no script")
        #expect(!html.contains("src=\"http"), "no request to another site")

        // The code people scan opens the personal page of the same link as the PDF beside it.
        let svg = try #require(
            html.range(of: "<svg").map { html[$0.lowerBound...] }.flatMap { text in
                text.range(of: "</svg>").map { String(text[..<$0.upperBound]) }
            })
        let decoded = try #require(try decodedSVG(svg, scratch: scratch)).trimmingCharacters(in: .newlines)
        #expect(decoded.hasPrefix("https://attestation.example.org/?t="), "\(decoded)")
        let token = String(decoded.dropFirst("https://attestation.example.org/?t=".count))
        #expect(html.contains("href=\"https://attestation.example.org/attestation.pdf?t=\(token)\""))
    }

    /// A link expiring as it is made (`0d`) would be refused at once by the server: mint refuses
    /// it, as it refuses more than ten years, and mints nothing.
    @Test(arguments: ["0d", "0j", "3651d"])
    func mintRefusesAnExpiryOutsideOneTo3650Days(expires: String) throws {
        let scratch = try initializedSite()
        let result = try Tool.admin(
            ["mint"] + camille + ["--reason", "travail", "--expires", expires], in: scratch.url)
        #expect(result.status == 65, "\(expires): \(result.status) \(result.stdout)")
        #expect(
            result.stderr.contains(
                "--expires : de 1 à 3650 jours ; un nombre de jours (90d ou 90j) ou un dernier jour de validité futur"),
            "\(result.stderr)")
        #expect(result.stdout.isEmpty, "no link printed")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("links.jsonl")), "nothing registered")
    }

    /// A name is text on the sheet, never markup: `<`, `>` and `&` are written as entities.
    @Test func htmlPageEscapesTheNames() throws {
        let scratch = try initializedSite()
        let output = scratch.path("links.html")
        let person = [
            "--first-name", "Léa <script>alert(1)</script>", "--last-name", "Roux & Fils", "--birth-date",
            "01/01/1970", "--birth-place", "Lyon", "--address", "1 rue Haute", "--zip", "75001", "--city", "Paris",
        ]
        let result = try Tool.admin(
            ["mint"] + person + ["--reason", "travail", "--format", "html", "-o", output], in: scratch.url)
        #expect(result.status == 0, "\(result.stderr)")
        let html = try String(contentsOfFile: output, encoding: .utf8)
        let heading = html.split(separator: "\n").first { $0.contains("<h2>") }?.trimmingCharacters(in: .whitespaces)
        #expect(heading == "<h2>Léa &lt;script&gt;alert(1)&lt;/script&gt; Roux &amp; Fils</h2>")
        let (script, bareAmpersand) = (html.contains("<script"), html.contains("Roux & Fils"))
        #expect(!script, "no script")
        #expect(!bareAmpersand, "no bare & in the text")
    }

    @Test func everySubcommandHasHelpWithAnExample() throws {
        for command in ["init", "keygen", "mint", "links", "inspect", "revoke", "render", "forms"] {
            let help = try Tool.admin([command, "--help"])
            #expect(help.status == 0)
            #expect(help.stdout.contains("Exemple"), "\(command) --help has an example")
        }
    }
}

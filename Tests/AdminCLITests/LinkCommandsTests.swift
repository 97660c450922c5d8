import Foundation
import Testing
import TestSupport

private let camille = [
    "--first-name", "Camille", "--last-name", "Dupont", "--birth-date", "01/01/1970", "--birth-place", "Lyon",
    "--address", "999 avenue de France", "--zip", "75001", "--city", "Paris",
]

/// A directory with a configuration and key made by `init`.
private func initialized() throws -> Scratch {
    let scratch = try Scratch()
    let result = try Tool.admin(["init", "--base-url", "https://attestation.example.org"], in: scratch.url)
    try #require(result.status == 0, "init failed: \(result.stderr)")
    return scratch
}

private func mint(_ arguments: [String], in scratch: Scratch) throws -> String {
    let result = try Tool.admin(["mint"] + arguments, in: scratch.url)
    try #require(result.status == 0, "mint failed: \(result.stderr)")
    return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
}

@Suite struct LinkCommandsTests {
    @Test func initWritesAPrivateKeyOnlyItsOwnerCanReadAndRefusesToOverwrite() throws {
        let scratch = try initialized()
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
        let scratch = try initialized()
        for file in ["config.json", "revoked.txt"] {
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: scratch.path(file))
        }
        let link = try mint(camille + ["--reason", "travail"], in: scratch)
        let admin = Tool.admin.path
        for command in ["keygen --key-id k2", "revoke '\(link)'"] {
            let r = try Tool.external("sh", ["-c", "umask 077 && exec \(admin) \(command)"], in: scratch.url)
            #expect(r.status == 0, "\(command): \(r.stderr)")
        }
        #expect(try String(contentsOfFile: scratch.path("config.json"), encoding: .utf8).contains("\"k2\""), "keygen wrote")
        for file in ["config.json", "revoked.txt"] {
            let mode = (try FileManager.default.attributesOfItem(atPath: scratch.path(file)))[.posixPermissions] as? NSNumber
            #expect(mode?.intValue == 0o644, "\(file) keeps 0644")
        }
    }

    @Test func mintInspectRevokeInspect() throws {
        let scratch = try initialized()
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
        let render = try Tool.admin(["render", link, "--offset", "-20", "--reason", "sante", "-o", file], in: scratch.url)
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
        let scratch = try initialized()
        let link = try mint(camille + ["--reason", "travail"], in: scratch)
        // One character changed in the middle of the token.
        var characters = Array(link)
        let index = characters.count - 100
        characters[index] = characters[index] == "A" ? "B" : "A"
        let altered = try Tool.admin(["inspect", String(characters)], in: scratch.url)
        #expect(altered.status == 65)
        #expect(altered.stderr.contains("lien altéré") || altered.stderr.contains("lien invalide"))

        // Signed by another administrator's key of the same id.
        let other = try initialized()
        let foreign = try mint(camille + ["--reason", "travail"], in: other)
        let result = try Tool.admin(["inspect", foreign], in: scratch.url)
        #expect(result.status == 65)
        #expect(result.stderr.contains("lien altéré"))
    }

    @Test func rotationKeepsOldLinksUntilTheirKeyIsRemoved() throws {
        let scratch = try initialized()
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
        let scratch = try initialized()
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: scratch.path("keys/k1.key"))
        let result = try Tool.admin(["mint"] + camille + ["--reason", "travail"], in: scratch.url)
        #expect(result.status == 77)
        #expect(result.stderr.contains("chmod 600"))
        #expect(result.stdout.isEmpty, "no link printed")
    }

    @Test func csvMintsTheGoodRowsAndNamesTheBadOnes() throws {
        let scratch = try initialized()
        let csv = """
            first_name;last_name;birth_date;birth_place;address;zip;city;reasons;lock_reasons
            Anna;Kowalska;02/03/1980;Łódź;3 rue X;69001;Lyon;sante|famille;non
            Bob;Bad;31/02/1980;Paris;1 rue Y;75001;Paris;travail;
            Élodie;Martin;05/06/1990;Nantes;2 rue Z;44000;Nantes;plage;
            Zoé;Durand;05/06/1990;Nantes;"2 rue Z; bât. B";01000;Nantes;sport_animaux;oui

            """
        try Data(csv.utf8).write(to: URL(fileURLWithPath: scratch.path("people.csv")))
        let output = scratch.path("links.json")
        let result = try Tool.admin(["mint", "--csv", "people.csv", "--format", "json", "-o", output], in: scratch.url)
        #expect(result.status == 65, "some rows failed")
        #expect(result.stderr.contains("people.csv, ligne 3 : birth_date"))
        #expect(result.stderr.contains("people.csv, ligne 4 : reasons : motif « plage » inconnu"))
        #expect(result.stderr.contains("2 lien(s) créé(s), 2 ligne(s) refusée(s)"))
        let links = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output))) as? [[String: Any]])
        #expect(links.map { $0["name"] as? String } == ["Anna Kowalska", "Zoé Durand"])

        let zoe = try #require(links.last?["url"] as? String)
        let inspect = try Tool.admin(["inspect", zoe], in: scratch.url)
        #expect(inspect.stdout.contains("adresse : 2 rue Z; bât. B 01000 Nantes"), "quoted cell and leading zero kept")
        #expect(inspect.stdout.contains("motifs : sport_animaux (imposés)"))

        let header = try Tool.admin(["mint", "--csv", "missing.csv"], in: scratch.url)
        #expect(header.status == 65)
        try Data("prenom,nom\nA,B\n".utf8).write(to: URL(fileURLWithPath: scratch.path("bad.csv")))
        let columns = try Tool.admin(["mint", "--csv", "bad.csv"], in: scratch.url)
        #expect(columns.status == 65)
        #expect(columns.stderr.contains("ligne 1 : colonnes inconnues : prenom, nom"))
    }

    @Test func terminalQRCodeScansToTheLink() throws {
        let scratch = try initialized()
        let result = try Tool.admin(["mint"] + camille + ["--reason", "travail", "--format", "qr"], in: scratch.url)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let link = try #require(lines.first { $0.hasPrefix("https://") })
        let art = lines.filter { $0.contains("█") }
        try #require(!art.isEmpty)
        // Half blocks back to pixels: a filled half is light (the paper), an empty half dark.
        let scale = 6
        let width = art[0].count * scale, height = art.count * 2 * scale
        var pixels = [UInt8](repeating: 255, count: width * height)
        for (row, line) in art.enumerated() {
            for (column, character) in line.enumerated() {
                let (top, bottom): (UInt8, UInt8) = switch character {
                case "█": (255, 255)
                case "▄": (0, 255)
                case "▀": (255, 0)
                default: (0, 0)
                }
                for dy in 0..<(2 * scale) {
                    for dx in 0..<scale {
                        pixels[(row * 2 * scale + dy) * width + column * scale + dx] = dy < scale ? top : bottom
                    }
                }
            }
        }
        let image = URL(fileURLWithPath: scratch.path("terminal.pgm"))
        try (Data("P5\n\(width) \(height)\n255\n".utf8) + Data(pixels)).write(to: image)
        let decoded = try Tool.external("zbarimg", ["-q", "--raw", "-Sbinary", image.path])
        #expect(decoded.stdout.trimmingCharacters(in: .newlines) == String(link))
    }

    @Test func htmlPageHasALinkAndAQRCodePerPerson() throws {
        let scratch = try initialized()
        let output = scratch.path("links.html")
        let result = try Tool.admin(["mint"] + camille + ["--reason", "travail", "--format", "html", "-o", output], in: scratch.url)
        #expect(result.status == 0, "\(result.stderr)")
        let html = try String(contentsOfFile: output, encoding: .utf8)
        #expect(html.contains("<html lang=\"fr\">"))
        #expect(html.contains("<h2>Camille Dupont</h2>"))
        #expect(html.contains("href=\"https://attestation.example.org/attestation.pdf?t="))
        #expect(html.contains("<svg"))
        #expect(!html.contains("<script"), "no script")
        #expect(!html.contains("src=\"http"), "no request to another site")
    }

    @Test func everySubcommandHasHelpWithAnExample() throws {
        for command in ["init", "keygen", "mint", "inspect", "revoke", "render", "forms"] {
            let help = try Tool.admin([command, "--help"])
            #expect(help.status == 0)
            #expect(help.stdout.contains("Example"), "\(command) --help has an example")
        }
    }
}

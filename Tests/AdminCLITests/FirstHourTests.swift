import Foundation
import TestSupport
import Testing

/// What a new administrator meets in their first hour (issue 14): the port init chooses, what
/// mint says and refuses, the register of links, revoking by name, the forms the server has,
/// dates in their zone, and French throughout.

private func person(_ first: String, _ last: String) -> [String] {
    [
        "--first-name", first, "--last-name", last, "--birth-date", "01/01/1970", "--birth-place", "Lyon",
        "--address", "999 avenue de France", "--zip", "75001", "--city", "Paris", "--reason", "travail",
    ]
}

private func initialized(baseURL: String = "https://attestation.example.org") throws -> Scratch {
    let scratch = try Scratch()
    let result = try Tool.admin(["init", "--base-url", baseURL], in: scratch.url)
    try #require(result.status == 0, "init failed: \(result.stderr)")
    return scratch
}

private func configuration(_ scratch: Scratch) throws -> [String: Any] {
    try #require(
        try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: scratch.path("config.json"))))
            as? [String: Any])
}

private func mint(_ arguments: [String], in scratch: Scratch) throws -> ProcessResult {
    let result = try Tool.admin(["mint"] + arguments, in: scratch.url)
    try #require(result.status == 0, "mint failed: \(result.stderr)")
    return result
}

private func registerLines(_ scratch: Scratch) throws -> [[String: Any]] {
    let text = try String(contentsOfFile: scratch.path("links.jsonl"), encoding: .utf8)
    return try text.split(separator: "\n").map {
        try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
}

@Suite struct InitListeningTests {
    /// A base URL on this machine is the server itself: it must listen there, as the server's
    /// own check of the configuration says. Before, it stayed on 8080.
    @Test(arguments: [
        ("http://127.0.0.1:18437", "127.0.0.1", 18437), ("http://localhost:18438/", "127.0.0.1", 18438),
        ("http://127.0.0.2:18439", "127.0.0.2", 18439),
    ])
    func aLoopbackBaseURLSetsWhereTheServerListens(baseURL: String, host: String, port: Int) throws {
        let scratch = try initialized(baseURL: baseURL)
        let said = try Tool.admin(["keygen", "--key-id", "k2"], in: scratch.url)
        #expect(said.status == 0, "the configuration stays usable: \(said.stderr)")
        let check = try Tool.run(Tool.server, ["--config", scratch.path("config.json"), "--check-config"])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout.contains("écoute : http sur \(host):\(port)"), "\(check.stdout)")
    }

    @Test func initSaysWhereTheServerWillListen() throws {
        let scratch = try Scratch()
        let result = try Tool.admin(["init", "--base-url", "http://127.0.0.1:18437"], in: scratch.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Le serveur écoutera sur http://127.0.0.1:18437/"), "\(result.stdout)")
        let server = try #require(try configuration(scratch)["server"] as? [String: Any])
        #expect(server["port"] as? Int == 18437)
    }

    /// An https address is a proxy's: the server keeps its defaults, written nowhere (scripts
    /// append their own `server` object), and init says where the proxy must reach it.
    @Test(arguments: ["https://attestation.example.org", "http://127.0.0.1:8080", "http://attestation.lan:8080"])
    func otherAddressesKeepTheDefaultListener(baseURL: String) throws {
        let scratch = try Scratch()
        let result = try Tool.admin(["init", "--base-url", baseURL], in: scratch.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try configuration(scratch)["server"] == nil)
        #expect(result.stdout.contains("Le serveur écoutera sur http://127.0.0.1:8080/"), "\(result.stdout)")
    }
}

@Suite struct MintOutputFileTests {
    @Test func mintSaysWhatItWroteAndRefusesToOverwriteWithoutForce() throws {
        let scratch = try initialized()
        let first = try mint(person("Camille", "Dupont") + ["-o", "liens.html"], in: scratch)
        #expect(first.stdout.contains("1 lien écrit dans liens.html, 0 refusé"), "\(first.stdout)")
        let before = try Data(contentsOf: URL(fileURLWithPath: scratch.path("liens.html")))
        #expect(String(decoding: before, as: UTF8.self).contains("<!DOCTYPE html>"), "the format follows the extension")

        let again = try Tool.admin(["mint"] + person("Camille", "Dupont") + ["-o", "liens.html"], in: scratch.url)
        #expect(again.status == 73)
        #expect(again.stderr.contains("liens.html existe déjà") && again.stderr.contains("--force"), "\(again.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.path("liens.html"))) == before, "left as it was")
        #expect(try registerLines(scratch).count == 1, "nothing minted, nothing registered")

        let forced = try mint(person("Camille", "Dupont") + ["-o", "liens.html", "--force"], in: scratch)
        #expect(forced.stdout.contains("1 lien écrit dans liens.html"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.path("liens.html"))) != before)
    }
}

@Suite struct LinkRegisterTests {
    @Test func everyMintedLinkIsRegisteredWithoutItsTokenReadableByItsOwnerOnly() throws {
        let scratch = try initialized()
        let link = try mint(person("Hélène", "Leroy") + ["--reason", "sante", "--expires", "2099-06-30"], in: scratch)
            .stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let token = String(link.split(separator: "=").last!)
        let mode =
            try FileManager.default.attributesOfItem(atPath: scratch.path("links.jsonl"))[.posixPermissions]
            as? NSNumber
        #expect(mode?.intValue == 0o600)
        let text = try String(contentsOfFile: scratch.path("links.jsonl"), encoding: .utf8)
        #expect(!text.contains(token) && !text.contains(String(token.suffix(40))), "never the token")
        let entry = try #require(try registerLines(scratch).first)
        #expect(entry["firstName"] as? String == "Hélène" && entry["lastName"] as? String == "Leroy")
        #expect(entry["reasons"] as? [String] == ["travail", "sante"])
        #expect(entry["form"] as? String == "deplacement-2020-11-28")
        #expect(entry["expiresAt"] as? String == "2099-06-30T22:00:00Z")
        #expect(entry["mintedAt"] is String)
        let inspect = try Tool.admin(["inspect", link], in: scratch.url)
        #expect(inspect.stdout.contains("identifiant : \(entry["id"] as! String)"))
        #expect(
            Set(entry.keys) == [
                "id", "firstName", "lastName", "form", "reasons", "lockReasons", "timeZone", "expiresAt", "mintedAt",
                "keyID",
            ])
    }

    @Test func linksListsTheRegisterFilteredByNameWithoutCaseOrAccents() throws {
        let scratch = try initialized()
        _ = try mint(person("Hélène", "Leroy"), in: scratch)
        _ = try mint(person("Camille", "Dupont"), in: scratch)
        let all = try Tool.admin(["links"], in: scratch.url)
        #expect(all.status == 0, "\(all.stderr)")
        #expect(all.stdout.contains("Hélène Leroy") && all.stdout.contains("Camille Dupont"))
        #expect(all.stdout.contains("valide"))
        let filtered = try Tool.admin(["links", "--name", "HELENE"], in: scratch.url)
        #expect(filtered.stdout.contains("Hélène Leroy") && !filtered.stdout.contains("Camille"), "\(filtered.stdout)")
        let json = try Tool.admin(["links", "--json", "--name", "dupont"], in: scratch.url)
        let listed = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(listed.count == 1)
        #expect(listed.first?["status"] as? String == "valide")
        #expect(
            (listed.first?["mintedAt"] as? String)?.hasSuffix("+01:00") == true
                || (listed.first?["mintedAt"] as? String)?.hasSuffix("+02:00") == true,
            "dates in the link's zone with its offset")
    }

    /// A link past its expiry is `expiré`. mint makes none (a day at least), so Hélène's entry
    /// is given the expiry it would have had if minted in January 2021 with `--expires 2021-01-31`.
    @Test func linksShowsALinkPastItsExpiryAsExpired() throws {
        let scratch = try initialized()
        _ = try mint(person("Hélène", "Leroy") + ["--expires", "1d"], in: scratch)
        _ = try mint(person("Camille", "Dupont") + ["--expires", "1d"], in: scratch)
        var entries = try registerLines(scratch)
        try #require(entries.count == 2 && entries[0]["firstName"] as? String == "Hélène")
        entries[0]["expiresAt"] = "2021-01-31T23:00:00Z"
        let lines = try entries.map {
            String(decoding: try JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys]), as: UTF8.self)
        }
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(
            to: URL(fileURLWithPath: scratch.path("links.jsonl")))

        let listing = try Tool.admin(["links"], in: scratch.url)
        #expect(listing.status == 0, "\(listing.stderr)")
        let rows = listing.stdout.split(separator: "\n")
        let helene = try #require(rows.first { $0.contains("Hélène") }, "\(listing.stdout)")
        #expect(helene.hasSuffix("expiré"), "\(listing.stdout)")
        #expect(helene.contains("01/02/2021 00:00"), "the expiry, Paris time: \(helene)")
        #expect(rows.first { $0.contains("Camille") }?.hasSuffix("valide") == true, "\(listing.stdout)")
        let json = try Tool.admin(["links", "--json"], in: scratch.url)
        let listed = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(listed.map { $0["status"] as? String } == ["expiré", "valide"], "\(json.stdout)")
    }

    /// A crash in the middle of an append leaves at worst the last line incomplete: the entries
    /// before it are read, and the next append starts on a line of its own.
    @Test func anInterruptedAppendSpoilsNoOtherEntry() throws {
        let scratch = try initialized()
        _ = try mint(person("Hélène", "Leroy"), in: scratch)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: scratch.path("links.jsonl")))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("{\"firstName\":\"Inter".utf8))
        try handle.close()
        let listed = try Tool.admin(["links"], in: scratch.url)
        #expect(listed.stdout.contains("Hélène Leroy"))
        #expect(listed.stderr.contains("ligne 2 : dernière ligne incomplète"), "\(listed.stderr)")
        _ = try mint(person("Camille", "Dupont"), in: scratch)
        let after = try Tool.admin(["links"], in: scratch.url)
        #expect(after.stdout.contains("Hélène Leroy") && after.stdout.contains("Camille Dupont"), "\(after.stdout)")
        #expect(after.stderr.contains("ligne 2 : entrée illisible"), "\(after.stderr)")
    }
}

@Suite struct RevokeByNameTests {
    @Test func revokeByNameUsesTheRegisterAndLinksShowsIt() throws {
        let scratch = try initialized()
        let link = try mint(person("Hélène", "Leroy"), in: scratch).stdout.trimmingCharacters(
            in: .whitespacesAndNewlines)
        _ = try mint(person("Camille", "Dupont"), in: scratch)
        let revoked = try Tool.admin(["revoke", "--name", "helene LEROY"], in: scratch.url)
        #expect(revoked.status == 0, "\(revoked.stderr)")
        #expect(try Tool.admin(["inspect", link], in: scratch.url).stdout.contains("statut : révoqué"))
        let listing = try Tool.admin(["links"], in: scratch.url).stdout
        let helene = try #require(listing.split(separator: "\n").first { $0.contains("Hélène") })
        #expect(helene.hasSuffix("révoqué"), "\(listing)")
        #expect(listing.split(separator: "\n").first { $0.contains("Camille") }?.hasSuffix("valide") == true)
        let again = try Tool.admin(["revoke", "--name", "Hélène Leroy"], in: scratch.url)
        #expect(again.status == 0)
        #expect(again.stdout.contains("déjà révoqué"))
        let unknown = try Tool.admin(["revoke", "--name", "Hélène Dupont"], in: scratch.url)
        #expect(unknown.status == 65)
        #expect(unknown.stderr.contains("aucun lien au nom de « Hélène Dupont »"))
        #expect(unknown.stderr.contains("Noms proches : Camille Dupont, Hélène Leroy"), "\(unknown.stderr)")
    }

    /// Never several at once: without a terminal to ask on, the candidates are listed and none
    /// is revoked.
    @Test func severalLinksOfOneNameAreListedAndNoneRevokedWithoutATerminal() throws {
        let scratch = try initialized()
        _ = try mint(person("Hélène", "Leroy"), in: scratch)
        _ = try mint(person("Hélène", "Leroy") + ["--reason", "sante"], in: scratch)
        let ids = try registerLines(scratch).map { $0["id"] as! String }
        let result = try Tool.admin(["revoke", "--name", "Hélène Leroy"], in: scratch.url)
        #expect(result.status == 65)
        #expect(
            result.stderr.contains("2 liens non révoqués au nom de « Hélène Leroy » ; aucun n’est révoqué"),
            "\(result.stderr)")
        for id in ids { #expect(result.stderr.contains(id)) }
        let list = try String(contentsOfFile: scratch.path("revoked.txt"), encoding: .utf8)
        for id in ids { #expect(!list.contains(id)) }
    }

    /// On a terminal (`script` gives it one), revoke asks which and revokes that one alone.
    @Test func onATerminalRevokeAsksWhichLink() throws {
        let scratch = try initialized()
        _ = try mint(person("Hélène", "Leroy"), in: scratch)
        _ = try mint(person("Hélène", "Leroy") + ["--reason", "sante"], in: scratch)
        let ids = try registerLines(scratch).map { $0["id"] as! String }
        let command = "printf '2\\n' | script -qec \"\(Tool.admin.path) revoke --name 'Hélène Leroy'\" /dev/null"
        let result = try Tool.external("sh", ["-c", command], in: scratch.url)
        #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
        #expect(result.stdout.contains("Numéro du lien à révoquer (1 à 2)"), "\(result.stdout)")
        let list = try String(contentsOfFile: scratch.path("revoked.txt"), encoding: .utf8)
        #expect(!list.contains(ids[0]) && list.contains(ids[1]), "the second one only")
    }

    @Test func aLinkOrANameNotBoth() throws {
        let scratch = try initialized()
        let result = try Tool.admin(["revoke", "AAAAAAAAAAAAAAAA", "--name", "A B"], in: scratch.url)
        #expect(result.status == 64)
        #expect(result.stderr.contains("l’un des deux"), "\(result.stderr)")
    }
}

@Suite struct ConfiguredFormsTests {
    private func withForm() throws -> Scratch {
        let scratch = try initialized()
        let builtIn = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("Sources/FormSchema/Forms/deplacement-2020-11-28.json")
        var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: builtIn)) as? [String: Any])
        object["id"] = "couvre-feu-2021"
        try FileManager.default.createDirectory(atPath: scratch.path("forms"), withIntermediateDirectories: true)
        try JSONSerialization.data(withJSONObject: object).write(
            to: URL(fileURLWithPath: scratch.path("forms/couvre-feu.json")))
        return scratch
    }

    /// The forms the server serves: those of the configuration's formsDirectory. Before, a form
    /// the server served was missing from `forms`, which still exited 0.
    @Test func formsListsTheConfigurationsFormsFromItsFolderOrWithConfig() throws {
        let scratch = try withForm()
        let here = try Tool.admin(["forms"], in: scratch.url)
        #expect(here.status == 0, "\(here.stderr)")
        #expect(here.stdout.contains("couvre-feu-2021 :"), "\(here.stdout)")
        let elsewhere = try Tool.admin(["forms", "--config", scratch.path("config.json")])
        #expect(elsewhere.stdout.contains("couvre-feu-2021 :"), "\(elsewhere.stdout)")
        let check = try Tool.run(Tool.server, ["--config", scratch.path("config.json"), "--check-config"])
        #expect(check.stdout.contains("couvre-feu-2021"), "the server has it too: \(check.stdout)")
    }

    @Test func renderWithIdentityOptionsSeesTheConfiguredForms() throws {
        let scratch = try withForm()
        let file = scratch.path("a.pdf")
        let result = try Tool.admin(
            ["render"] + person("Ana", "Lima") + ["--form", "couvre-feu-2021", "-o", file], in: scratch.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Tool.external("qpdf", ["--check", file]).status == 0)
    }

    @Test func anExplicitConfigurationThatIsMissingIsAnError() throws {
        let scratch = try Scratch()
        let result = try Tool.admin(["forms", "--config", scratch.path("nulle-part.json")])
        #expect(result.status == 65)
        #expect(result.stderr.contains("nulle-part.json"), "\(result.stderr)")
    }
}

@Suite struct ShownDatesTests {
    /// Dates in the link's zone, with its name. Before, inspect printed UTC (`…T22:00:00Z`).
    @Test(arguments: [
        (nil as String?, "expire : 01/07/2099 00:00 (Europe/Paris)"),
        ("America/Martinique", "expire : 30/06/2099 18:00 (America/Martinique)"),
    ])
    func inspectShowsDatesInTheLinksZoneWithItsName(zone: String?, expected: String) throws {
        let scratch = try initialized()
        let link = try mint(
            person("Camille", "Dupont") + ["--expires", "2099-06-30"] + (zone.map { ["--time-zone", $0] } ?? []),
            in: scratch
        )
        .stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let shown = try Tool.admin(["inspect", link], in: scratch.url)
        #expect(shown.stdout.contains(expected), "\(shown.stdout)")
        #expect(shown.stdout.contains("émis le : ") && shown.stdout.contains("(\(zone ?? "Europe/Paris"))"))
        // An ISO 8601 UTC time (`…T22:00:00Z`), not a Z that ends the random link id (1 run in 64).
        #expect(shown.stdout.firstMatch(of: /T[0-9]{2}:[0-9]{2}(:[0-9]{2})?Z/) == nil, "no UTC time: \(shown.stdout)")
    }
}

@Suite struct FrenchHelpTests {
    private static let commands = [
        [], ["init"], ["keygen"], ["mint"], ["links"], ["inspect"], ["revoke"], ["render"], ["forms"], ["licenses"],
    ]

    /// What the parser writes itself, translated: no English heading nor phrase of it is left.
    @Test(arguments: commands)
    func helpIsInFrench(command: [String]) throws {
        let help = try Tool.admin(command + ["--help"])
        #expect(help.status == 0)
        for english in [
            "USAGE:", "OVERVIEW:", "OPTIONS:", "ARGUMENTS:", "SUBCOMMANDS:", "Show help", "(default:", "(values:",
            "<subcommand>", "See '",
        ] {
            #expect(!help.stdout.contains(english), "\(command) --help says « \(english) »")
        }
        #expect(help.stdout.contains("UTILISATION : attestation-admin"))
        #expect(help.stdout.contains("Affiche cette aide."))
    }

    @Test(
        arguments: [
            (["keygen"], "il manque « --key-id <ID> »"),
            (["mint", "--frist-name", "A"], "option inconnue « --frist-name » ; vouliez-vous dire « --first-name » ?"),
            (
                ["mint", "--format", "pdf"],
                "valeur « pdf » invalide pour « --format <url|json|qr|html> » ; valeurs acceptées : url, json, qr, html."
            ),
            (["render", "--size", "grand", "-o", "a.png"], "valeur « grand » invalide pour « --size <PIXELS> »."),
            (["mint", "--zip"], "valeur manquante après « --zip <CODE> »."),
            (["inspect", "a", "b"], "argument inattendu « b »"),
            (["mint", "--lock-reasons=oui"], "l’option « --lock-reasons » ne prend pas de valeur"),
        ] as [([String], String)])
    func argumentErrorsAreFrenchWithTheUsage(arguments: [String], message: String) throws {
        let result = try Tool.admin(arguments)
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("attestation-admin : \(message)"), "\(result.stderr)")
        #expect(result.stderr.contains("\nUtilisation : attestation-admin \(arguments[0])"), "\(result.stderr)")
        #expect(!result.stderr.contains("Error:") && !result.stderr.contains("Usage:"), "\(result.stderr)")
    }

    /// The server's own help: abstract, discussion and option help in French too.
    @Test func theServersHelpIsFrenchToo() throws {
        let help = try Tool.run(Tool.server, ["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("Sert les attestations"), "\(help.stdout)")
        for english in ["Serve attestations", "The configuration file", "Address to listen on"] {
            #expect(!help.stdout.contains(english), "« \(english) »")
        }
    }
}

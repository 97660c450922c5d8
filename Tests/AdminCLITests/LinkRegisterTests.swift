import Foundation
import TestSupport
import Testing

@Suite struct LinkRegisterTests {
    @Test func everyMintedLinkIsRegisteredWithoutItsTokenReadableByItsOwnerOnly() throws {
        let scratch = try initializedSite()
        let link = try mintSucceeding(
            personArguments("Hélène", "Leroy") + ["--reason", "sante", "--expires", "2099-06-30"], in: scratch
        )
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
        #expect(entry["form"] is NSNull, "a link minted without --form follows the calendar")
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
        let scratch = try initializedSite()
        _ = try mintSucceeding(personArguments("Hélène", "Leroy"), in: scratch)
        _ = try mintSucceeding(personArguments("Camille", "Dupont"), in: scratch)
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
        let scratch = try initializedSite()
        _ = try mintSucceeding(personArguments("Hélène", "Leroy") + ["--expires", "1d"], in: scratch)
        _ = try mintSucceeding(personArguments("Camille", "Dupont") + ["--expires", "1d"], in: scratch)
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
        let scratch = try initializedSite()
        _ = try mintSucceeding(personArguments("Hélène", "Leroy"), in: scratch)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: scratch.path("links.jsonl")))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("{\"firstName\":\"Inter".utf8))
        try handle.close()
        let listed = try Tool.admin(["links"], in: scratch.url)
        #expect(listed.stdout.contains("Hélène Leroy"))
        #expect(listed.stderr.contains("ligne 2 : dernière ligne incomplète"), "\(listed.stderr)")
        _ = try mintSucceeding(personArguments("Camille", "Dupont"), in: scratch)
        let after = try Tool.admin(["links"], in: scratch.url)
        #expect(after.stdout.contains("Hélène Leroy") && after.stdout.contains("Camille Dupont"), "\(after.stdout)")
        #expect(after.stderr.contains("ligne 2 : entrée illisible"), "\(after.stderr)")
    }
}

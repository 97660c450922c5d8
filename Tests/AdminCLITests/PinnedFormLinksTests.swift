import Foundation
import TestSupport
import Testing

/// `attestation-admin links` says which pinned links print a form that is no longer in force, and
/// which name a form this server no longer has (issues 38 and 40): the table in the form's
/// column, the JSON as `formInstalled` and `formOutdatedSince`.
@Suite struct PinnedFormLinksTests {
    @Test func pinnedLinksOfOutdatedOrRemovedFormsAreMarked() throws {
        let scratch = try initializedSite()
        try FileManager.default.createDirectory(atPath: scratch.path("forms"), withIntermediateDirectories: true)
        var json = try builtInJSONObject("deplacement-2020-11-28")
        json["id"] = "formulaire-local"
        json["inForce"] = nil
        try jsonData(json).write(to: URL(fileURLWithPath: scratch.path("forms/local.json")))
        _ = try mintSucceeding(personArguments("Hélène", "Leroy") + ["--form", "couvre-feu-2020-10-17"], in: scratch)
        _ = try mintSucceeding(personArguments("Camille", "Dupont") + ["--form", "formulaire-local"], in: scratch)
        _ = try mintSucceeding(personArguments("Ana", "Lima"), in: scratch)
        try FileManager.default.removeItem(atPath: scratch.path("forms/local.json"))

        let table = try Tool.admin(["links"], in: scratch.url)
        #expect(table.status == 0, "\(table.stderr)")
        let lines = table.stdout.split(separator: "\n").map(String.init)
        #expect(
            lines.contains {
                $0.contains("Hélène Leroy")
                    && $0.contains("couvre-feu-2020-10-17 (plus en vigueur depuis le 30/10/2020)")
            },
            "\(table.stdout)")
        #expect(
            lines.contains { $0.contains("Camille Dupont") && $0.contains("formulaire-local (absent de ce serveur)") },
            "\(table.stdout)")
        #expect(lines.contains { $0.contains("Ana Lima") && !$0.contains("(") }, "\(table.stdout)")

        let listed = try #require(
            try JSONSerialization.jsonObject(with: Data(Tool.admin(["links", "--json"], in: scratch.url).stdout.utf8))
                as? [[String: Any]])
        let byName = Dictionary(uniqueKeysWithValues: listed.map { ($0["firstName"] as? String ?? "", $0) })
        #expect(byName["Hélène"]?["formOutdatedSince"] as? String == "2020-10-30T00:00:00+01:00")
        #expect(byName["Hélène"]?["formInstalled"] as? Bool == true)
        #expect(byName["Camille"]?["formInstalled"] as? Bool == false)
        #expect(byName["Ana"]?["formOutdatedSince"] is NSNull)
        #expect(byName["Ana"]?["formInstalled"] as? Bool == true)
    }
}

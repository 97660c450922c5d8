import Foundation
import TestSupport
import Testing

@Suite struct RevokeByNameTests {
    @Test func revokeByNameUsesTheRegisterAndLinksShowsIt() throws {
        let scratch = try initializedSite()
        let link = try mintSucceeding(personArguments("Hélène", "Leroy"), in: scratch).stdout.trimmingCharacters(
            in: .whitespacesAndNewlines)
        _ = try mintSucceeding(personArguments("Camille", "Dupont"), in: scratch)
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
        let scratch = try initializedSite()
        _ = try mintSucceeding(personArguments("Hélène", "Leroy"), in: scratch)
        _ = try mintSucceeding(personArguments("Hélène", "Leroy") + ["--reason", "sante"], in: scratch)
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
        let scratch = try initializedSite()
        _ = try mintSucceeding(personArguments("Hélène", "Leroy"), in: scratch)
        _ = try mintSucceeding(personArguments("Hélène", "Leroy") + ["--reason", "sante"], in: scratch)
        let ids = try registerLines(scratch).map { $0["id"] as! String }
        let command = "printf '2\\n' | script -qec \"\(Tool.admin.path) revoke --name 'Hélène Leroy'\" /dev/null"
        let result = try Tool.external("sh", ["-c", command], in: scratch.url)
        #expect(result.status == 0, "\(result.stdout) \(result.stderr)")
        #expect(result.stdout.contains("Numéro du lien à révoquer (1 à 2)"), "\(result.stdout)")
        let list = try String(contentsOfFile: scratch.path("revoked.txt"), encoding: .utf8)
        #expect(!list.contains(ids[0]) && list.contains(ids[1]), "the second one only")
    }

    @Test func aLinkOrANameNotBoth() throws {
        let scratch = try initializedSite()
        let result = try Tool.admin(["revoke", "AAAAAAAAAAAAAAAA", "--name", "A B"], in: scratch.url)
        #expect(result.status == 64)
        #expect(result.stderr.contains("l’un des deux"), "\(result.stderr)")
    }
}

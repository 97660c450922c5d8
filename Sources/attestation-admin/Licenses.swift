import ArgumentParser
import Licenses
import Rendering

struct ThirdPartyLicenses: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "licenses",
        abstract: "Écrit les composants tiers et leurs licences.",
        discussion: """
            Les mêmes notices que la page /licenses du serveur : chaque composant avec son rôle, \
            la version liée quand elle est connue, son site, son paquet Debian, sa licence et \
            son copyright, où trouver les sources des bibliothèques LGPL et GPL, puis chaque \
            texte de licence une fois.

            Exemples :
              attestation-admin licenses | less
              attestation-admin licenses --list
            """)

    @Flag(help: "Seulement les composants : nom, version liée (ou -), licence et identifiants de ses textes.")
    var list = false

    func run() {
        // The C libraries this program links: the HTTP ones are the server's alone (its
        // /licenses page shows their versions).
        let versions = AttestationRenderer.libraryVersions
        print(
            list ? ThirdPartyNotices.list(versions: versions) : ThirdPartyNotices.plainText(versions: versions),
            terminator: "")
    }
}

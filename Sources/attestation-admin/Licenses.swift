import ArgumentParser
import Licenses
import Rendering

struct ThirdPartyLicenses: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "licenses",
        abstract: "Print the third-party components and their licences.",
        discussion: """
            The same notices as the server's /licenses page: every component with its role, \
            the version linked when known, its site, Debian package, licence and copyright, \
            where to get the source of the LGPL and GPL libraries, then each licence text once.

            Examples:
              attestation-admin licenses | less
              attestation-admin licenses --list
            """)

    @Flag(help: "Print only the components: name, version linked (or -), licence and the ids of its texts.")
    var list = false

    func run() {
        // The C libraries this program links: the HTTP ones are the server's alone (its
        // /licenses page shows their versions).
        let versions = AttestationRenderer.libraryVersions
        print(list ? ThirdPartyNotices.list(versions: versions) : ThirdPartyNotices.plainText(versions: versions),
              terminator: "")
    }
}

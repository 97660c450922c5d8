import ArgumentParser
import AttestationConfiguration
import Foundation
import LinkTokens

struct Inspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Verify a link and show what it holds.",
        discussion: """
            Checks the signature against the configuration's keys, then the revocation list and \
            the expiry. Exit status 0 for a valid link, 65 otherwise (the reason is printed).

            Example:
              attestation-admin inspect "https://attestation.example.org/?t=AQJrMQ…"
            """)

    @OptionGroup var config: ConfigOptions

    @Argument(help: ArgumentHelp("A link or its token.", valueName: "URL|TOKEN"))
    var link: String

    @Flag(help: "Print JSON.")
    var json = false

    func run() throws {
        let state = try config.state()
        let token = LinkRequest.token(fromLinkOrToken: link)
        let verification = LinkToken.verify(token, keys: state.keys, revoked: state.revoked)
        let report: LinkReport
        switch verification {
        case .valid(let contents, let keyID): report = LinkReport(contents: contents, status: "valide", keyID: keyID)
        case .expired(let contents, let keyID): report = LinkReport(contents: contents, status: "expiré", keyID: keyID)
        case .revoked(let contents, let keyID): report = LinkReport(contents: contents, status: "révoqué", keyID: keyID)
        default: throw AdminError.data(LinkRequestError.link(verification).description)
        }
        if json {
            print(try prettyJSON(report))
        } else {
            print(report.text)
        }
        guard case .valid = verification else { throw AdminError.data("lien \(report.status).") }
    }
}

/// What `inspect` shows of a link.
struct LinkReport: Encodable {
    let status: String
    let id: String
    let keyID: String
    let issuedAt: String
    let expiresAt: String?
    let form: String
    let firstName, lastName, birthDate, birthPlace, address, zipCode, city: String
    let reasons: [String]
    let lockReasons: Bool
    let timeZone: String

    init(contents: LinkContents, status: String, keyID: String) {
        let format = ISO8601DateFormatter()
        self.status = status
        id = contents.id.description
        self.keyID = keyID
        issuedAt = format.string(from: contents.issuedAt)
        expiresAt = contents.expiresAt.map(format.string)
        form = contents.formID
        let person = contents.identity
        (firstName, lastName, birthDate) = (person.firstName, person.lastName, person.birthDate.description)
        (birthPlace, address, zipCode, city) = (person.birthPlace, person.address, person.zipCode, person.city)
        reasons = contents.reasons
        lockReasons = contents.lockReasons
        timeZone = contents.timeZone ?? "Europe/Paris"
    }

    var text: String {
        """
        statut : \(status)
        identifiant : \(id)
        clé : \(keyID)
        émis le : \(issuedAt)
        expire : \(expiresAt ?? "jamais")
        formulaire : \(form)
        personne : \(firstName) \(lastName), né(e) le \(birthDate) à \(birthPlace)
        adresse : \(address) \(zipCode) \(city)
        motifs : \(reasons.joined(separator: ", "))\(lockReasons ? " (imposés)" : "")
        fuseau : \(timeZone)
        """
    }
}

struct Revoke: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Add a link's id to the revocation list.",
        discussion: """
            Takes a link, its token, or the 16-character id `inspect` shows. Reload the servers \
            afterwards (kill -HUP): they read the list at start and on SIGHUP.

            Example:
              attestation-admin revoke "https://attestation.example.org/?t=AQJrMQ…"
            """)

    @OptionGroup var config: ConfigOptions

    @Argument(help: ArgumentHelp("A link, its token, or its id.", valueName: "URL|TOKEN|ID"))
    var link: String

    func run() throws {
        let state = try config.state()
        let id: LinkID
        if let direct = LinkID(link.trimmingCharacters(in: .whitespaces)) {
            id = direct
        } else {
            switch LinkToken.verify(LinkRequest.token(fromLinkOrToken: link), keys: state.keys) {
            case .valid(let contents, _), .expired(let contents, _), .revoked(let contents, _): id = contents.id
            case let failure: throw AdminError.data(LinkRequestError.link(failure).description)
            }
        }
        guard !state.revoked.contains(id) else {
            print("Le lien \(id) est déjà révoqué.")
            return
        }
        let file = state.resolve(state.configuration.revocationList)
        let date = ISO8601DateFormatter().string(from: Date())
        do {
            let handle: FileHandle
            if FileManager.default.fileExists(atPath: file.path) {
                handle = try FileHandle(forUpdating: file)
            } else {
                guard FileManager.default.createFile(atPath: file.path, contents: Data(Init.revocationHeader.utf8)) else {
                    throw AdminError.cannotCreate("impossible de créer \(file.path).")
                }
                handle = try FileHandle(forUpdating: file)
            }
            defer { try? handle.close() }
            let end = try handle.seekToEnd()
            // A file whose last line has no newline would glue the id to it.
            if end > 0 {
                try handle.seek(toOffset: end - 1)
                if handle.readData(ofLength: 1) != Data("\n".utf8) { try handle.write(contentsOf: Data("\n".utf8)) }
            }
            try handle.write(contentsOf: Data(RevocationList.line(for: id, comment: "révoqué le \(date)").utf8))
        } catch let error as AdminError {
            throw error
        } catch {
            throw AdminError.cannotCreate("impossible d’écrire \(file.path).")
        }
        print("Lien \(id) révoqué (\(file.path)). Rechargez les serveurs : kill -HUP <pid>.")
    }
}

import ArgumentParser
import AttestationConfiguration
import Foundation
import LinkTokens

struct Links: ParsableCommand {
    /// How a link without a pinned form is listed: it prints the version in force.
    static let followsCalendar = "selon le calendrier"

    static let configuration = CommandConfiguration(
        abstract: "Liste les liens créés : le registre links.jsonl, à côté de la configuration.",
        discussion: """
            mint y note chaque lien : identifiant, prénom et nom, formulaire, motifs, expiration, \
            date de création, clé ; jamais le lien lui-même. L’état vient de la liste de \
            révocation et de l’expiration : valide, expiré ou révoqué. Les heures sont celles du \
            fuseau du lien (Europe/Paris sauf indication).

            Exemples :
              attestation-admin links
              attestation-admin links --name leroy
              attestation-admin links --json
            """)

    @OptionGroup var config: ConfigOptions

    @Option(
        help: ArgumentHelp(
            "Seulement les liens dont le nom contient ce texte (majuscules et accents indifférents).", valueName: "NOM")
    )
    var name: String?

    @Flag(
        help:
            "Écrit du JSON : une liste d’objets (id, firstName, lastName, form, formInstalled, formOutdatedSince, reasons, lockReasons, timeZone, expiresAt, mintedAt, keyID, status)."
    )
    var json = false

    func run() throws {
        let state = try config.state()
        let register = LinkRegister(configurationFile: config.url)
        let (entries, problems) = try register.read()
        for problem in problems { FileHandle.standardError.write(Data("attestation-admin : \(problem)\n".utf8)) }
        let now = Date()
        let shown = entries.filter { name.map($0.nameContains) ?? true }
            .map {
                ListedLink(
                    entry: $0, status: LinkStatus(of: $0, revoked: state.revoked, now: now),
                    form: PinnedFormState(of: $0, state: state, now: now))
            }
        if json {
            print(try prettyJSON(shown))
            return
        }
        guard !shown.isEmpty else {
            print(
                entries.isEmpty
                    ? "Aucun lien dans le registre \(register.file.path) (mint y note chaque lien créé)."
                    : "Aucun lien au nom de « \(name ?? "") » parmi les \(entries.count) du registre.")
            return
        }
        print(Self.table(shown))
    }

    /// Aligned columns; dates in Paris time unless the link has its own zone, named then.
    static func table(_ links: [ListedLink]) -> String {
        func date(_ value: Date?, _ entry: LinkRegister.Entry) -> String {
            guard let value else { return "jamais" }
            let zone = TimeZone(identifier: entry.timeZone) ?? .paris
            let text = ShownDate.text(value, in: zone)
            return entry.timeZone == "Europe/Paris" ? String(text.dropLast(" (Europe/Paris)".count)) : text
        }
        let header = ["identifiant", "nom", "formulaire", "motifs", "expire", "créé le", "état"]
        let rows = links.map { link in
            let (entry, status) = (link.entry, link.status)
            return [
                entry.id, entry.fullName,
                (entry.form ?? Self.followsCalendar) + (link.form.map { " (\($0.text))" } ?? ""),
                entry.reasons.joined(separator: ",") + (entry.lockReasons ? " (imposés)" : ""),
                date(entry.expiresAt, entry), date(entry.mintedAt, entry), status.rawValue,
            ]
        }
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        let lines = ([header] + rows).map { row in
            row.enumerated().map { $1.padding(toLength: widths[$0], withPad: " ", startingAt: 0) }.joined(
                separator: "  "
            )
            .trimmingCharacters(in: .whitespaces)
        }
        return "Heures de Paris (Europe/Paris), sauf fuseau indiqué.\n" + lines.joined(separator: "\n")
    }
}

/// What a pinned link's form has become on this server: gone from it (the server answers 503),
/// or replaced by a later version, or past the end of the rules (the link still prints it, and
/// the person's page says so). Nil for a link that follows the calendar and a form in force.
enum PinnedFormState: Equatable {
    case notInstalled
    case outdated(since: Date, rulesEnded: Bool)

    init?(of entry: LinkRegister.Entry, state: ServiceState, now: Date) {
        guard let id = entry.form else { return nil }
        guard let form = state.catalog.form(id: id) else {
            self = .notInstalled
            return
        }
        guard let outdated = state.calendar.outdated(form, at: now) else { return nil }
        self = .outdated(since: outdated.since, rulesEnded: outdated.rulesEnded)
    }

    var text: String {
        switch self {
        case .notInstalled: "absent de ce serveur"
        case .outdated(let since, let ended):
            (ended ? "plus d’attestation demandée depuis le " : "plus en vigueur depuis le ")
                + String(ShownDate.text(since, in: .paris).prefix(10))
        }
    }
}

enum LinkStatus: String, Encodable {
    case valid = "valide"
    case expired = "expiré"
    case revoked = "révoqué"

    init(of entry: LinkRegister.Entry, revoked: RevocationList, now: Date) {
        if let id = LinkID(entry.id), revoked.contains(id) {
            self = .revoked
        } else if let expiry = entry.expiresAt, expiry <= now {
            self = .expired
        } else {
            self = .valid
        }
    }
}

/// A register entry as `links --json` gives it: its dates in the link's zone, with its offset.
struct ListedLink: Encodable {
    let entry: LinkRegister.Entry
    let status: LinkStatus
    let form: PinnedFormState?

    private enum Keys: String, CodingKey {
        case id, firstName, lastName, form, formInstalled, formOutdatedSince, reasons, lockReasons, timeZone
        case expiresAt, mintedAt, keyID, status
    }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        let zone = TimeZone(identifier: entry.timeZone) ?? .paris
        try c.encode(entry.id, forKey: .id)
        try c.encode(entry.firstName, forKey: .firstName)
        try c.encode(entry.lastName, forKey: .lastName)
        try c.encode(entry.form, forKey: .form)
        // A pinned form this server no longer has; when a pinned form stopped being the one in force.
        try c.encode(form != .notInstalled, forKey: .formInstalled)
        if case .outdated(let since, _) = form {
            try c.encode(ShownDate.iso(since, in: zone), forKey: .formOutdatedSince)
        } else {
            try c.encodeNil(forKey: .formOutdatedSince)
        }
        try c.encode(entry.reasons, forKey: .reasons)
        try c.encode(entry.lockReasons, forKey: .lockReasons)
        try c.encode(entry.timeZone, forKey: .timeZone)
        try c.encode(entry.expiresAt.map { ShownDate.iso($0, in: zone) }, forKey: .expiresAt)
        try c.encode(ShownDate.iso(entry.mintedAt, in: zone), forKey: .mintedAt)
        try c.encode(entry.keyID, forKey: .keyID)
        try c.encode(status, forKey: .status)
    }
}

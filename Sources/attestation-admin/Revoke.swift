import ArgumentParser
import AttestationConfiguration
import Foundation
import LinkTokens

struct Inspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Vérifie un lien et montre ce qu’il contient.",
        discussion: """
            Vérifie la signature avec les clés de la configuration, puis la liste de révocation \
            et l’expiration. Code de sortie 0 pour un lien valide, 65 sinon (la raison est \
            écrite). Les dates sont dans le fuseau du lien, nommé (Europe/Paris par défaut) ; \
            --json les donne en ISO 8601 avec leur décalage.

            Exemple :
              attestation-admin inspect "https://attestation.example.org/?t=AQJrMQ…"
            """)

    @OptionGroup var config: ConfigOptions

    @Argument(help: ArgumentHelp("Un lien ou son jeton.", valueName: "URL|JETON"))
    var link: String

    @Flag(help: "Écrit du JSON.")
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
    /// The pinned form; nil for a link that follows the calendar.
    let form: String?
    let firstName, lastName, birthDate, birthPlace, address, zipCode, city: String
    let reasons: [String]
    let lockReasons: Bool
    let timeZone: String

    /// Dates in the link's zone: ISO 8601 with its offset here, `ShownDate` in `text`.
    private let issued: Date
    private let expires: Date?

    private enum CodingKeys: String, CodingKey {
        case status, id, keyID, issuedAt, expiresAt, form, firstName, lastName, birthDate, birthPlace, address, zipCode,
            city
        case reasons, lockReasons, timeZone
    }

    init(contents: LinkContents, status: String, keyID: String) {
        let zone = contents.timeZone.flatMap(TimeZone.init(identifier:)) ?? .paris
        self.status = status
        id = contents.id.description
        self.keyID = keyID
        (issued, expires) = (contents.issuedAt, contents.expiresAt)
        issuedAt = ShownDate.iso(contents.issuedAt, in: zone)
        expiresAt = contents.expiresAt.map { ShownDate.iso($0, in: zone) }
        form = contents.formID
        let person = contents.identity
        (firstName, lastName, birthDate) = (person.firstName, person.lastName, person.birthDate.description)
        (birthPlace, address, zipCode, city) = (person.birthPlace, person.address, person.zipCode, person.city)
        reasons = contents.reasons
        lockReasons = contents.lockReasons
        timeZone = contents.timeZone ?? "Europe/Paris"
    }

    private var zone: TimeZone { TimeZone(identifier: timeZone) ?? .paris }

    var text: String {
        """
        statut : \(status)
        identifiant : \(id)
        clé : \(keyID)
        émis le : \(ShownDate.text(issued, in: zone))
        expire : \(expires.map { ShownDate.text($0, in: zone) } ?? "jamais")
        formulaire : \(form ?? Links.followsCalendar)
        personne : \(firstName) \(lastName), né(e) le \(birthDate) à \(birthPlace)
        adresse : \(address) \(zipCode) \(city)
        motifs : \(reasons.joined(separator: ", "))\(lockReasons ? " (imposés)" : "")
        fuseau : \(timeZone)
        """
    }
}

struct Revoke: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Ajoute un lien à la liste de révocation.",
        discussion: """
            Prend un lien, son jeton, l’identifiant de 16 caractères qu’inspect et links \
            montrent, ou --name "Prénom Nom" : le registre des liens (links.jsonl) donne alors \
            l’identifiant. Si plusieurs liens valides portent ce nom, revoke demande lequel quand \
            il est lancé dans un terminal, et sinon refuse (code 65) en listant leurs \
            identifiants : il n’en révoque jamais plusieurs d’un coup.

            Les serveurs relisent la liste d’eux-mêmes quand elle change (server.reloadOnChange) \
            ou sur SIGHUP (kill -HUP).

            Exemples :
              attestation-admin revoke "https://attestation.example.org/?t=AQJrMQ…"
              attestation-admin revoke --name "Hélène Leroy"
              attestation-admin revoke 3q2-7wAbc_dEfGh0
            """)

    @OptionGroup var config: ConfigOptions

    @Argument(help: ArgumentHelp("Un lien, son jeton ou son identifiant.", valueName: "URL|JETON|ID"))
    var link: String?

    @Option(
        help: ArgumentHelp(
            "Le prénom et le nom de la personne, tels que le registre les note (majuscules et accents indifférents).",
            valueName: "NOM"))
    var name: String?

    func validate() throws {
        guard (link == nil) != (name == nil) else {
            throw ValidationError(
                "donnez un lien (ou son jeton, ou son identifiant) ou --name \"Prénom Nom\", l’un des deux.")
        }
    }

    func run() throws {
        let state = try config.state()
        let id: LinkID
        if let name {
            guard
                let chosen = try Self.choose(
                    name: name, state: state, register: LinkRegister(configurationFile: config.url))
            else { return }
            id = chosen
        } else if let direct = LinkID(link!.trimmingCharacters(in: .whitespaces)) {
            id = direct
        } else {
            switch LinkToken.verify(LinkRequest.token(fromLinkOrToken: link!), keys: state.keys) {
            case .valid(let contents, _), .expired(let contents, _), .revoked(let contents, _): id = contents.id
            case let failure: throw AdminError.data(LinkRequestError.link(failure).description)
            }
        }
        guard !state.revoked.contains(id) else {
            print("Le lien \(id) est déjà révoqué.")
            return
        }
        let file = state.resolve(state.configuration.revocationList)
        try Self.append(id, to: file)
        print(
            "Lien \(id) révoqué (\(file.path)). Les serveurs le refusent dès qu’ils relisent la liste "
                + "(d’eux-mêmes si server.reloadOnChange, sinon kill -HUP <pid>).")
    }

    /// The id of the one link of that name still valid: asked for on a terminal when several
    /// are, refused otherwise. nil when every link of that name is revoked already (said so).
    static func choose(name: String, state: ServiceState, register: LinkRegister) throws -> LinkID? {
        let (entries, problems) = try register.read()
        for problem in problems { FileHandle.standardError.write(Data("attestation-admin : \(problem)\n".utf8)) }
        let named = entries.filter { $0.isNamed(name) }
        guard !named.isEmpty else {
            let close = entries.filter { entry in
                name.nameKey.split(separator: " ").contains { entry.nameContains(String($0)) }
            }
            let hint =
                close.isEmpty ? "" : " Noms proches : \(Set(close.map(\.fullName)).sorted().joined(separator: ", "))."
            throw AdminError.data(
                "aucun lien au nom de « \(name) » dans le registre \(register.file.path) (attestation-admin links "
                    + "le liste ; un lien créé ailleurs se révoque par son lien ou son identifiant).\(hint)")
        }
        let now = Date()
        let candidates = named.filter { LinkStatus(of: $0, revoked: state.revoked, now: now) != .revoked }
        guard !candidates.isEmpty else {
            print(
                "Les \(named.count) lien\(plural(named.count)) au nom de « \(name) » \(named.count > 1 ? "sont" : "est") déjà révoqué\(plural(named.count))."
            )
            return nil
        }
        if candidates.count == 1, let id = LinkID(candidates[0].id) { return id }

        let listing = Links.table(
            candidates.map {
                ListedLink(
                    entry: $0, status: LinkStatus(of: $0, revoked: state.revoked, now: now),
                    form: PinnedFormState(of: $0, state: state, now: now))
            })
        guard isatty(STDIN_FILENO) == 1 else {
            throw AdminError.data(
                """
                \(candidates.count) liens non révoqués au nom de « \(name) » ; aucun n’est révoqué. Choisissez par l’identifiant \
                (attestation-admin revoke ID) :
                \(listing)
                """)
        }
        let numbered = listing.split(separator: "\n").enumerated().map { index, line in
            index < 2 ? "     \(line)" : String(format: "%3d  ", index - 1) + line
        }
        // On standard error, unbuffered: standard output may be redirected, the question is for the terminal.
        FileHandle.standardError.write(
            Data(
                """
                \(candidates.count) liens non révoqués au nom de « \(name) » :
                \(numbered.joined(separator: "\n"))
                Numéro du lien à révoquer (1 à \(candidates.count)), ou Entrée pour ne rien révoquer :\u{20}
                """.utf8))
        guard let answer = readLine()?.trimmingCharacters(in: .whitespaces), !answer.isEmpty else {
            throw AdminError.data("aucun lien révoqué.")
        }
        guard let number = Int(answer), (1...candidates.count).contains(number),
            let id = LinkID(candidates[number - 1].id)
        else {
            throw AdminError.data(
                "« \(answer) » : un numéro de 1 à \(candidates.count) était attendu ; aucun lien révoqué.")
        }
        return id
    }

    /// One line at the end of the list; a last line without a newline is ended first.
    static func append(_ id: LinkID, to file: URL) throws {
        let date = ISO8601DateFormatter().string(from: Date())
        do {
            let handle: FileHandle
            if FileManager.default.fileExists(atPath: file.path) {
                handle = try FileHandle(forUpdating: file)
            } else {
                guard FileManager.default.createFile(atPath: file.path, contents: Data(Init.revocationHeader.utf8))
                else {
                    throw AdminError.cannotCreate("impossible de créer \(file.path).")
                }
                handle = try FileHandle(forUpdating: file)
            }
            defer { try? handle.close() }
            let end = try handle.seekToEnd()
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
    }
}

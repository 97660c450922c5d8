import ArgumentParser
import AttestationConfiguration
import AttestationKit
import FormSchema
import Foundation
import LinkTokens
import Rendering

struct Mint: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Crée un lien signé par personne, depuis les options ou un fichier CSV.",
        discussion: """
            Chaque lien est noté dans le registre links.jsonl, à côté de la configuration \
            (identifiant, noms, formulaire, motifs, expiration, date de création ; jamais le lien \
            lui-même) : attestation-admin links le liste, revoke --name révoque par le nom.

            Un lien suit le calendrier des formulaires : il imprime la version en vigueur à \
            l’heure de sortie, et ses motifs passent d’une version à la suivante par les codes \
            que chacune dit continuer ; personne n’a de nouveau lien à recevoir quand les règles \
            changent. --form fixe un formulaire pour toujours.

            Sorties (--format) : url, le lien du PDF (BASE/attestation.pdf?t=…), daté à chaque \
            ouverture, pour un favori, un raccourci iOS ou un script (par défaut) ; json, pour les \
            scripts : url (le PDF) et pageURL (la page personnelle, BASE/?t=…) ; qr, un QR code \
            dans le terminal à scanner avec le téléphone de la personne, qui ouvre sa page \
            personnelle (motifs et heure de sortie en deux gestes) ; html, une feuille à \
            imprimer ou à envoyer : par personne, le QR code de sa page, le lien direct du PDF et \
            celui de sa version papier, à imprimer et remplir à la main (sans smartphone).

            Le QR code du terminal est en couleurs explicites (noir sur blanc), lisible sur un \
            terminal clair ou sombre ; --no-color (ou la variable NO_COLOR) l’écrit sans \
            couleurs pour un fond clair, --invert pour un fond sombre.

            CSV (--csv FICHIER), tel que LibreOffice ou Excel l’enregistrent : une ligne de titres \
            puis une personne par ligne ; séparateur virgule, point-virgule ou tabulation ; UTF-8 \
            (avec ou sans BOM) ou Windows-1252. Titres en français ou en anglais, majuscules, \
            accents et espaces indifférents : prénom, nom, date de naissance, lieu de naissance, \
            adresse, code postal, ville, motifs (first_name, last_name, birth_date, birth_place, \
            address, zip, city, reasons) ; facultatifs : formulaire, contexte, expiration, fuseau \
            horaire, motifs imposés (form, context, expires, time_zone, lock_reasons : oui/non). \
            Dates JJ/MM/AAAA, \
            J/M/AAAA ou AAAA-MM-JJ ; un code postal de 4 chiffres (le zéro initial mangé par le \
            tableur) est complété, avec un avertissement ; motifs séparés par des espaces, |, \
            virgules ou points-virgules dans la cellule. Une cellule vide facultative prend la \
            valeur de l’option. Une ligne refusée est signalée avec son numéro, sa colonne et sa \
            valeur ; les autres sont créées, et le code de sortie est alors 65.

            Une valeur que le formulaire ne peut pas écrire est refusée (code 65), avec le \
            caractère en cause : un caractère qu’aucune de ses polices ne dessine (idéogrammes, la \
            plupart des émojis : un carré vide sur la page), ou une valeur que son QR code, en \
            lettres latines, laisserait vide (😀😀 : « Prenom: ; »).

            -o écrit le fichier entier ou rien, et refuse d’écraser un fichier existant sans \
            --force : les liens qu’il contenait resteraient valides.

            Exemples :
              attestation-admin mint --first-name Camille --last-name Dupont --birth-date 01/01/1970 \\
                --birth-place Lyon --address "999 avenue de France" --zip 75001 --city Paris \\
                --reason travail --expires 90d --format qr
              attestation-admin mint --csv personnes.csv -o liens.html
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case url, json, qr, html
    }

    @OptionGroup var config: ConfigOptions
    @OptionGroup(title: "Identité") var person: PersonOptions

    @Option(
        name: .customLong("reason"),
        help: ArgumentHelp("Un motif proposé par défaut, répétable (voir attestation-admin forms).", valueName: "CODE"))
    var reasons: [String] = []

    @Option(
        help: ArgumentHelp(
            "Un formulaire fixe, imprimé pour toujours ; sans --form, le lien suit le calendrier : la version en vigueur à l’heure de sortie (voir attestation-admin forms).",
            valueName: "ID"))
    var form: String?

    @Option(
        help: ArgumentHelp(
            "Le contexte proposé par défaut quand la version en vigueur en a plusieurs (couvre-feu, week-end… ; voir attestation-admin forms).",
            valueName: "ID"))
    var context: String?

    @Option(
        help: ArgumentHelp(
            "Expiration : un nombre de jours (90d) ou un dernier jour (2027-06-30), heure de Paris.", valueName: "QUAND"
        ))
    var expires: String?

    @Option(
        name: .customLong("time-zone"),
        help: ArgumentHelp("Fuseau horaire IANA de la personne (par défaut Europe/Paris).", valueName: "FUSEAU"))
    var timeZone: String?

    @Flag(name: .customLong("lock-reasons"), help: "La personne ne peut pas choisir d’autres motifs.")
    var lockReasons = false

    @Option(
        name: .customLong("base-url"),
        help: ArgumentHelp("L’adresse du service (par défaut baseURL de la configuration).", valueName: "URL"))
    var baseURL: String?

    @Option(help: ArgumentHelp("Un lien par ligne de ce fichier CSV.", valueName: "FICHIER"))
    var csv: String?

    @Option(
        name: .customLong("format"),
        help: ArgumentHelp(
            "Format de sortie : url (le PDF), json, qr (la page, dans le terminal) ou html (une feuille à remettre) ; "
                + "par défaut html ou json selon l’extension de -o, sinon url.",
            valueName: Format.allCases.map(\.rawValue).joined(separator: "|")))
    var chosenFormat: Format?

    /// `--format`, or what the output file's extension says, or the PDF's URL.
    var format: Format {
        if let chosenFormat { return chosenFormat }
        switch output.map({ URL(fileURLWithPath: $0).pathExtension.lowercased() }) {
        case "html", "htm": return .html
        case "json": return .json
        default: return .url
        }
    }

    @Option(
        name: [.short, .customLong("output")],
        help: ArgumentHelp(
            "Écrit dans ce fichier plutôt que dans le terminal (mode 0600 : il contient des liens valides).",
            valueName: "FICHIER"))
    var output: String?

    @Flag(help: "Remplace le fichier de -o s’il existe (ses liens restent valides : révoquez-les).")
    var force = false

    @Flag(
        name: .customLong("no-color"),
        help: "--format qr : sans couleurs, à lire sur un fond clair (aussi avec NO_COLOR).")
    var noColor = false

    @Flag(help: "--format qr : sans couleurs, à lire sur un fond sombre.")
    var invert = false

    @Option(
        name: .customLong("key"),
        help: ArgumentHelp("Clé privée (par défaut signingKey de la configuration).", valueName: "FICHIER"))
    var keyFile: String?

    func validate() throws {
        if noColor || invert, format != .qr {
            throw ValidationError("--no-color et --invert ne s’appliquent qu’à --format qr.")
        }
    }

    func run() throws {
        if let output, !force, FileManager.default.fileExists(atPath: output) {
            throw AdminError.cannotCreate(
                "\(output) existe déjà : aucun lien créé. Les liens qu’il contient resteraient valides s’il était remplacé ; "
                    + "choisissez un autre fichier, ou --force pour l’écraser (attestation-admin links et revoke pour les anciens liens)."
            )
        }
        let state = try config.state()
        let key = try config.signingKey(state.configuration, override: keyFile)
        let base = try LinkAddress(baseURL ?? state.configuration.baseURL)
        let now = Date()
        let defaults = LinkDefaults(
            form: form, context: context, expires: expires, timeZone: timeZone, lockReasons: lockReasons)

        // The server's Unicode font: what its documents can draw.
        let check = ValueCheck()
        var minted: [MintedLink] = []
        var refusedLines: [Int] = []
        if let csv {
            guard person.isEmpty, reasons.isEmpty else {
                throw AdminError.usage(
                    "--csv : les options d’identité et --reason ne se combinent pas avec un fichier CSV (mettez-les dans ses colonnes)."
                )
            }
            let people = try PeopleFile(path: csv)
            for note in people.notes { Self.warn(note) }
            for row in people.rows {
                for warning in row.warnings { Self.warn(warning) }
                do {
                    let contents = try row.values.get().contents(
                        catalog: state.catalog, calendar: state.calendar, defaults: defaults, now: now, check: check,
                        origin: row.origin, warn: { Self.warn("\(csv), ligne \(row.line), \($0)") })
                    minted.append(try MintedLink(contents: contents, key: key, base: base))
                } catch let error as AdminError {
                    Self.warn("\(csv), ligne \(row.line), \(error.message)")
                    refusedLines.append(row.line)
                }
            }
        } else {
            let values = PersonValues(person: person, reasons: reasons)
            minted.append(
                try MintedLink(
                    contents: try values.contents(
                        catalog: state.catalog, calendar: state.calendar, defaults: defaults, now: now, check: check,
                        warn: { Self.warn($0) }),
                    key: key, base: base))
        }
        guard !minted.isEmpty else {
            throw AdminError.data(
                "aucun lien créé, \(refusedLines.count) ligne\(plural(refusedLines.count)) refusée\(plural(refusedLines.count))."
            )
        }

        let style: TerminalQR.Style =
            invert
            ? .lightOnDark
            : noColor || ProcessInfo.processInfo.environment["NO_COLOR"].map({ !$0.isEmpty }) == true
                ? .darkOnLight : .colors
        let rendered = try MintOutput(links: minted, format: format, terminalStyle: style).text
        // Recorded before anything is handed out: no link ever leaves without its entry.
        let register = LinkRegister(configurationFile: config.url)
        try register.append(minted.map { LinkRegister.Entry(contents: $0.contents, keyID: key.id) })
        if let output {
            try writePrivately(Data(rendered.utf8), to: output)
        } else {
            print(rendered, terminator: "")
        }

        let count = minted.count
        let refused = refusedLines.count
        let summary =
            "\(count) lien\(plural(count)) \(output == nil ? "créé\(plural(count))" : "écrit\(plural(count)) dans \(output!)"), "
            + "\(refused) refusé\(plural(refused))\(refused > 0 ? " (ligne\(plural(refused)) \(refusedLines.map(String.init).joined(separator: ", ")))" : "")"
            + " ; registre : \(register.file.path)."
        if refused > 0 { throw AdminError.data(summary) }
        if output != nil {
            print(summary)
        } else if csv != nil {
            Self.warn(summary)
        }
    }

    private static func warn(_ message: String) {
        FileHandle.standardError.write(Data("attestation-admin : \(message)\n".utf8))
    }
}

/// `s` after a French noun or participle counting `count` things (0 and 1 take none).
func plural(_ count: Int) -> String { count > 1 ? "s" : "" }

/// Where links point: `BASE/attestation.pdf?t=…` for the PDF, `BASE/?t=…` for the personal page,
/// `BASE/attestation-papier.pdf?t=…` for the paper attestation.
struct LinkAddress {
    let base: String

    init(_ text: String) throws {
        guard let url = URL(string: text), ["http", "https"].contains(url.scheme ?? ""), url.host != nil,
            url.query == nil, url.fragment == nil
        else {
            throw AdminError.usage(
                "--base-url : URL http(s) sans requête attendue, par exemple https://attestation.example.org.")
        }
        base = text.hasSuffix("/") ? String(text.dropLast()) : text
    }

    func pdf(_ token: String) -> String { "\(base)/attestation.pdf?t=\(token)" }
    func page(_ token: String) -> String { "\(base)/?t=\(token)" }
    func paper(_ token: String) -> String { "\(base)/attestation-papier.pdf?t=\(token)" }
}

/// The command-line values every row shares unless it has its own.
struct LinkDefaults {
    let form: String?
    let context: String?
    let expires: String?
    let timeZone: String?
    let lockReasons: Bool
}

/// A minted link and what the outputs show of it (JSON: `id`, `url`, `pageURL`, `name`,
/// `expiresAt` in ISO 8601 with the offset of the link's zone).
struct MintedLink: Encodable {
    let id: String
    /// The PDF, dated when opened: for bookmarks, Shortcuts and scripts.
    let url: String
    /// The personal page: reasons and exit time chosen in two taps.
    let pageURL: String
    /// The paper attestation, to print and fill in by hand (the sheet only).
    let paperURL: String
    let name: String
    let expiresAt: String?
    let contents: LinkContents

    private enum CodingKeys: String, CodingKey { case id, url, pageURL, name, expiresAt }

    /// The link's time zone, where its dates are shown.
    var zone: TimeZone { contents.timeZone.flatMap(TimeZone.init(identifier:)) ?? .paris }

    init(contents: LinkContents, key: SigningKey, base: LinkAddress) throws {
        let token: String
        do { token = try LinkToken.sign(contents, with: key) } catch { throw AdminError.data(error.description) }
        id = contents.id.description
        url = base.pdf(token)
        pageURL = base.page(token)
        paperURL = base.paper(token)
        name = contents.identity.fullName
        self.contents = contents
        let zone = contents.timeZone.flatMap(TimeZone.init(identifier:)) ?? .paris
        expiresAt = contents.expiresAt.map { ShownDate.iso($0, in: zone) }
    }
}

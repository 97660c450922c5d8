import ArgumentParser
import AttestationConfiguration
import AttestationKit
import FormSchema
import Foundation
import Rendering

struct Paper: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Produit des attestations papier à imprimer, pour qui n’a pas de smartphone.",
        discussion: """
            Le formulaire officiel avec l’identité de la personne déjà écrite (nom, date et lieu \
            de naissance, adresse, et la ville après « Fait à ») ; les motifs, la date et l’heure \
            de sortie et la signature restent à écrire à la main, à chaque sortie. Sans QR code ni \
            date de création : une attestation papier se remplit, se date et se signe au stylo, \
            comme les formulaires vierges que le ministère publiait.

            Les personnes viennent d’un ou plusieurs liens (--link, vérifiés avec les clés de la \
            configuration : un lien expiré ou révoqué est refusé), des options d’identité, ou \
            d’un fichier CSV (--people), le même que mint --csv lit (les colonnes de motifs et \
            d’expiration y sont ignorées, et peuvent manquer). Un seul PDF, à imprimer : \
            chaque personne --copies fois, dans l’ordre. Une ligne refusée, ou un lien refusé, et rien n’est écrit : \
            chaque refus est signalé, avec sa ligne, et le code de sortie est 65.

            -o écrit le fichier entier ou rien, et refuse d’écraser un fichier existant sans \
            --force ; « -o - » écrit le PDF sur la sortie standard.

            Exemples :
              attestation-admin paper --link "https://attestation.example.org/?t=AQJrMQ…" -o papier.pdf
              attestation-admin paper --people personnes.csv --copies 7 -o papiers.pdf
              attestation-admin paper --first-name Camille --last-name Dupont \\
                --birth-date 01/01/1970 --birth-place Lyon \\
                --address "999 avenue de France" --zip 75001 --city Paris -o - | lp
            """)

    /// How many copies of each person a document may hold: a month of outings, twice a day.
    static let copiesRange = 1...100

    @Option(
        name: .customLong("link"),
        help: ArgumentHelp(
            "Un lien ou son jeton, répétable : la personne et le formulaire du lien.", valueName: "URL|JETON"))
    var links: [String] = []

    @Option(
        name: .customLong("people"),
        help: ArgumentHelp(
            "Une attestation par personne de ce fichier CSV (celui de mint --csv).", valueName: "FICHIER"))
    var people: String?

    @OptionGroup var config: ConfigOptions

    @OptionGroup(title: "Identité") var identity: PersonOptions

    @Option(
        help: ArgumentHelp(
            "Le formulaire, sans lien (par défaut \(FormCatalog.builtIn.defaultFormID) ; voir attestation-admin forms) ; "
                + "avec --people, celui des lignes sans colonne formulaire.",
            valueName: "ID"))
    var form: String?

    @Option(
        help: ArgumentHelp(
            "Exemplaires de chaque personne, de \(Paper.copiesRange.lowerBound) à \(Paper.copiesRange.upperBound) (par défaut 1).",
            valueName: "N"))
    var copies = 1

    @Option(
        name: [.short, .customLong("output")],
        help: ArgumentHelp(
            "Le PDF à écrire (mode 0600 : il contient des identités), ou - pour la sortie standard.",
            valueName: "FICHIER.pdf"))
    var output: String

    @Flag(help: "Remplace le fichier de -o s’il existe.")
    var force = false

    @Option(
        name: .customLong("unicode-font"),
        help: ArgumentHelp(
            "Police TrueType incorporée pour les noms hors de Windows-1252.", valueName: "FICHIER"))
    var unicodeFont = AttestationRenderer.defaultUnicodeFontPath

    @OptionGroup var forms: FormOptions

    func run() throws {
        guard Self.copiesRange.contains(copies) else {
            throw AdminError.usage(
                "--copies : \(copies) exemplaires ; de \(Self.copiesRange.lowerBound) à \(Self.copiesRange.upperBound) exemplaires par personne sont attendus."
            )
        }
        let toStandardOutput = output == "-"
        if !toStandardOutput {
            let format = URL(fileURLWithPath: output).pathExtension.lowercased()
            guard format == "pdf" else {
                throw AdminError.usage(
                    "-o : extension « .\(format) » non prise en charge ; un fichier .pdf, ou - pour la sortie standard, est attendu."
                )
            }
            if !force, FileManager.default.fileExists(atPath: output) {
                throw AdminError.cannotCreate(
                    "\(output) existe déjà : rien n’a été écrit ; choisissez un autre fichier, ou --force pour l’écraser."
                )
            }
        }
        let sources = [!links.isEmpty, people != nil, !identity.isEmpty].filter { $0 }.count
        guard sources == 1 else {
            throw AdminError.usage(
                sources == 0
                    ? "aucune personne : donnez --link, --people ou les options d’identité (--first-name, --last-name…)."
                    : "--link, --people et les options d’identité s’excluent ; donnez une seule de ces sources.")
        }
        if !links.isEmpty, form != nil || forms.formsDirectory != nil {
            throw AdminError.usage(
                "avec un lien, le formulaire vient du lien : retirez --form et --forms-dir.")
        }

        let now = Date()
        let papers: [PaperAttestation]
        if !links.isEmpty {
            papers = try fromLinks(now: now)
        } else if let people {
            papers = try fromPeople(people, now: now)
        } else {
            papers = [try fromOptions(now: now)]
        }

        let printed = papers.flatMap { Array(repeating: $0, count: copies) }
        let bytes: [UInt8]
        do {
            let renderer = try AttestationRenderer(
                forms: Array(Set(papers.map(\.form))), unicodeFontPath: unicodeFont)
            bytes = try renderer.paperPDF(printed)
        } catch {
            throw AdminError.software(error.description)
        }
        let count = printed.count
        let summary =
            "\(count) attestation\(plural(count)) papier (\(papers.count) personne\(plural(papers.count)) × \(copies)) "
        if toStandardOutput {
            FileHandle.standardOutput.write(Data(bytes))
            FileHandle.standardError.write(Data("attestation-admin : \(summary)écrite\(plural(count)).\n".utf8))
        } else {
            try writePrivately(Data(bytes), to: output)
            print("\(summary)écrite\(plural(count)) dans \(output).")
        }
    }
}

extension Paper {
    /// Each link's person and form, as the server would serve it (a link it refuses is refused).
    private func fromLinks(now: Date) throws -> [PaperAttestation] {
        let state = try config.state()
        var papers: [PaperAttestation] = []
        var refusals: [String] = []
        for (index, link) in links.enumerated() {
            do {
                let verified = try state.verify(token: LinkRequest.token(fromLinkOrToken: link), now: now)
                let form = try state.form(for: verified, at: now).form
                papers.append(PaperAttestation(identity: verified.contents.identity, form: form))
            } catch {
                refusals.append(
                    links.count == 1 ? "--link : \(error.description)" : "--link n° \(index + 1) : \(error.description)"
                )
            }
        }
        try Self.refuseAll(refusals)
        return papers
    }

    private func fromOptions(now: Date) throws -> PaperAttestation {
        let catalog = try forms.catalog(config: config)
        guard let chosen = form.map({ catalog.form(id: $0) }) ?? catalog.defaultForm else {
            throw AdminError.data(
                "--form : formulaire inconnu ; disponibles : \(catalog.forms.map(\.id).joined(separator: ", ")).")
        }
        let person = try identity.identity(today: LocalDateTime(now, in: .paris).date)
        try PersonOptions.check(person, on: chosen, with: ValueCheck(unicodeFontPath: unicodeFont), origin: .options)
        return PaperAttestation(identity: person, form: chosen)
    }

    /// Every row of the file, or nothing: a paper left out of a pile to print goes unnoticed.
    private func fromPeople(_ path: String, now: Date) throws -> [PaperAttestation] {
        let catalog = try forms.catalog(config: config)
        let file = try PeopleFile(path: path, needsReasons: false)
        for note in file.notes { Self.warn(note) }
        let check = ValueCheck(unicodeFontPath: unicodeFont)
        var papers: [PaperAttestation] = []
        var refusals: [String] = []
        for row in file.rows {
            for warning in row.warnings { Self.warn(warning) }
            do {
                let values = try row.values.get()
                var options = PersonOptions()
                (options.firstName, options.lastName, options.birthDate, options.birthPlace) = (
                    values.firstName, values.lastName, values.birthDate, values.birthPlace
                )
                (options.address, options.zip, options.city) = (values.address, values.zip, values.city)
                let person = try options.identity(today: LocalDateTime(now, in: .paris).date, origin: row.origin)
                let formID = values.form ?? form ?? catalog.defaultFormID
                guard let chosen = catalog.form(id: formID) else {
                    throw AdminError.data(
                        row.origin.message(
                            "form",
                            "formulaire inconnu ; disponibles : \(catalog.forms.map(\.id).joined(separator: ", "))."))
                }
                try PersonOptions.check(person, on: chosen, with: check, origin: row.origin)
                papers.append(PaperAttestation(identity: person, form: chosen))
            } catch let error as AdminError {
                refusals.append("\(path), ligne \(row.line), \(error.message)")
            }
        }
        try Self.refuseAll(refusals)
        guard !papers.isEmpty else {
            throw AdminError.data(
                "\(path) : aucune personne ; une ligne de titres puis une personne par ligne sont attendues.")
        }
        return papers
    }

    /// Reports every refusal, then refuses the whole document.
    private static func refuseAll(_ refusals: [String]) throws {
        guard !refusals.isEmpty else { return }
        for refusal in refusals { warn(refusal) }
        throw AdminError.data(
            "\(refusals.count) refus : aucune attestation papier écrite ; corrigez \(refusals.count > 1 ? "ces entrées" : "cette entrée") et recommencez."
        )
    }

    private static func warn(_ message: String) {
        FileHandle.standardError.write(Data("attestation-admin : \(message)\n".utf8))
    }
}

import ArgumentParser
import AttestationConfiguration
import AttestationKit
import FormSchema
import Foundation
import Rendering

/// A form file read as the server reads it: the same size bound, the same checks.
private func readForms(_ path: String) throws -> [Form] {
    let url = URL(fileURLWithPath: path)
    var status = stat()
    guard stat(url.path, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
        let handle = try? FileHandle(forReadingFrom: url)
    else {
        throw AdminError.data("\(path) : fichier de formulaire introuvable ou illisible.")
    }
    defer { try? handle.close() }
    let data = (try? handle.read(upToCount: FormFiles.maxFormBytes + 1)) ?? Data()
    guard data.count <= FormFiles.maxFormBytes else {
        throw AdminError.data("\(path) : fichier trop grand ; \(FormFiles.maxFormBytes >> 20) Mio au plus.")
    }
    do {
        return try FormCatalog.decodeForms(data, source: path)
    } catch {
        throw AdminError.data(error.description)
    }
}

/// The forms prepared for drawing by the initializer the server calls at each load
/// (`ServiceSnapshot.load`): every font subset, every picture decoded, every fixed page laid
/// out. One code path, so that what this accepts the server accepts, and what fails there fails
/// here first (a PNG with a bad CRC, a font whose `cmap` HarfBuzz cannot read: issue 38).
private func prepareAsTheServerDoes(
    _ forms: [Form], path: String, unicodeFont: String = AttestationRenderer.defaultUnicodeFontPath
) throws -> AttestationRenderer {
    do {
        return try AttestationRenderer(forms: forms, unicodeFontPath: unicodeFont)
    } catch {
        if case .layout = error { throw AdminError.data("\(path) : \(error.description)") }
        throw AdminError.software(error.description)
    }
}

/// An id already taken by a built-in form: the server would refuse the file.
private func checkNewID(_ forms: [Form], path: String) throws {
    for form in forms where FormCatalog.builtIn.anyForm(id: form.id) != nil {
        throw AdminError.data(
            "\(path), id : le formulaire « \(form.id) » existe déjà (intégré) ; choisissez un autre id.")
    }
}

extension Forms {
    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Vérifie un fichier de formulaire comme le serveur le chargera, et dit ce qu’il contient.",
            discussion: """
                Toutes les vérifications du serveur, de mint et de --check-config : JSON strict (ligne \
                et colonne d’une erreur de syntaxe), clés inconnues, positions dans la page, texte \
                qui sort de la page, motifs qui se chevauchent, QR code assez grand. Code de sortie \
                0 si le serveur l’accepterait, 65 sinon (le message donne le chemin JSON du problème).

                Exemple :
                  attestation-admin forms check formulaires/avril.json
                """)

        @Argument(help: ArgumentHelp("Le fichier JSON du formulaire.", valueName: "FICHIER"))
        var file: String

        func run() throws {
            let forms = try readForms(file)
            try checkNewID(forms, path: file)
            for form in forms { print(Self.summary(form), terminator: "") }
            if let form = forms.first(where: { !$0.awaitingRenderer.isEmpty }) {
                let list = form.awaitingRenderer.map { "\($0.description) (\($0.path))" }.joined(separator: ", ")
                throw AdminError.data(
                    "\(file) : valide, mais pas encore dessiné par ce serveur : \(list) ; le serveur le refusera tant que le rendu ne le prend pas en charge."
                )
            }
            _ = try prepareAsTheServerDoes(forms, path: file)
            print("\(file) : valide ; le serveur l’acceptera.")
        }

        static func summary(_ form: Form) -> String {
            var lines: [String] = []
            func size(_ page: PageSize) -> String {
                "\(FormatPoints.text(page.width)) × \(FormatPoints.text(page.height)) pt"
            }
            lines.append("\(form.id) : \(form.name)")
            // Every page an attestation has, up to the last one the form writes on.
            let pages = (1...form.pageCount).map { "page \($0) \(size(form.size(ofPage: $0)))" }
            lines.append("  pages : \(pages.joined(separator: ", "))")
            lines.append(
                "  textes fixes : \(form.textBlocks.count) blocs, polices \(Set(form.textBlocks.map(\.block.font.rawValue)).sorted().joined(separator: ", "))"
            )
            lines.append("  champs :")
            for slot in form.fields {
                let label = slot.label.map { "« \($0.text) » " } ?? ""
                lines.append(
                    "    \(label)\(slot.value) en (\(FormatPoints.text(slot.x)), \(FormatPoints.text(slot.y)))\(slot.page == 1 ? "" : " page \(slot.page)")"
                )
            }
            let used = Set(form.fields.flatMap { FieldValues.placeholderNames(in: $0.value) })
            let missing = Identity.Field.allCases.filter { !used.contains($0.rawValue) }
            if !missing.isEmpty {
                // The place of birth is asked only by a form that prints or encodes it.
                let asked = missing.filter { $0 != .birthPlace || form.attestationRules.usesBirthPlace }
                let note =
                    asked.isEmpty
                    ? "non demandé à la création d’un lien"
                    : asked.count == missing.count
                        ? "demandés quand même à la création d’un lien"
                        : "demandés quand même à la création d’un lien, sauf le lieu de naissance"
                lines.append("  non imprimé : \(missing.map(\.label).joined(separator: ", ")) (\(note))")
            }
            let selection = form.selection == .exactlyOne ? "un seul par attestation" : "un ou plusieurs"
            lines.append(
                "  motifs (\(form.reasons.count), \(selection)) : \(form.reasons.map(\.code).joined(separator: ", "))")
            let hidden = form.printedReasons.filter { !$0.offered }
            if !hidden.isEmpty {
                lines.append("  imprimés, non proposés : \(hidden.map(\.code).joined(separator: ", "))")
            }
            let format = form.qrPayload
            let separator = format.separator.replacingOccurrences(of: "\n", with: "\\n")
            lines.append(
                "  QR code : \(format.lines.count) lignes séparées par « \(separator) »\(format.trailingSeparator ? ", séparateur final" : ""), valeurs \(format.asciiFolding ? "en ASCII" : "telles que saisies") ; \(form.qrCodes.map { "page \($0.page) \(FormatPoints.text($0.size)) pt" }.joined(separator: ", "))"
            )
            var warnings: [String] = []
            if !format.lines.contains(where: { $0.contains("{reasons}") }) {
                warnings.append("le QR code ne contient pas les motifs ({reasons})")
            }
            let unnamed = form.reasons.filter { $0.shortLabel == nil }.map(\.code)
            if !unnamed.isEmpty {
                warnings.append(
                    "motifs sans shortLabel, la page personnelle montre leur code : \(unnamed.joined(separator: ", "))")
            }
            if !form.images.isEmpty { warnings.append("\(form.images.count) image(s) incorporée(s)") }
            for warning in warnings { lines.append("  attention : \(warning)") }
            if !form.awaitingRenderer.isEmpty {
                lines.append(
                    "  pas encore dessiné par ce serveur : \(form.awaitingRenderer.map(\.description).joined(separator: ", "))"
                )
            }
            return lines.joined(separator: "\n") + "\n"
        }
    }

    struct Preview: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Dessine un fichier de formulaire pour une personne fictive, tous les motifs cochés.",
            discussion: """
                Pour voir un formulaire avant de le déposer dans formsDirectory : le PDF que le \
                serveur ferait, pour Camille Exemple, tous les motifs proposés cochés (le premier \
                seulement si le formulaire n’en prend qu’un), sortie maintenant. Pour un fichier \
                avec des contextes, le premier contexte, ou celui de --form.

                Exemple :
                  attestation-admin forms preview formulaires/avril.json -o essai.pdf
                """)

        @Argument(help: ArgumentHelp("Le fichier JSON du formulaire.", valueName: "FICHIER"))
        var file: String

        @Option(help: ArgumentHelp("Le formulaire du fichier à dessiner (un de ses contextes).", valueName: "ID"))
        var form: String?

        @Option(name: [.short, .customLong("output")], help: ArgumentHelp("Le PDF à écrire.", valueName: "FICHIER"))
        var output: String

        @Option(
            name: .customLong("unicode-font"),
            help: ArgumentHelp(
                "Police TrueType incorporée pour les valeurs hors de Windows-1252.", valueName: "FICHIER"))
        var unicodeFont = AttestationRenderer.defaultUnicodeFontPath

        func run() throws {
            guard URL(fileURLWithPath: output).pathExtension.lowercased() == "pdf" else {
                throw AdminError.usage("-o : un fichier .pdf est attendu.")
            }
            let forms = try readForms(file)
            guard let chosen = form.map({ id in forms.first { $0.id == id } }) ?? forms.first else {
                throw AdminError.data(
                    "--form : « \(form ?? "") » n’est pas dans \(file) ; disponibles : \(forms.map(\.id).joined(separator: ", "))."
                )
            }
            if !chosen.awaitingRenderer.isEmpty {
                let list = chosen.awaitingRenderer.map { "\($0.description) (\($0.path))" }.joined(separator: ", ")
                throw AdminError.data("\(file) : pas encore dessiné par ce serveur : \(list).")
            }
            let now = Date()
            let codes = chosen.selection == .exactlyOne ? [chosen.reasons[0].code] : chosen.reasons.map(\.code)
            let renderer = try prepareAsTheServerDoes([chosen], path: file, unicodeFont: unicodeFont)
            let pdf: [UInt8]
            do {
                let person = try Identity(
                    firstName: "Camille", lastName: "Exemple", birthDate: "01/01/1970", birthPlace: "Lyon",
                    address: "999 avenue de France", zipCode: "75001", city: "Paris",
                    today: LocalDateTime(now, in: .paris).date)
                let attestation = try Attestation(identity: person, form: chosen, reasonCodes: codes, now: now)
                pdf = try renderer.pdf(attestation)
            } catch let error as RenderingError {
                throw AdminError.software(error.description)
            } catch {
                throw AdminError.software("\(error)")
            }
            do {
                try Data(pdf).write(to: URL(fileURLWithPath: output), options: .atomic)
            } catch {
                throw AdminError.cannotCreate(
                    "impossible d’écrire \(output) ; vérifiez que le dossier existe et est accessible en écriture.")
            }
            print("\(output) : \(chosen.id) pour Camille Exemple, motifs \(codes.joined(separator: ", ")).")
        }
    }
}

/// Points as an administrator reads them: `595.28`, `92`.
enum FormatPoints {
    static func text(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}

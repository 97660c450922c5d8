import ArgumentParser
import AttestationConfiguration
import AttestationKit
import FormSchema
import Foundation
import Rendering

struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Produit une attestation en PDF, une de ses pages en PNG, ou son QR code en PNG, comme le serveur.",
        discussion: """
            Depuis un lien (vérifié avec les clés de la configuration : exactement ce que le \
            serveur répondrait, --reason remplaçant les motifs du lien sauf s’il les impose), ou \
            depuis les options d’identité, avec les formulaires du serveur (ceux de la \
            configuration, ou de --forms-dir). Le format suit l’extension du fichier : .pdf pour \
            l’attestation entière, .png pour le QR code seul, ou pour une page entière avec --page \
            (1 : le formulaire rempli, 2 : le grand QR code des formulaires officiels ; un \
            formulaire peut en avoir jusqu’à \(Form.maximumPages)) et --dpi. Rien n’est écrit si \
            le document n’a pas été produit en entier.

            Exemples :
              attestation-admin render "https://attestation.example.org/?t=AQJrMQ…" --offset -20 -o attestation.pdf
              attestation-admin render --first-name Camille --last-name Dupont \\
                --birth-date 01/01/1970 --birth-place Lyon \\
                --address "999 avenue de France" --zip 75001 --city Paris \\
                --reason travail --offset -20 -o attestation.pdf
              attestation-admin render "https://attestation.example.org/?t=AQJrMQ…" -o page1.png --page 1 --dpi 150
            """)

    @Argument(help: ArgumentHelp("Un lien ou son jeton ; sans lui, les options d’identité.", valueName: "URL|JETON"))
    var link: String?

    @OptionGroup var config: ConfigOptions

    @OptionGroup(title: "Identité") var identity: PersonOptions

    @Option(
        name: .customLong("reason"),
        help: ArgumentHelp(
            "Un code de motif, répétable (voir attestation-admin forms).", valueName: "CODE"))
    var reasons: [String] = []

    @Option(
        help: ArgumentHelp(
            "Le formulaire (par défaut \(FormCatalog.builtIn.defaultFormID) ; voir attestation-admin forms).",
            valueName: "ID"))
    var form: String?

    @Option(
        help: ArgumentHelp(
            "Avec un lien qui suit le calendrier : le contexte de la version en vigueur (couvre-feu, week-end…).",
            valueName: "ID"))
    var context: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Heure de sortie en minutes depuis maintenant, de \(OffsetBounds.standard.minimum) à +\(OffsetBounds.standard.maximum).",
            valueName: "MINUTES"))
    var offset: String?

    @Option(
        help: ArgumentHelp("Heure de sortie aujourd’hui, HH:MM, dans le fuseau de l’attestation.", valueName: "HH:MM"))
    var at: String?

    @Option(name: .customLong("time-zone"), help: ArgumentHelp("Fuseau horaire IANA.", valueName: "FUSEAU"))
    var timeZone = "Europe/Paris"

    @Option(
        name: [.short, .customLong("output")],
        help: ArgumentHelp(
            "Le fichier à écrire : .pdf ou .png (mode 0600 : il contient une identité).", valueName: "FICHIER"))
    var output: String

    @Option(
        help: ArgumentHelp(
            "PNG seulement : largeur approximative en pixels (\(AttestationRenderer.pngSizes.lowerBound)–\(AttestationRenderer.pngSizes.upperBound)).",
            valueName: "PIXELS"))
    var size: Int?

    @Option(
        help: ArgumentHelp(
            "PNG seulement : la page entière plutôt que le QR code seul, de 1 (le formulaire rempli) à \(Form.maximumPages) dans les pages du formulaire (2 : le grand QR code des formulaires officiels).",
            valueName: "N"))
    var page: Int?

    @Option(
        help: ArgumentHelp(
            "Avec --page : résolution en points par pouce (\(AttestationRenderer.pageDPIs.lowerBound)–\(AttestationRenderer.pageDPIs.upperBound), défaut \(AttestationRenderer.defaultPageDPI)).",
            valueName: "DPI"))
    var dpi: Int?

    @Option(
        name: .customLong("unicode-font"),
        help: ArgumentHelp(
            "Police TrueType incorporée pour les noms hors de Windows-1252.", valueName: "FICHIER"))
    var unicodeFont = AttestationRenderer.defaultUnicodeFontPath

    @OptionGroup var forms: FormOptions

    func run() throws {
        let outputURL = URL(fileURLWithPath: output)
        let format = outputURL.pathExtension.lowercased()
        guard format == "pdf" || format == "png" else {
            throw AdminError.usage("-o : extension « .\(format) » non prise en charge ; .pdf ou .png attendu.")
        }
        if let page, !(1...Form.maximumPages).contains(page) {
            throw AdminError.usage(
                "--page : page \(page) invalide ; un numéro de 1 (le formulaire rempli) à \(Form.maximumPages) est attendu, dans les pages du formulaire."
            )
        }
        if page != nil && format != "png" {
            throw AdminError.usage(
                "--page : une page entière s’écrit en PNG ; donnez un fichier .png, ou retirez --page pour le PDF.")
        }
        if page != nil && size != nil {
            throw AdminError.usage(
                "--size ne s’applique qu’au QR code seul ; pour une page entière, la taille se règle avec --dpi.")
        }
        if dpi != nil && page == nil {
            throw AdminError.usage("--dpi ne s’applique qu’à une page entière ; ajoutez --page 1 ou --page 2.")
        }
        if size != nil && format != "png" {
            throw AdminError.usage(
                "--size ne s’applique qu’au PNG du QR code ; donnez un fichier .png, ou retirez --size.")
        }
        let now = Date()
        let (attestation, chosenForm) = try link.map { try fromLink($0, now: now) } ?? fromOptions(now: now)

        let bytes: [UInt8]
        switch render(attestation, of: chosenForm, asPDF: format == "pdf") {
        case .success(let rendered): bytes = rendered
        case .failure(.pngSize(let size, let range)):
            throw AdminError.usage("--size : \(RenderingError.pngSize(size, range).description)")
        case .failure(.pageDPI(let dpi, let range)):
            throw AdminError.usage("--dpi : \(RenderingError.pageDPI(dpi, range).description)")
        case .failure(.pageNumber(let page, let pages)):
            throw AdminError.data("--page : \(RenderingError.pageNumber(page, pages: pages).description)")
        case .failure(let error): throw AdminError.software(error.description)
        }
        try writePrivately(Data(bytes), to: output)
    }
}

extension Render {
    /// What the server would make of the link with these parameters.
    private func fromLink(_ link: String, now: Date) throws -> (Attestation, Form) {
        guard identity.isEmpty, form == nil, forms.formsDirectory == nil else {
            throw AdminError.usage(
                "avec un lien, l’identité et le formulaire viennent du lien : retirez les options d’identité, --form et --forms-dir."
            )
        }
        let state = try config.state()
        let request = LinkRequest(
            token: LinkRequest.token(fromLinkOrToken: link), offset: offset, at: at,
            reasons: reasons.isEmpty ? nil : reasons.joined(separator: ","), context: context)
        let attestation: Attestation
        do { attestation = try state.attestation(for: request, now: now) } catch {
            throw AdminError.data(error.description)
        }
        // The link's form: `attestation(for:)` found it in this catalog.
        return (attestation, state.catalog.form(id: attestation.form.id)!)
    }

    private func fromOptions(now: Date) throws -> (Attestation, Form) {
        guard context == nil else {
            throw AdminError.usage(
                "--context ne s’applique qu’à un lien qui suit le calendrier ; sans lien, --form choisit le formulaire."
            )
        }
        let catalog = try forms.catalog(config: config)
        guard let chosenForm = form.map({ catalog.form(id: $0) }) ?? catalog.defaultForm else {
            let known = catalog.forms.map(\.id).joined(separator: ", ")
            throw AdminError.data("--form : formulaire inconnu ; disponibles : \(known).")
        }
        guard let zone = TimeZone(identifier: timeZone) else {
            throw AdminError.data(
                "--time-zone : fuseau horaire inconnu ; un nom IANA est attendu, par exemple Europe/Paris ou America/Martinique."
            )
        }
        let exit: ExitTime
        do { exit = try ExitTime.parse(offset: offset, at: at) } catch {
            throw error == .offsetAndAt
                ? AdminError.usage("--offset et --at s’excluent ; donnez l’un ou l’autre.")
                : AdminError.data(error.description)
        }
        let person = try identity.identity(today: LocalDateTime(now, in: zone).date, form: chosenForm)
        try PersonOptions.check(
            person, on: chosenForm, with: ValueCheck(unicodeFontPath: unicodeFont), origin: .options)
        do {
            let attestation = try Attestation(
                identity: person, form: chosenForm, reasonCodes: reasons, exit: exit, timeZone: zone, now: now)
            return (attestation, chosenForm)
        } catch {
            throw AdminError.data(error.description)
        }
    }

    private func render(_ attestation: Attestation, of form: Form, asPDF: Bool) -> Result<[UInt8], RenderingError> {
        Result { () throws(RenderingError) -> [UInt8] in
            let renderer = try AttestationRenderer(forms: [form], unicodeFontPath: unicodeFont)
            if asPDF { return try renderer.pdf(attestation) }
            if let page {
                return try renderer.pagePNG(attestation, page: page, dpi: dpi ?? AttestationRenderer.defaultPageDPI)
            }
            return try renderer.qrPNG(attestation, size: size ?? 400)
        }
    }
}

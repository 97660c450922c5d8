import AttestationKit
import Foundation
import TestSupport
import Testing

@testable import FormSchema

/// The built-in forms against the reference README and the text of the official templates
/// (`official-2020-11-28.txt`, `official-2020-11-02.txt`, sentences copied by hand below).
@Suite("Built-in forms")
struct FormTests {
    /// The two November forms first, then the other official versions, newest first.
    @Test func catalogHasExactlyTheSeventeenOfficialForms() {
        let catalog = FormCatalog.builtIn
        #expect(
            catalog.forms.map(\.id) == [
                Fixture.form1128ID, Fixture.form1102ID, "deplacement-2021-06-10", "deplacement-2021-05-23",
                "deplacement-2021-05-04", "deplacement-2021-04-07-couvre-feu", "deplacement-2021-04-07-journee",
                "deplacement-2021-03-23-couvre-feu",
                "deplacement-2021-03-23-mesures-renforcees", "deplacement-2021-03-17-couvre-feu",
                "deplacement-2021-03-17-week-end", "deplacement-2021-03-01", "couvre-feu-2021-01-25",
                "couvre-feu-2021-01-04", "couvre-feu-2020-12-15", "deplacement-2020-10-30", "couvre-feu-2020-10-17",
            ])
        #expect(catalog.pendingForms.isEmpty)
        #expect(catalog.defaultFormID == "deplacement-2020-11-28")
        #expect(catalog.defaultForm.id == "deplacement-2020-11-28")
        #expect(catalog.form(id: "deplacement-2020-11-02")?.id == "deplacement-2020-11-02")
        #expect(catalog.form(id: "deplacement-2021-03-17") == nil, "a file with contexts gives only its contexts")
    }

    @Test(arguments: [
        (
            "deplacement-2020-11-28",
            [
                "travail", "achats_culturel_cultuel", "sante", "famille", "handicap",
                "sport_animaux", "convocation", "missions", "enfants",
            ]
        ),
        (
            "deplacement-2020-11-02",
            [
                "travail", "achats", "sante", "famille", "handicap",
                "sport_animaux", "convocation", "missions", "enfants",
            ]
        ),
    ])
    func reasonCodesInFormOrder(id: String, codes: [String]) throws {
        let form = try #require(FormCatalog.builtIn.form(id: id))
        #expect(form.reasons.map(\.code) == codes)
        #expect(form.reasons.map(\.number) == Array(1...9))
        #expect(form.reasons.map(\.id) == codes)
        #expect(form.reason(code: codes[1])?.number == 2)
        #expect(form.reason(code: "promenade") == nil)
    }

    // MARK: Texts, from the official templates

    /// Reason labels of 2020-11-28 as the template prints them (lines joined by a space).
    static let labels1128 = [
        "Déplacements entre le domicile et le lieu d’exercice de l’activité professionnelle ou un établissement d’enseignement ou de formation ; déplacements professionnels ne pouvant être différés ; déplacements pour un concours ou un examen ;",
        "Déplacements pour se rendre dans un établissement culturel autorisé ou un lieu de culte ; déplacements pour effectuer des achats de biens, pour des services dont la fourniture est autorisée, pour les retraits de commandes et les livraisons à domicile ;",
        "Consultations, examens et soins ne pouvant être assurés à distance et achats de médicaments ;",
        "Déplacements pour motif familial impérieux, pour l’assistance aux personnes vulnérables et précaires ou la garde d’enfants ;",
        "Déplacements des personnes en situation de handicap et leur accompagnant ;",
        "Déplacements en plein air ou vers un lieu de plein air, sans changement du lieu de résidence, dans la limite de trois heures quotidiennes et dans un rayon maximal de vingt kilomètres autour du domicile, liés soit à l’activité physique ou aux loisirs individuels, à l’exclusion de toute pratique sportive collective et de toute proximité avec d’autres personnes, soit à la promenade avec les seules personnes regroupées dans un même domicile, soit aux besoins des animaux de compagnie ;",
        "Convocations judiciaires ou administratives et déplacements pour se rendre dans un service public ;",
        "Participation à des missions d’intérêt général sur demande de l’autorité administrative ;",
        "Déplacements pour chercher les enfants à l’école et à l’occasion de leurs activités périscolaires ;",
    ]

    /// Reason labels of 2020-11-02 as the template prints them.
    static let labels1102 = [
        "Déplacements entre le domicile et le lieu d’exercice de l’activité professionnelle ou un établissement d’enseignement ou de formation, déplacements professionnels ne pouvant être différés, déplacements pour un concours ou un examen.",
        "Déplacements pour effectuer des achats de fournitures nécessaires à l'activité professionnelle, des achats de première nécessité dans des établissements dont les activités demeurent autorisées, le retrait de commande et les livraisons à domicile.",
        "Consultations, examens et soins ne pouvant être assurés à distance et l’achat de médicaments.",
        "Déplacements pour motif familial impérieux, pour l'assistance aux personnes vulnérables et précaires ou la garde d'enfants.",
        "Déplacement des personnes en situation de handicap et leur accompagnant.",
        "Déplacements brefs, dans la limite d'une heure quotidienne et dans un rayon maximal d'un kilomètre autour du domicile, liés soit à l'activité physique individuelle des personnes, à l'exclusion de toute pratique sportive collective et de toute proximité avec d'autres personnes, soit à la promenade avec les seules personnes regroupées dans un même domicile, soit aux besoins des animaux de compagnie.",
        "Convocation judiciaire ou administrative et pour se rendre dans un service public.",
        "Participation à des missions d'intérêt général sur demande de l'autorité administrative.",
        "Déplacement pour chercher les enfants à l’école et à l’occasion de leurs activités périscolaires.",
    ]

    static func oneLine(_ text: String) -> String { text.replacingOccurrences(of: "\n", with: " ") }

    @Test(arguments: zip([Fixture.form1128ID, Fixture.form1102ID], [labels1128, labels1102]))
    func reasonLabelsAreTheTemplateText(id: String, labels: [String]) throws {
        let form = try #require(FormCatalog.builtIn.form(id: id))
        #expect(form.reasons.count == labels.count)
        for (reason, label) in zip(form.reasons, labels) {
            #expect(Self.oneLine(reason.label) == label, "reason \(reason.number) of \(id)")
        }
    }

    @Test func reasonNotesAreTheTemplateText() throws {
        let form1128 = Fixture.form1128
        let form1102 = Fixture.form1102
        try #require(form1128.reasons.count == 9 && form1102.reasons.count == 9)
        #expect(
            form1128.reasons.map { $0.note != nil } == [true, false, false, false, false, false, false, false, false])
        #expect(
            form1102.reasons.map { $0.note != nil } == [true, true, false, false, false, false, false, false, false])
        #expect(
            form1128.reasons[0].note.map(Self.oneLine)
                == "Note : A utiliser par les travailleurs non-salariés, lorsqu’ils ne peuvent disposer d’un justificatif de déplacement établi par leur employeur."
        )
        #expect(
            form1102.reasons[0].note.map(Self.oneLine)
                == "Note : à utiliser par les travailleurs non-salariés, lorsqu’ils ne peuvent disposer d’un justificatif de déplacement établi par leur employeur."
        )
        #expect(
            form1102.reasons[1].note.map(Self.oneLine)
                == "Note : achats de première nécessité y compris les acquisitions à titre gratuit (distribution de denrées alimentaires...) et les déplacements liés à la perception de prestations sociales et au retrait d’espèces."
        )
    }

    @Test(arguments: [
        (
            Fixture.form1128ID,
            [
                "ATTESTATION DE DÉPLACEMENT DÉROGATOIRE",
                "En application du décret no 2020-1310 du 29 octobre 2020 prescrivant les mesures générales nécessaires pour faire face à l’épidémie de COVID-19 dans le cadre de l’état d’urgence sanitaire",
                "certifie que mon déplacement est lié au motif suivant (cocher la case) autorisé par le décret no 2020-1310 du 29 octobre 2020 prescrivant les mesures générales nécessaires pour faire face à l’épidémie de COVID-19 dans le cadre de l’état d’urgence sanitaire :",
                "Note : Les personnes souhaitant bénéficier de l’une de ces exceptions doivent se munir s’il y a lieu, lors de leurs déplacements hors de leur domicile, d’un document leur permettant de justifier que le déplacement considéré entre dans le champ de l’une de ces exception",
                "(Date et heure de début de sortie à mentionner obligatoirement)",
                "Mme/M. :", "Né(e) le :", "Demeurant :", "Fait à :", "Le :",
            ]
        ),
        (
            Fixture.form1102ID,
            [
                "ATTESTATION DE DÉPLACEMENT DÉROGATOIRE",
                "En application du décret n°2020-1310 du 29 octobre 2020 prescrivant les mesures générales nécessaires pour faire face à l'épidémie de covid-19 dans le cadre de l'état d'urgence sanitaire",
                "Je soussigné(e),",
                "certifie que mon déplacement est lié au motif suivant (cocher la case) autorisé par le décret n°2020-1310 du 29 octobre 2020 prescrivant les mesures générales nécessaires pour faire face à l'épidémie de covid-19 dans le cadre de l'état d'urgence sanitaire :",
                "Note : les personnes souhaitant bénéficier de l’une de ces exceptions doivent se munir s’il y a lieu, lors de leurs déplacements hors de leur domicile, d’un document leur permettant de justifier que le déplacement considéré entre dans le champ de l’une de ces exceptions.",
                "(Date et heure de début de sortie à mentionner obligatoirement)",
                "Signature :",
                "Mme/M. :", "Né(e) le :", "Demeurant :", "Fait à :", "Le :",
            ]
        ),
    ])
    func fixedTextsContainTheTemplateSentences(id: String, sentences: [String]) throws {
        let form = try #require(FormCatalog.builtIn.form(id: id))
        let blocks =
            [form.title, form.legalText] + form.texts
            + form.fields.compactMap(\.label)
        let texts = blocks.map { Self.oneLine($0.text) }
        for sentence in sentences {
            #expect(texts.contains(sentence), "\(id) lacks: \(sentence)")
        }
        #expect(Self.oneLine(form.title.text) == "ATTESTATION DE DÉPLACEMENT DÉROGATOIRE")
    }

    // MARK: Layout, from README §4–§6 and §9

    @Test(arguments: [
        (Fixture.form1128ID, [(92.0, 702.0), (92, 684), (214, 684), (104, 665), (78, 76), (63, 58), (227, 58)]),
        (Fixture.form1102ID, [(107.0, 657.0), (107, 627), (240, 627), (124, 596), (93, 122), (76, 92), (246, 92)]),
    ])
    func fieldPositions(id: String, positions: [(Double, Double)]) throws {
        let form = try #require(FormCatalog.builtIn.form(id: id))
        // Version 1's fields, in its order, print what its keys named.
        #expect(
            form.fields.map(\.value) == [
                "{firstName} {lastName}", "{birthDate}", "{birthPlace}",
                "{address} {zipCode} {city}", "{city}", "{exitDate}", "{exitTime}",
            ])
        for (slot, position) in zip(form.fields, positions) {
            #expect(slot.x == position.0 && slot.y == position.1)
        }
        let city = form.fields[4]
        #expect(city.size == 11)
        #expect(city.minSize == 7)
        #expect(city.fitWidth == 83)
    }

    @Test(arguments: [
        (Fixture.form1128ID, 47.0, [553.0, 482, 434, 410, 373, 349, 276, 252, 228]),
        (Fixture.form1102ID, 59.0, [488.0, 417, 347, 325, 291, 269, 199, 178, 157]),
    ])
    func reasonMarks(id: String, markX: Double, heights: [Double]) throws {
        let form = try #require(FormCatalog.builtIn.form(id: id))
        #expect(form.reasonLayout.markX == markX)
        #expect(form.reasonLayout.markSize == 12)
        #expect(form.reasons.map(\.y) == heights)
    }

    @Test(arguments: [Fixture.form1128ID, Fixture.form1102ID])
    func qrCodePlacements(id: String) throws {
        let form = try #require(FormCatalog.builtIn.form(id: id))
        let first = try #require(form.qrCodes.first { $0.page == 1 })
        let second = try #require(form.qrCodes.first { $0.page == 2 })
        #expect(form.qrCodes.count == 2)
        #expect(first.size == 92)
        #expect(abs(first.x - (form.page.width - 156)) < 0.001)
        #expect(first.y == 25)
        #expect(second.size == 300)
        #expect(second.x == 50)
        #expect(abs(second.y - (form.page.height - 390)) < 0.001)
        // A4 in points, to the hundredth.
        #expect(abs(form.page.width - 595.28) < 0.05)
        #expect(abs(form.page.height - 841.89) < 0.05)
    }

    @Test(arguments: [Fixture.form1128ID, Fixture.form1102ID])
    func payloadFormatAndMetadata(id: String) throws {
        let form = try #require(FormCatalog.builtIn.form(id: id))
        #expect(form.qrPayload.separator == ";\n")
        #expect(form.qrPayload.trailingSeparator)
        #expect(
            form.qrPayload.lines.map { $0.prefix { $0 != ":" } } == [
                "Cree le", "Nom", "Prenom", "Naissance", "Adresse", "Sortie", "Motifs",
            ])
        #expect(form.metadata.title == "COVID-19 - Déclaration de déplacement")
        #expect(form.metadata.subject == "Attestation de déplacement dérogatoire")
        for keyword in ["covid19", "covid-19", "attestation", "déclaration", "déplacement"] {
            #expect(form.metadata.keywords.contains(keyword))
        }
    }

    @Test(arguments: [Fixture.form1128ID, Fixture.form1102ID])
    func builtInJSONDecodesToTheCatalogForm(id: String) throws {
        let form = try FormCatalog.decodeForm(try jsonData(try builtInJSONObject(id)), source: "\(id).json")
        #expect(form == FormCatalog.builtIn.form(id: id))
    }
}

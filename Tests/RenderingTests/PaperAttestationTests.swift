import AttestationKit
import FormSchema
import Foundation
import TestSupport
import Testing

@testable import Rendering

/// Every form the renderer draws: a paper attestation exists for each.
private let allFormIDs = FormCatalog.builtIn.forms.map(\.id)

/// A time as printed (`08:15`, `08h15`), anywhere in a text.
private var timePattern: Regex<Substring> { /[0-9]{1,2} ?[:hH] ?[0-9]{2}/ }
/// A date as printed (`28/11/2020`).
private var datePattern: Regex<Substring> { /[0-9]{2}\/[0-9]{2}\/[0-9]{4}/ }

private func paper(_ identity: Identity, _ formID: String) throws -> PaperAttestation {
    PaperAttestation(identity: identity, form: try Fixture.form(formID))
}

/// Page 1 of `pdf` as an 8-bit grey picture at `dpi`.
private func firstPageImage(_ pdf: [UInt8], dpi: Int, in directory: URL) throws -> GrayImage {
    let name = "page-\(UUID().uuidString)"
    let path = try write(pdf, named: "\(name).pdf", in: directory)
    try Tool.run(
        "pdftoppm", ["-gray", "-r", String(dpi), "-f", "1", "-l", "1", "-singlefile", path, name], in: directory)
    return try GrayImage(pgm: try Data(contentsOf: directory.appendingPathComponent("\(name).pgm")))
}

/// The dark pixels where the mark of `code` goes: the middle of its `x`, where its two strokes
/// cross, clear of the box's outline (a square, or the brackets of `[ ]`).
private func darkPixelsOfMark(
    _ code: String, layout: FormLayout, image: GrayImage, pageHeight: Double, dpi: Int
) throws -> Int {
    let mark = try #require(layout.marks[code], "no mark for \(code)").run
    let scale = Double(dpi) / 72
    let xs = Int(((mark.x + 2) * scale).rounded())..<Int(((mark.x + 4.5) * scale).rounded())
    let ys = Int(((pageHeight - mark.y - 4.5) * scale).rounded())..<Int(((pageHeight - mark.y - 1.5) * scale).rounded())
    var count = 0
    for y in ys { for x in xs where image.isDark(x: x, y: y) { count += 1 } }
    return count
}

@Suite struct PaperAttestationTests {
    @Test(arguments: allFormIDs)
    func paperAttestationPrintsTheIdentityAndNoDateOrTimeButTheBirthDate(_ formID: String) throws {
        let pdf = try Fixture.renderer().paperPDF([try paper(Fixture.camille(), formID)])
        try withScratchDirectory { directory in
            let path = try write(pdf, named: "paper.pdf", in: directory)
            let text = try Tool.run("pdftotext", [path, "-"], in: directory).text
            // The address and the zip code with the city are one field, or two (couvre-feu-2020-10-17).
            // The versions of April–June 2021 print no place of birth, and `[ ]` for every reason.
            let form = try Fixture.form(formID)
            let birthPlace = form.attestationRules.usesBirthPlace ? ["Lyon"] : []
            for value in ["Camille Dupont", "01/01/1970", "999 avenue de France", "75001 Paris"] + birthPlace {
                #expect(text.contains(value), "\(value) missing in \(formID)")
            }
            if form.reasonLayout.markReplacesBox {
                #expect(
                    text.components(separatedBy: "[ ]").count - 1 == form.printedReasons.count,
                    "every reason's box in \(formID): \(text)")
            }
            #expect(text.firstMatch(of: timePattern) == nil, "a time is printed in \(formID)")
            #expect(
                text.matches(of: datePattern).map { String(text[$0.range]) } == ["01/01/1970"],
                "a date other than the birth date is printed in \(formID)")
            try Tool.run("qpdf", ["--check", path], in: directory)
        }
    }

    /// The blank's pages only: every page of the form but the last, the big QR code's (the
    /// blank of 23 March 2021 for the "mesures renforcées" has two).
    @Test(arguments: allFormIDs)
    func paperAttestationHasNoQRCodeNoImageAndOnlyTheFormsOwnPages(_ formID: String) throws {
        let pdf = try Fixture.renderer().paperPDF([try paper(Fixture.camille(), formID)])
        let blankPages = try Fixture.form(formID).pageCount - 1
        try withScratchDirectory { directory in
            let path = try write(pdf, named: "paper.pdf", in: directory)
            let info = try Tool.run("pdfinfo", [path], in: directory).text
            #expect(
                info.split(separator: "\n").contains { $0.hasPrefix("Pages:") && $0.hasSuffix(" \(blankPages)") },
                "the official blank is \(blankPages) page(s); got \(info)")
            // No image but the form's own logos (the versions of May–June 2021 have two).
            let images = try Tool.run("pdfimages", ["-list", path], in: directory).text
            let logos = try Fixture.form(formID).images.count
            let rows = images.split(separator: "\n").dropFirst(2).map { $0.split(separator: " ") }
            #expect(
                rows.filter { $0.count > 2 && $0[2] == "image" }.count == logos,
                "no image but the logos (each with its soft mask): \(images)")
            try Tool.run("pdftoppm", ["-r", "150", "-gray", "-singlefile", path, "page"], in: directory)
            // zbarimg: 4 when it finds no code.
            let codes = try Tool.run(
                "zbarimg", ["-q", "--raw", "-Sdisable", "-Sqrcode.enable", "page.pgm"], in: directory,
                accepting: [0, 4])
            #expect(codes.status == 4 && codes.text.isEmpty, "a QR code was read: \(codes.text)")
        }
    }

    /// The check is seen to work on the attestation's PDF, which marks its first reason, then
    /// finds every box of the paper attestation empty.
    @Test(arguments: allFormIDs)
    func paperAttestationMarksNoReason(_ formID: String) throws {
        let renderer = try Fixture.renderer()
        let form = try Fixture.form(formID)
        let layout = try FormLayout(form: form)
        let first = form.reasons[0].code
        let marked = try renderer.pdf(Fixture.attestation(Fixture.camille(), formID: formID, reasonCodes: [first]))
        let pdf = try renderer.paperPDF([try paper(Fixture.camille(), formID)])
        let dpi = 150
        try withScratchDirectory { directory in
            let height = form.size(ofPage: 1).height
            let markedImage = try firstPageImage(marked, dpi: dpi, in: directory)
            #expect(
                try darkPixelsOfMark(first, layout: layout, image: markedImage, pageHeight: height, dpi: dpi) > 0,
                "the check does not see the mark of \(first) on the attestation")
            let image = try firstPageImage(pdf, dpi: dpi, in: directory)
            // Where the mark replaces the box (`[x]` for `[ ]`), the box's own ink is there:
            // each reason's place on paper is as on an attestation that does not choose it.
            let unmarked: (String) throws -> Int = { code in
                guard form.reasonLayout.markReplacesBox else { return 0 }
                let other = try renderer.pdf(
                    Fixture.attestation(
                        Fixture.camille(), formID: formID, reasonCodes: [code == first ? form.reasons[1].code : first]))
                let otherImage = try firstPageImage(other, dpi: dpi, in: directory)
                return try darkPixelsOfMark(code, layout: layout, image: otherImage, pageHeight: height, dpi: dpi)
            }
            for reason in form.printedReasons where reason.page == 1 {
                #expect(
                    try darkPixelsOfMark(reason.code, layout: layout, image: image, pageHeight: height, dpi: dpi)
                        == unmarked(reason.code),
                    "the box of \(reason.code) is marked in \(formID)")
            }
        }
    }

    /// "Fait à" holds only `{city}`, an identity value: written. "Le" and "à" hold the exit
    /// date and time: left empty, nothing at their places.
    @Test(arguments: allFormIDs)
    func paperAttestationWritesTheCityAfterFaitAButLeavesTheDateAndTimeSlotsEmpty(_ formID: String) throws {
        let form = try Fixture.form(formID)
        let pdf = try Fixture.renderer().paperPDF([try paper(Fixture.camille(), formID)])
        try withScratchDirectory { directory in
            let page = try BBox.firstPage(of: pdf, in: directory)
            for slot in form.fields where slot.page == 1 {
                let baseline = page.height - slot.y
                let wordsThere = page.words.filter { word in
                    abs(word.xMin - slot.x) < 1.5 && word.yMin < baseline && word.yMax > baseline
                }
                if slot.value == "{city}" {
                    #expect(wordsThere.map(\.text) == ["Paris"], "Fait à: \(wordsThere) in \(formID)")
                } else if !PaperAttestation.isIdentityOnly(slot) {
                    #expect(wordsThere.isEmpty, "\(slot.value) is not empty: \(wordsThere) in \(formID)")
                }
            }
        }
    }

    /// The forms of 2021 tell screen readers, in white text, about their QR codes: a paper
    /// attestation has none, so says nothing of them (the attestation's PDF does).
    @Test func paperAttestationDropsTheInvisibleTextAboutQRCodes() throws {
        let formID = "deplacement-2021-03-01"
        let renderer = try Fixture.renderer()
        let attestation = try renderer.pdf(Fixture.attestation(Fixture.camille(), formID: formID))
        let pdf = try renderer.paperPDF([try paper(Fixture.camille(), formID)])
        try withScratchDirectory { directory in
            let withCode = try Tool.run(
                "pdftotext", [try write(attestation, named: "a.pdf", in: directory), "-"], in: directory
            ).text
            #expect(withCode.contains("QR-code contenant"), "the attestation's PDF has the invisible text")
            let text = try Tool.run("pdftotext", [try write(pdf, named: "p.pdf", in: directory), "-"], in: directory)
                .text
            #expect(!text.contains("QR-code"))
            #expect(text.contains("ATTESTATION DE DÉPLACEMENT DÉROGATOIRE"), "the visible texts stay")
        }
    }

    @Test func paperAttestationsFollowEachOtherInOrderAndCarryNoCreationDate() throws {
        let renderer = try Fixture.renderer()
        let camille = try paper(Fixture.camille(), "deplacement-2020-11-28")
        let greek = try paper(Fixture.identity(first: "Σοφία", last: "Παπαδοπούλου"), "deplacement-2020-11-02")
        let pdf = try renderer.paperPDF([camille, camille, greek])
        try withScratchDirectory { directory in
            let path = try write(pdf, named: "papers.pdf", in: directory)
            let info = try Tool.run("pdfinfo", [path], in: directory).text
            #expect(info.contains(/Pages: +3\n/))
            #expect(!info.contains("CreationDate"), "a creation date: \(info)")
            #expect(!info.contains("ModDate"))
            #expect(info.contains(/Producer: +attestation-links/), "this generator, never the Ministry")
            let names = try (1...3).map { number in
                try Tool.run("pdftotext", ["-f", "\(number)", "-l", "\(number)", path, "-"], in: directory).text
            }
            #expect(names[0].contains("Camille Dupont") && names[1].contains("Camille Dupont"))
            #expect(names[2].contains("Σοφία Παπαδοπούλου"), "the Unicode font writes the name")
            let fonts = try Tool.run("pdffonts", [path], in: directory).text
            #expect(fonts.contains("DejaVuSans"))
            try Tool.run("qpdf", ["--check", path], in: directory)
        }
    }

    @Test func aPaperAttestationOfAFormNotGivenToTheRendererIsRefused() throws {
        let renderer = try AttestationRenderer(forms: [try Fixture.form("deplacement-2020-11-28")])
        #expect(throws: RenderingError.formNotGiven("deplacement-2020-11-02")) {
            try renderer.paperPDF([try paper(Fixture.camille(), "deplacement-2020-11-02")])
        }
    }
}

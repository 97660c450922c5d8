import AttestationKit
import Foundation
import TestSupport
import Testing

@testable import FormSchema

/// The ten other official forms of 2020–2021, built in, against how the Ministry's generators
/// filled each (Reference/, copied from ../shared/reference/forms/: facts.json, blank.txt).
/// Here the forms as data; RenderingTests' ReferencePageTests compare the pages drawn.
@Suite("Reference forms")
struct ReferenceFormTests {
    static let folders = ReferenceExample.folders
    static let reference = ReferenceExample.directory

    static func facts(_ folder: String) throws -> [String: Any] { try ReferenceExample.facts(folder) }

    static func form(_ id: String) throws -> Form {
        try #require(FormCatalog.builtIn.anyForm(id: id), "built-in form \(id)")
    }

    @Test func theReferenceFormsAreBuiltInAndDrawn() {
        let catalog = FormCatalog.builtIn
        #expect(catalog.pendingForms.isEmpty)
        for id in Self.folders {
            #expect(catalog.form(id: id)?.awaitingRenderer.isEmpty == true, "\(id) can be minted")
        }
        #expect(catalog.defaultFormID == "deplacement-2020-11-28")
    }

    /// The QR payload of the facts' example, byte for byte: the same person, instant, exit time
    /// and reasons.
    @Test(arguments: folders)
    func theQRPayloadIsTheOfficialOneByteForByte(folder: String) throws {
        let example = try ReferenceExample(folder: folder, form: try Self.form(folder))
        let payload = try #require((example.facts["qr"] as? [String: Any])?["payload"] as? [String: Any])
        let attestation = example.attestation
        #expect(QRPayload(attestation).bytes == Array(example.payload.utf8))
        let created = example.created
        #expect(
            attestation.fileName
                == "attestation-\(created.year)-\(created.month)-\(created.day)_\(created.hour)-\(created.minute).pdf")
        #expect(attestation.form.qrPayload.asciiFolding == (payload["values_ascii_folded"] as? Bool))
    }

    /// Every value, check mark and QR code where the generator put it, within 1 pt.
    @Test(arguments: folders)
    func valuesAndMarksAreAtTheOfficialPositions(folder: String) throws {
        let facts = try Self.facts(folder)
        let form = try Self.form(folder)
        var generatorsTexts = 0
        for field in try #require(facts["fields"] as? [[String: Any]]) {
            let key = try #require(field["key"] as? String)
            let value = ReferenceExample.formValue(try #require(field["value"] as? String))
            let x = try #require(field["x"] as? Double)
            let y = try #require(field["y"] as? Double)
            let page = field["page"] as? Int ?? 1
            guard value.contains("{") else {
                // Words the generator drew itself (2021-03-23: "(Date et heure…)"): a fixed text.
                let text = form.texts.first { $0.text == value }
                let block = try #require(text, "\(folder): no text «\(value)»")
                #expect(
                    abs(block.x - x) <= 1 && abs(block.y - y) <= 1 && block.page == page
                        && block.size == field["size"] as? Double && block.font == .helvetica,
                    "\(folder) \(key): (\(block.x), \(block.y)) page \(block.page) for (\(x), \(y)) page \(page)")
                generatorsTexts += 1
                continue
            }
            let slot = try #require(form.fields.first { $0.value == value }, "\(folder): no field for \(key)")
            #expect(
                abs(slot.x - x) <= 1 && abs(slot.y - y) <= 1 && slot.page == page,
                "\(folder) \(key): (\(slot.x), \(slot.y)) page \(slot.page) for (\(x), \(y)) page \(page)")
            if let size = field["size"] as? [String: Any] {
                #expect(
                    slot.size == size["default"] as? Double && slot.minSize == size["min"] as? Double
                        && slot.fitWidth == size["max_width"] as? Double, "\(folder) \(key)")
            } else {
                #expect((slot.size ?? 11) == field["size"] as? Double, "\(folder) \(key)")
            }
        }
        #expect(form.fields.count + generatorsTexts == (facts["fields"] as? [Any])?.count)

        let reasons = try #require(facts["reasons"] as? [String: Any])
        let items = try #require(reasons["items"] as? [[String: Any]])
        #expect(form.printedReasons.map(\.code) == items.compactMap { $0["code"] as? String })
        for (reason, item) in zip(form.printedReasons, items) {
            let check = try #require(item["check"] as? [String: Any])
            #expect(abs(reason.y - (check["y"] as? Double ?? 0)) <= 1, "\(folder) \(reason.code)")
            #expect(reason.page == check["page"] as? Int ?? 1, "\(folder) \(reason.code)")
            #expect(abs(form.reasonLayout.markX - (check["x"] as? Double ?? 0)) <= 1)
            #expect(form.reasonLayout.markSize == check["size"] as? Double)
            if let number = item["number"] as? Int { #expect(reason.number == number) }
            // The Ministry's own short title where its web form had one; otherwise ours, so that
            // the personal page never shows a bare code ("transits") as a reason's name.
            if let official = item["short_label"] as? String {
                #expect(reason.shortLabel == official, "\(folder) \(reason.code)")
            } else {
                #expect(reason.shortLabel.map { !$0.isEmpty && $0.count <= 45 } == true, "\(folder) \(reason.code)")
            }
        }
        #expect(form.selection == (reasons["selection"] as? String == "exactly_one" ? .exactlyOne : .oneOrMore))
        if let context = facts["context"] as? [String: Any] {
            #expect(form.reasons.map(\.code) == context["offered"] as? [String])
        } else {
            #expect(form.reasons == form.printedReasons)
        }

        let qr = try #require(facts["qr"] as? [String: Any])
        let small = try #require(qr["page1"] as? [String: Any])
        let big = try #require(qr["big"] as? [String: Any])
        let placements = form.qrCodes
        #expect(placements.count == 2)
        // The small code on the blank's last page, the big one on the page the generator added.
        let smallPage = small["page"] as? Int ?? 1
        let bigPageNumber = big["page"] as? Int ?? 2
        for (placement, official, page) in [(placements[0], small, smallPage), (placements[1], big, bigPageNumber)] {
            #expect(placement.page == page)
            #expect(
                abs(placement.x - (official["x"] as? Double ?? 0)) <= 1
                    && abs(placement.y - (official["y"] as? Double ?? 0)) <= 1
                    && placement.size == official["width"] as? Double, "\(folder) QR code page \(page)")
        }
        let bigPage = try #require(big["page_size"] as? [Double])
        #expect(
            form.size(ofPage: bigPageNumber).width == bigPage[0]
                && form.size(ofPage: bigPageNumber).height == bigPage[1])
        let blankFacts = try #require(facts["blank"] as? [String: Any])
        let blank = try #require(blankFacts["page_size_pt"] as? [Double])
        #expect(form.page.width == blank[0] && form.page.height == blank[1])
        for (index, size) in (blankFacts["page_sizes_pt"] as? [[Double]] ?? [blank]).enumerated() {
            #expect(form.size(ofPage: index + 1).width == size[0] && form.size(ofPage: index + 1).height == size[1])
        }
        #expect(bigPageNumber == (blankFacts["pages"] as? Int ?? 1) + 1)

        // The invisible text for screen readers, where the generator wrote it.
        for invisible in qr["invisible_texts"] as? [[String: Any]] ?? [] {
            let page = invisible["page"] as? Int ?? 1
            let found = form.texts.first { $0.color == RGBColor(hex: "#ffffff") && $0.page == page }
            let block = try #require(found, "\(folder): invisible text on page \(page)")
            #expect(
                abs(block.x - (invisible["x"] as? Double ?? 0)) <= 1
                    && abs(block.y - (invisible["y"] as? Double ?? 0)) <= 1)
            #expect(collapsingWhitespace(block.text) == collapsingWhitespace(invisible["text"] as? String ?? ""))
        }
        let metadata = try #require(facts["metadata"] as? [String: Any])
        #expect(
            form.metadata.title == metadata["title"] as? String
                && form.metadata.subject == metadata["subject"] as? String)
    }

    /// Every word of the blank (blank.txt, pdftotext's) is in the form's texts, as often.
    @Test(arguments: folders)
    func everyWordOfTheBlankIsInTheForm(folder: String) throws {
        let form = try Self.form(folder)
        let blank = try String(
            contentsOf: Self.reference.appendingPathComponent("\(folder)/blank.txt"), encoding: .utf8)
        var ours: [String: Int] = [:]
        let runs =
            form.textBlocks.filter { $0.block.color == nil }.flatMap(\.block.content.runs)
            + form.printedReasons.flatMap { $0.labelText.runs + ($0.noteText?.runs ?? []) }
        for run in runs {
            for word in ReferenceExample.words(run.text) { ours[word, default: 0] += 1 }
        }
        var missing: [String] = []
        var theirs: [String: Int] = [:]
        for word in ReferenceExample.words(blank) { theirs[word, default: 0] += 1 }
        for (word, count) in theirs where ours[word, default: 0] < count {
            missing.append("\(word) ×\(count - ours[word, default: 0])")
        }
        #expect(missing.isEmpty, "\(folder) lacks: \(missing.sorted().joined(separator: ", "))")
    }
}

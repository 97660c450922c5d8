import AttestationKit
import Foundation
import TestSupport
import Testing

@testable import Rendering

/// Values at their longest never run off the page; the city after "Fait à" shrinks as the
/// official generator shrank it (README §5).
@Suite("Long values")
struct LongValueTests {
    /// A realistic address of exactly 100 characters, the longest accepted.
    static let realisticAddress =
        "Résidence Les Jardins de Saint-Exupéry, bâtiment B, escalier 3, appartement n°1207, 145 bd Haussmann"
    /// A real commune (45 characters) and made-up 50-character names.
    static let realisticCity = "Saint-Remy-en-Bouzemont-Saint-Genest-et-Isson"
    static let realisticFirstName = "Marie-Bénédicte-Anne-Sophie-Élisabeth-Maximilienne"
    static let realisticLastName = "de La Rochefoucauld-Montmorency-Laval-Saint-Simons"
    static let realisticBirthPlace = "Saint-Germain-en-Laye (Yvelines) – Île-de-France, République"

    static func realisticPerson() throws -> Identity {
        try #require(realisticAddress.count == 100, "address is \(realisticAddress.count) characters")
        try #require(realisticFirstName.count == 50, "first name is \(realisticFirstName.count) characters")
        try #require(realisticLastName.count == 50, "last name is \(realisticLastName.count) characters")
        try #require(realisticBirthPlace.count == 60, "birth place is \(realisticBirthPlace.count) characters")
        return try Fixture.identity(
            first: realisticFirstName, last: realisticLastName,
            birthPlace: realisticBirthPlace,
            address: realisticAddress, zip: "52150", city: realisticCity)
    }

    @Test(
        "every word stays on the page, and inside the right margin",
        arguments: builtInFormIDs, ["widest", "realistic"])
    func wordsStayOnThePage(formID: String, person: String) throws {
        let identity = person == "widest" ? try Fixture.widestPerson() : try Self.realisticPerson()
        let attestation = try Fixture.attestation(identity, formID: formID)
        let renderer = try Fixture.renderer()
        let pdf = try renderer.pdf(attestation)
        // The same form for Camille Dupont: the words at the same place in both are the form's own.
        let short = try renderer.pdf(try Fixture.attestation(try Fixture.camille(), formID: formID))
        let (page, fixed) = try withScratchDirectory {
            (try BBox.firstPage(of: pdf, in: $0), try BBox.firstPage(of: short, in: $0))
        }
        try #require(page.words.count > 300, "only \(page.words.count) words on page 1")

        let rightMargin = page.width - 30
        for word in page.words {
            #expect(
                word.xMin >= 0 && word.xMax <= page.width && word.yMin >= 0 && word.yMax <= page.height,
                "\(formID), \(person): \(word) leaves the \(page.width) × \(page.height) page")
        }
        // The address: its words, between the address line and the text under it.
        let official = try OfficialPositions.of(formID)
        func isFixed(_ word: Word) -> Bool {
            fixed.words.contains {
                $0.text == word.text && abs($0.xMin - word.xMin) < 0.01 && abs($0.yMin - word.yMin) < 0.01
            }
        }
        let addressWords = page.words.filter { word in
            guard !isFixed(word) else { return false }
            let baseline = word.baseline(pageHeight: page.height)
            return baseline <= official.address.y + 1 && baseline >= official.address.y - 15
                && word.xMin >= official.address.x - 1
        }
        let addressTokens = identity.fullAddress.split(separator: " ").map(String.init)
        #expect(!addressWords.isEmpty, "\(formID): no address word found")
        for word in addressWords {
            #expect(
                word.xMax <= rightMargin,
                "\(formID), \(person): address word \(word) passes the right margin \(rightMargin)")
            #expect(
                addressTokens.contains { $0.contains(word.text) },
                "\(formID): «\(word.text)» in the address band is not from the address")
        }
        // Nothing of the value is lost: all its characters are printed, in order.
        let printed = addressWords.sorted { ($0.yMin, $0.xMin) < ($1.yMin, $1.xMin) }.map(\.text).joined()
        #expect(printed == addressTokens.joined(), "\(formID), \(person): address printed as «\(printed)»")
        // And no value runs to the right edge either.
        for word in page.words {
            #expect(word.xMax <= rightMargin, "\(formID), \(person): \(word) passes the right margin \(rightMargin)")
        }
    }

    /// The word after "Fait à :", found by position: the first word at the city's x.
    private func cityWord(_ page: BBoxPage, formID: String) throws -> Word {
        let official = try OfficialPositions.of(formID)
        let word = page.words.filter { word in
            abs(word.xMin - official.city.x) <= 2 && abs(word.baseline(pageHeight: page.height) - official.city.y) <= 3
        }.first
        return try #require(word, "\(formID): no word at the city's place after « Fait à »")
    }

    /// The forms of 23 March 2021 print "Fait à {city}" in one field; the generator fitted the
    /// city alone into 83 pt, so Montpellier (53.8 pt at 11 pt, 84.4 with « Fait à ») stays at
    /// 11 pt, and a city wider than 83 pt alone still shrinks until the city fits.
    @Test(
        "« Fait à {city} » fits the city alone into fitWidth, not the fixed words with it",
        arguments: ["deplacement-2021-03-23-couvre-feu", "deplacement-2021-03-23-mesures-renforcees"])
    func fitWidthMeasuresTheCityAlone(formID: String) throws {
        let renderer = try Fixture.renderer()
        let form = try Fixture.form(formID)
        let page = try #require(form.fields.first { $0.value == "Fait à {city}" }).page
        try withScratchDirectory { directory in
            func city(_ name: String) throws -> Word {
                let pdf = try renderer.pdf(try Fixture.attestation(try Fixture.identity(city: name), formID: formID))
                let drawn = try BBox.page(page, of: pdf, in: directory)
                let fait = try #require(drawn.words.first { $0.text == "Fait" }, "\(formID): no « Fait »")
                let baseline = fait.baseline(pageHeight: drawn.height)
                return try #require(
                    drawn.words.first { $0.text == name && abs($0.baseline(pageHeight: drawn.height) - baseline) < 1 },
                    "\(formID): no «\(name)» after « Fait à »")
            }
            let montpellier = try city("Montpellier")
            #expect(
                abs(montpellier.fontSize - 11) < 0.1,
                "\(formID): «Montpellier» at \(montpellier.fontSize) pt, 11 expected")
            let long = try city("Boulogne-Billancourt")
            #expect(long.fontSize < 11 - 0.9, "\(formID): «Boulogne-Billancourt» at \(long.fontSize) pt, not shrunk")
            #expect(
                long.xMax - long.xMin <= 83 + 0.5,
                "\(formID): «Boulogne-Billancourt» is \(long.xMax - long.xMin) pt wide, more than 83")
        }
    }

    @Test("the city after « Fait à » is 11 pt, shrinking down to 7 pt for a long one", arguments: builtInFormIDs)
    func cityShrinks(formID: String) throws {
        let renderer = try Fixture.renderer()
        try withScratchDirectory { directory in
            func city(_ name: String) throws -> Word {
                let identity = try Fixture.identity(city: name)
                let page = try BBox.firstPage(
                    of: try renderer.pdf(try Fixture.attestation(identity, formID: formID)), in: directory)
                let word = try cityWord(page, formID: formID)
                #expect(word.text == name, "\(formID): the word after « Fait à » is «\(word.text)», not «\(name)»")
                return word
            }
            let paris = try city("Paris")
            #expect(abs(paris.fontSize - 11) < 0.1, "\(formID): «Paris» is \(paris.fontSize) pt, 11 expected")

            // Too wide for 83 pt at 11 pt: shrunk one point at a time until it fits.
            let medium = try city("Boulogne-Billancourt")
            #expect(medium.yMax - medium.yMin < paris.yMax - paris.yMin, "\(formID): «Boulogne-Billancourt» not shrunk")
            #expect(
                medium.fontSize > 7 - 0.1 && medium.fontSize < 11, "\(formID): medium city at \(medium.fontSize) pt")
            #expect(
                abs(medium.fontSize - medium.fontSize.rounded()) < 0.1,
                "\(formID): \(medium.fontSize) pt is not a whole size")
            #expect(
                medium.xMax - medium.xMin <= 83 + 0.5,
                "\(formID): medium city is \(medium.xMax - medium.xMin) pt wide, more than 83")

            for long in [Self.realisticCity, String(repeating: "W", count: 50)] {
                let word = try city(long)
                #expect(word.yMax - word.yMin < paris.yMax - paris.yMin, "\(formID): «\(long)» not shrunk")
                // It cannot fit 83 pt at 7 pt, so it stays at the official minimum of 7 pt.
                #expect(abs(word.fontSize - 7) < 0.1, "\(formID): «\(long)» at \(word.fontSize) pt, 7 expected")
            }
        }
    }

    /// Ŵ (W with circumflex) is outside Windows-1252: every value goes to the embedded font.
    static func widestUnicodePerson() throws -> Identity {
        let w = { (count: Int) in String(repeating: "Ŵ", count: count) }
        return try Fixture.identity(first: w(50), last: w(50), birthPlace: w(60), address: w(100), city: w(50))
    }

    @Test("values in the embedded font stay on the page too", arguments: builtInFormIDs)
    func unicodeValuesStayOnThePage(formID: String) throws {
        let identity = try Self.widestUnicodePerson()
        let pdf = try Fixture.renderer().pdf(try Fixture.attestation(identity, formID: formID))
        let page = try withScratchDirectory { try BBox.firstPage(of: pdf, in: $0) }
        let values = page.words.filter { $0.text.contains("Ŵ") }
        #expect(values.count >= 5, "\(formID): only \(values.count) words of Ŵ on page 1")
        for word in page.words {
            #expect(
                word.xMin >= 0 && word.xMax <= page.width - 30 && word.yMin >= 0 && word.yMax <= page.height,
                "\(formID): \(word) leaves the page or passes the right margin")
        }
        // Nothing lost: as many Ŵ printed as in the values (the city twice: address and « Fait à »).
        let printed = values.map { $0.text.filter { $0 == "Ŵ" }.count }.reduce(0, +)
        #expect(printed == 50 + 50 + 60 + 100 + 50 + 50, "\(formID): \(printed) Ŵ printed")
    }

    /// Legible means no word over another one, nor over the small QR code of page 1
    /// (README §4: 92 pt square at x = page width − 156, y = 25).
    @Test(
        "no word overlaps another one or the QR code of page 1",
        arguments: builtInFormIDs, ["camille", "latin1", "widest", "realistic"])
    func noOverlap(formID: String, person: String) throws {
        let identity =
            switch person {
            case "camille": try Fixture.camille()
            case "latin1": try Fixture.latin1Person()
            case "widest": try Fixture.widestPerson()
            default: try Self.realisticPerson()
            }
        let form = try Fixture.form(formID)
        let reasons = form.reasons.map(\.code)
        let pdf = try Fixture.renderer().pdf(try Fixture.attestation(identity, formID: formID, reasonCodes: reasons))
        let page = try withScratchDirectory { try BBox.firstPage(of: pdf, in: $0) }
        func overlap(_ a: (Double, Double, Double, Double), _ b: (Double, Double, Double, Double)) -> Bool {
            min(a.2, b.2) - max(a.0, b.0) > 0.3 && min(a.3, b.3) - max(a.1, b.1) > 0.3
        }
        let boxes = page.words.map { ($0.xMin, $0.yMin, $0.xMax, $0.yMax) }
        var overlaps: [String] = []
        for i in boxes.indices {
            for j in boxes.indices where j > i && overlap(boxes[i], boxes[j]) {
                overlaps.append("\(page.words[i]) / \(page.words[j])")
            }
        }
        #expect(overlaps.isEmpty, "\(formID), \(person): overlapping words: \(overlaps.prefix(5))")
        let qr = (page.width - 156, page.height - 117, page.width - 64, page.height - 25)
        let onQR = page.words.filter { overlap(($0.xMin, $0.yMin, $0.xMax, $0.yMax), qr) }
        #expect(onQR.isEmpty, "\(formID), \(person): words over the QR code: \(onQR)")
    }
}

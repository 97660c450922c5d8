import AttestationKit
import FormSchema
import Foundation
import TestSupport
import Testing

@testable import Rendering

/// Values outside Windows-1252 are drawn with a subset of DejaVu Sans embedded in the document
/// (a Type 0 font with a ToUnicode map), built from the font file read once per renderer.
@Suite("Values outside Windows-1252")
struct UnicodeFontTests {
    /// People of four scripts; every free-text value needs the embedded font.
    static let people: [String: (first: String, last: String, birthPlace: String, address: String, city: String)] = [
        "polish": ("Łukasz", "Wałęsa", "Gdańsk", "ul. Długa 5, Łódź", "Skarżysko-Kamienna"),
        "greek": ("Γιώργος", "Παπαδόπουλος", "Αθήνα", "Οδός Ερμού 12", "Θεσσαλονίκη"),
        "cyrillic": ("Иван", "Петров", "Москва", "ул. Тверская 7", "Санкт-Петербург"),
        "vietnamese": ("Thị Minh Khai", "Nguyễn", "Hà Nội", "12 phố Hàng Bạc", "Thành phố Hồ Chí Minh"),
    ]

    static func person(_ key: String) throws -> Identity {
        let p = try #require(people[key])
        return try Fixture.identity(
            first: p.first, last: p.last, birthPlace: p.birthPlace, address: p.address, city: p.city)
    }

    /// pdffonts rows: name, embedded, subset, ToUnicode (the columns before the object number).
    private func fonts(_ path: String, in directory: URL) throws -> [(name: String, emb: Bool, sub: Bool, uni: Bool)] {
        let output = try Tool.run("pdffonts", [path], in: directory).text
        let lines = output.split(separator: "\n")
        try #require(lines.count >= 2 && lines[1].hasPrefix("---"), "unexpected pdffonts output: \(output)")
        return try lines.dropFirst(2).map { line in
            let columns = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            try #require(columns.count >= 8, "unexpected pdffonts row: \(line)")
            let flags = columns[(columns.count - 5)...(columns.count - 3)]
            try #require(flags.allSatisfy { $0 == "yes" || $0 == "no" }, "unexpected pdffonts row: \(line)")
            let yes = flags.map { $0 == "yes" }
            return (columns[0], yes[0], yes[1], yes[2])
        }
    }

    @Test(
        "the values read back exactly, in one embedded DejaVu Sans subset; qpdf is clean; the QR codes read",
        arguments: ["polish", "greek", "cyrillic", "vietnamese"], builtInFormIDs)
    func readsBack(person: String, formID: String) throws {
        let identity = try Self.person(person)
        let attestation = try Fixture.attestation(identity, formID: formID)
        let pdf = try Fixture.renderer().pdf(attestation)
        // The old CID font with its 65,536-entry map and the whole font's tables weighed 92 KB.
        #expect(pdf.count < 15_000, "\(person), \(formID): \(pdf.count) bytes")
        try withScratchDirectory { directory in
            let path = try write(pdf, named: "unicode.pdf", in: directory)
            let text = try Tool.run("pdftotext", ["-enc", "UTF-8", "-f", "1", "-l", "1", path, "-"], in: directory).text
            for value in [identity.fullName, identity.birthPlace, identity.fullAddress, "Fait à : \(identity.city)"] {
                #expect(text.contains(value), "\(person), \(formID): «\(value)» not read back from page 1:\n\(text)")
            }

            let list = try fonts(path, in: directory)
            let embedded = list.filter(\.emb)
            #expect(embedded.count == 1, "\(person), \(formID): embedded fonts \(embedded.map(\.name))")
            if let font = embedded.first {
                #expect(
                    font.name.range(of: #"^[A-Z]{6}\+DejaVuSans$"#, options: .regularExpression) != nil,
                    "\(person), \(formID): embedded font «\(font.name)»")
                #expect(
                    font.sub && font.uni, "\(person), \(formID): \(font.name) subset \(font.sub), ToUnicode \(font.uni)"
                )
            }
            #expect(
                list.filter { !$0.emb }.allSatisfy { $0.name.hasPrefix("Helvetica") },
                "\(formID): fonts \(list.map(\.name))")

            let check = try Tool.run("qpdf", ["--check", path], in: directory)
            #expect(
                check.text.contains("No syntax or stream encoding errors found") && check.stderr.isEmpty,
                "\(person), \(formID): qpdf said \(check.text) \(check.stderr)")
            // poppler complains on stderr about anything it has to repair (fonts, CMaps, content).
            let rendered = try Tool.run(
                "pdftoppm", ["-r", "150", "-gray", path, directory.appendingPathComponent("page").path],
                in: directory)
            #expect(rendered.stderr.isEmpty, "\(person), \(formID): pdftoppm said \(rendered.stderr)")
            let payload = QRPayload(attestation).text
            for page in ["page-1.pgm", "page-2.pgm"] {
                let decoded = try Tool.run("zbarimg", ["--raw", "-q", page], in: directory, accepting: [0, 4]).text
                #expect(
                    decoded == payload + "\n", "\(person), \(formID), \(page): zbarimg read \(decoded.debugDescription)"
                )
            }
        }
    }

    /// The band of the name on page 1 of the 2020-11-28 form at 300 dpi, from its x to the right
    /// margin, 12 pt above the baseline to 5 pt below.
    private func nameBand(_ pdf: [UInt8], _ name: String, in directory: URL) throws -> GrayImage {
        let form = try Fixture.form(builtInFormIDs[0])
        let slot = form.fields[0]  // {firstName} {lastName}
        let scale = 300.0 / 72
        let crop = [
            "-x", "\(Int((slot.x - 1) * scale))", "-y", "\(Int((form.page.height - slot.y - 12) * scale))",
            "-W", "\(Int((form.page.width - slot.x - 40) * scale))", "-H", "\(Int(17 * scale))",
        ]
        let path = try write(pdf, named: "\(name).pdf", in: directory)
        try Tool.run(
            "pdftoppm",
            ["-gray", "-r", "300", "-f", "1", "-l", "1"] + crop + [path, directory.appendingPathComponent(name).path],
            in: directory)
        let file = try #require(
            try FileManager.default.contentsOfDirectory(atPath: directory.path)
                .first { $0.hasPrefix("\(name)-") && $0.hasSuffix(".pgm") })
        return try GrayImage(pgm: try Data(contentsOf: directory.appendingPathComponent(file)))
    }

    /// The glyphs are DejaVu Sans's own: the name drawn by the renderer looks, pixel for pixel,
    /// like the same text drawn by libharu's own embedding of the whole font file (the way it
    /// was drawn before; Vietnamese is left out, see the next test).
    @Test(
        "the subset draws exactly what libharu's embedding of the whole font draws",
        arguments: ["polish", "greek", "cyrillic"])
    func sameGlyphsAsTheWholeFont(person: String) throws {
        let identity = try Self.person(person)
        let form = try Fixture.form(builtInFormIDs[0])
        let slot = form.fields[0]  // {firstName} {lastName}
        let pdf = try Fixture.renderer().pdf(try Fixture.attestation(identity, formID: form.id))
        let reference = try WholeFontLine.pdf(
            identity.fullName, x: slot.x, y: slot.y, size: slot.size ?? 11,
            width: form.page.width, height: form.page.height)
        try withScratchDirectory { directory in
            let ours = try nameBand(pdf, "ours", in: directory)
            let theirs = try nameBand(reference, "reference", in: directory)
            try #require(ours.width == theirs.width && ours.height == theirs.height)
            let ink = theirs.pixels.filter { $0 < 128 }.count
            #expect(ink > 500, "\(person): the reference has only \(ink) dark pixels")
            let different = zip(ours.pixels, theirs.pixels).filter { abs(Int($0) - Int($1)) > 64 }.count
            #expect(
                different == 0, "\(person): \(different) pixels differ from the whole font's rendering (\(ink) dark)")
        }
    }

    /// ễ is a composite of a composite (e, and a circumflex-tilde made of two marks): libharu
    /// 2.3's embedding follows one level only and printed « Nguyen ». The subset keeps every
    /// level: « Nguyễn » is « Nguyen » plus marks above the x-height, nothing else moved.
    @Test("the stacked marks of Vietnamese letters are drawn")
    func nestedComposites() throws {
        let renderer = try Fixture.renderer()
        func pdf(_ last: String) throws -> [UInt8] {
            try renderer.pdf(
                try Fixture.attestation(try Fixture.identity(first: "Ł", last: last), formID: builtInFormIDs[0]))
        }
        let (marked, plain) = (try pdf("Nguyễn"), try pdf("Nguyen"))
        try withScratchDirectory { directory in
            let with = try nameBand(marked, "marked", in: directory)
            let without = try nameBand(plain, "plain", in: directory)
            try #require(with.width == without.width && with.height == without.height)
            // DejaVu Sans's x-height is 1120/2048 em: 6 pt at 11 pt, so 6 pt below the band's top.
            let xHeightRow = Int((12 - 6.0) * 300 / 72)
            var above = 0
            var below = 0
            for (index, (a, b)) in zip(with.pixels, without.pixels).enumerated() where abs(Int(a) - Int(b)) > 64 {
                if index / with.width < xHeightRow { above += 1 } else { below += 1 }
            }
            #expect(above > 50, "only \(above) pixels of marks above « e »")
            #expect(below == 0, "\(below) pixels differ at or below the x-height")
        }
    }

    /// The width that decides the city's size is the width the reader draws: the embedded
    /// font's own widths, with the official rule (whole points from 11 down to 7 until 83 pt fit).
    @Test(
        "a Polish city after « Fait à » shrinks like a French one, measured in the embedded font",
        arguments: builtInFormIDs)
    func cityShrinks(formID: String) throws {
        let renderer = try Fixture.renderer()
        let official = try OfficialPositions.of(formID)
        let form = try Fixture.form(formID)
        let fit = try #require(form.fields[4].fitWidth)  // {city}, after « Fait à »
        try withScratchDirectory { directory in
            func words(city: String) throws -> (name: Word, city: Word) {
                let identity = try Fixture.identity(first: "Łukasz", last: "Wałęsa", city: city)
                let page = try BBox.firstPage(
                    of: try renderer.pdf(try Fixture.attestation(identity, formID: formID)), in: directory)
                let name = try #require(page.words.first { $0.text == "Łukasz" }, "\(formID): no «Łukasz»")
                let word = try #require(
                    page.words.first {
                        abs($0.xMin - official.city.x) <= 2 && $0.yMin > page.height - official.city.y - 15
                            && $0.yMax < page.height - official.city.y + 5
                    }, "\(formID): no word after « Fait à »")
                #expect(word.text == city, "\(formID): the word after « Fait à » is «\(word.text)»")
                return (name, word)
            }
            // The name is at 11 pt: the height of its box gives the font's box height per point.
            let short = try words(city: "Łódź")
            let perPoint = (short.name.yMax - short.name.yMin) / 11
            func size(_ word: Word) -> Double { (word.yMax - word.yMin) / perPoint }
            #expect(abs(size(short.city) - 11) < 0.05, "\(formID): «Łódź» at \(size(short.city)) pt, 11 expected")

            // 18 letters: too wide at 11 pt, shrunk to the largest whole size that fits 83 pt.
            let medium = try words(city: "Skarżysko-Kamienna").city
            let mediumSize = size(medium)
            let mediumWidth = medium.xMax - medium.xMin
            #expect(
                abs(mediumSize - mediumSize.rounded()) < 0.05 && mediumSize >= 7 - 0.05 && mediumSize < 11,
                "\(formID): «Skarżysko-Kamienna» at \(mediumSize) pt")
            #expect(
                mediumWidth <= fit + 0.5, "\(formID): «Skarżysko-Kamienna» is \(mediumWidth) pt wide, more than \(fit)")
            #expect(
                mediumWidth / mediumSize * (mediumSize.rounded() + 1) > fit,
                "\(formID): «Skarżysko-Kamienna» would fit at \(mediumSize.rounded() + 1) pt")

            // Too long even at 7 pt: stays at the official minimum of 7 pt.
            let long = try words(city: "Skarżysko-Kamienna-Wólka-Łęczycka").city
            #expect(abs(size(long) - 7) < 0.05, "\(formID): long Polish city at \(size(long)) pt, 7 expected")
        }
    }

    @Test("characters the font lacks, even outside the BMP, still read back exactly")
    func missingGlyphs() throws {
        let identity = try Fixture.identity(first: "Wang", last: "王秀英", address: "1 rue du Soleil 🙂")
        let pdf = try Fixture.renderer().pdf(try Fixture.attestation(identity, formID: builtInFormIDs[0]))
        try withScratchDirectory { directory in
            let path = try write(pdf, named: "missing.pdf", in: directory)
            let text = try Tool.run("pdftotext", ["-enc", "UTF-8", "-f", "1", "-l", "1", path, "-"], in: directory).text
            #expect(text.contains("Wang 王秀英"), "not read back: \(text)")
            #expect(text.contains("1 rue du Soleil 🙂 75001 Paris"), "not read back: \(text)")
            let check = try Tool.run("qpdf", ["--check", path], in: directory)
            #expect(check.text.contains("No syntax or stream encoding errors found"))
        }
    }

    @Test("the font file is read once per renderer, not once per document")
    func fontReadOnce() throws {
        try withScratchDirectory { directory in
            let copy = directory.appendingPathComponent("copy.ttf")
            try FileManager.default.copyItem(atPath: AttestationRenderer.defaultUnicodeFontPath, toPath: copy.path)
            let renderer = try AttestationRenderer(forms: FormCatalog.builtIn.forms, unicodeFontPath: copy.path)
            let attestation = try Fixture.attestation(try Self.person("polish"), formID: builtInFormIDs[0])
            let first = try renderer.pdf(attestation)
            try FileManager.default.removeItem(at: copy)
            #expect(try renderer.pdf(attestation) == first, "the second document needs the file again")
            // A new renderer reads it again, and finds it gone.
            let other = try AttestationRenderer(forms: FormCatalog.builtIn.forms, unicodeFontPath: copy.path)
            #expect(throws: RenderingError.unicodeFont(path: copy.path)) { _ = try other.pdf(attestation) }
        }
    }

    /// A package upgrade or an administrator may rewrite the font file while the server runs:
    /// the renderer works from its own copy, not from a mapping of the file (reading a
    /// truncated mapping is SIGBUS).
    @Test("the font file truncated in place after it was read does not crash the renderer")
    func fontTruncatedInPlace() throws {
        try withScratchDirectory { directory in
            let copy = directory.appendingPathComponent("copy.ttf")
            try FileManager.default.copyItem(atPath: AttestationRenderer.defaultUnicodeFontPath, toPath: copy.path)
            let renderer = try AttestationRenderer(forms: FormCatalog.builtIn.forms, unicodeFontPath: copy.path)
            _ = try renderer.pdf(try Fixture.attestation(try Self.person("polish"), formID: builtInFormIDs[0]))
            let file = try FileHandle(forWritingTo: copy)
            try file.truncate(atOffset: 0)
            try file.close()
            // Other characters, so other glyphs are read from the font.
            let greek = try Fixture.attestation(try Self.person("greek"), formID: builtInFormIDs[0])
            #expect(try renderer.pdf(greek) == (try Fixture.renderer().pdf(greek)))
        }
    }

    @Test("a file that is not a usable TrueType font is .unicodeFont, not a crash")
    func unusableFontFiles() throws {
        let dejaVu = try #require(FileManager.default.contents(atPath: AttestationRenderer.defaultUnicodeFontPath))
        var wrongTable = [UInt8](dejaVu)
        // The table directory's first entry (FFTM in DejaVu Sans) pointing past the end.
        wrongTable.replaceSubrange(12 + 8..<12 + 12, with: [0x7F, 0xFF, 0xFF, 0xFF])
        let cases: [String: [UInt8]] = [
            "empty": [],
            "text": Array("not a font\n".utf8),
            "truncated": Array(dejaVu.prefix(65_536)),
            "collection": Array("ttcf".utf8) + [UInt8](dejaVu.dropFirst(4)),
            "offset past the end": wrongTable,
        ]
        try withScratchDirectory { directory in
            let attestation = try Fixture.attestation(try Self.person("greek"), formID: builtInFormIDs[0])
            for (name, bytes) in cases {
                let path = try write(bytes, named: "\(name).ttf", in: directory)
                let renderer = try AttestationRenderer(forms: FormCatalog.builtIn.forms, unicodeFontPath: path)
                #expect(throws: RenderingError.unicodeFont(path: path), "\(name)") { _ = try renderer.pdf(attestation) }
            }
        }
    }

    @Test("the subset is a valid TrueType font with each character's glyph and width")
    func subsetFont() throws {
        let font = try TrueTypeFont.load(path: AttestationRenderer.defaultUnicodeFontPath)
        var use = UnicodeFontUse(font: font)
        let text = "Łukasz Wałęsa Γιώργος Иван Nguyễn ǅ 王"
        let codes = use.encode(Array(text.unicodeScalars))
        #expect(codes.count == text.unicodeScalars.count)
        #expect(Set(codes).count == Set(text.unicodeScalars).count, "one code per distinct character")
        let (program, newGlyphs) = try font.subset(use.glyphs, characters: use.characters)
        #expect(program.count < 12_000, "subset of \(use.glyphs.count) glyphs is \(program.count) bytes")
        #expect(newGlyphs.count == use.glyphs.count)

        // The whole file sums to 0xB1B0AFBA, as head.checkSumAdjustment promises.
        var sum: UInt32 = 0
        for index in stride(from: 0, to: program.count, by: 4) {
            sum &+= program[index..<min(index + 4, program.count)].enumerated()
                .reduce(UInt32(0)) { $0 | UInt32($1.element) << (24 - 8 * UInt32($1.offset)) }
        }
        #expect(sum == 0xB1B0_AFBA, "file checksum 0x\(String(sum, radix: 16))")

        try withScratchDirectory { directory in
            let path = try write(program, named: "subset.ttf", in: directory)
            let subset = try TrueTypeFont.load(path: path)
            // ễ is a composite of composites: their components come along, beyond the glyphs asked.
            #expect(subset.glyphCount > Set(use.glyphs).count, "\(subset.glyphCount) glyphs")
            #expect(subset.glyphCount < 60, "\(subset.glyphCount) glyphs: more than the text needs")
            #expect(subset.unitsPerEm == font.unitsPerEm && subset.postScriptName == font.postScriptName)
            #expect(font.glyph(for: "王") == 0, "DejaVu Sans has no CJK: 王 should be its .notdef")
            for (scalar, code) in zip(text.unicodeScalars, codes) {
                // Code i draws the subset's glyph newGlyphs[i] (the PDF's CIDToGIDMap), which the
                // subset's own cmap gives for the character too.
                let glyph = newGlyphs[Int(code)]
                #expect(
                    subset.glyph(for: scalar) == glyph,
                    "\(scalar): subset glyph \(subset.glyph(for: scalar)), map \(glyph)")
                #expect(
                    subset.width(ofGlyph: glyph) == font.width(ofGlyph: font.glyph(for: scalar)), "\(scalar): width")
            }
        }
    }
}

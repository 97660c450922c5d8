import AttestationKit
import FormSchema
import Foundation
import TestSupport
import Testing

@testable import Rendering

/// The pages as PNG images (cairo), against the PDF of the same instant rasterised by poppler
/// (`pdftoppm -gray`) at the same resolution: same text rows, same pixels but for antialiasing,
/// same QR code.
@Suite("Page images")
struct PageImageTests {
    /// Both forms, a Latin-1 person and one outside WinAnsi, at 150 dpi; then the smallest and
    /// largest resolutions once each.
    /// And each of the other official forms (Times, justified text, superscripts, text boxes,
    /// white text, a second page of another size) once, at 150 dpi.
    static let cases: [(String, String, Int)] =
        builtInFormIDs.flatMap { formID in
            ["latin1", "polish"].map { (formID, $0, 150) }
        } + [(builtInFormIDs[0], "latin1", 72), (builtInFormIDs[1], "polish", 300)]
        + ReferencePageTests.folders.map { ($0, "latin1", 150) }

    static func person(_ key: String) throws -> Identity {
        key == "latin1" ? try Fixture.latin1Person() : try UnicodeFontTests.person(key)
    }

    /// (a) Baselines, found by detecting text rows in both pictures: every word
    /// `pdftotext -bbox` finds on page 1 is looked for in both pictures, within its box; the
    /// ink of each row of the box in this picture is matched against pdftoppm's moved up or
    /// down by up to 4 rows, and the best match must be at most 1 row away (the word's rows, so
    /// its baseline, within 1 pixel). (b) Pixels: both pictures blurred by 1 pixel (3 × 3
    /// box), at least 98 % of all pixels, and 98 % of those inked in either, within a third of
    /// the grey range (what an edge moved by one pixel leaves after that blur; a page moved by
    /// two pixels, or another person's page, fails). (c) zbarimg reads the attestation's
    /// payload from both. And at 150 dpi the image is at most 150 KB.
    @Test("each page image is the PDF's page as pdftoppm draws it", arguments: cases)
    func eachPageImageIsThePDFsPageAsPdftoppmDrawsIt(formID: String, person: String, dpi: Int) throws {
        let form = try Fixture.form(formID)
        let attestation = try Fixture.attestation(
            try Self.person(person), formID: formID,
            reasonCodes: form.selection == .exactlyOne ? [form.reasons[1].code] : nil)
        let renderer = try Fixture.renderer()
        let payload = QRPayload(attestation).text
        try withScratchDirectory { directory in
            let pdfPath = try write(try renderer.pdf(attestation), named: "attestation.pdf", in: directory)
            for page in 1...form.pageCount {
                let label = "\(formID), \(person), page \(page), \(dpi) dpi"
                let png = try renderer.pagePNG(attestation, page: page, dpi: dpi)
                if dpi == 150 { #expect(png.count <= 150_000, "\(label): \(png.count) bytes") }
                let pngPath = try write(png, named: "page\(page).png", in: directory)
                try Tool.run(
                    "pdftoppm",
                    [
                        "-r", "\(dpi)", "-gray", "-f", "\(page)", "-l", "\(page)", "-singlefile",
                        pdfPath, "reference\(page)",
                    ], in: directory)
                let reference = try GrayImage(
                    pgm: Data(contentsOf: directory.appendingPathComponent("reference\(page).pgm")))
                let image = try GrayImage(png: pngPath, in: directory)
                try #require(
                    image.width == reference.width && image.height == reference.height,
                    "\(label): \(image.width) × \(image.height) pixels, pdftoppm \(reference.width) × \(reference.height)"
                )

                // (c) On the pages with a QR code (not page 1 of a blank of two pages).
                let expected = form.qrCodes.contains { $0.page == page } ? Data(payload.utf8) : Data()
                for path in [pngPath, "reference\(page).pgm"] {
                    // The bytes as they are (-Sbinary): zbarimg takes the UTF-8 of the forms
                    // that do not fold values to ASCII for Shift JIS otherwise.
                    let decoded = try Tool.run(
                        "zbarimg", ["--raw", "-q", "-Sbinary", path], in: directory, accepting: [0, 4]
                    ).stdout
                    #expect(
                        decoded == expected,
                        "\(label): zbarimg read \(String(decoding: decoded, as: UTF8.self).debugDescription) from \(path)"
                    )
                }

                // (b)
                let agreement = PixelAgreement(image.boxBlurred(), reference.boxBlurred(), tolerance: 85)
                #expect(
                    agreement.whole >= 0.98 && agreement.inked >= 0.98,
                    "\(label): \(agreement.whole * 100) % of pixels equal, \(agreement.inked * 100) % of inked ones")

                // (a)
                guard page == 1 else { continue }
                let bbox = try Tool.run("pdftotext", ["-bbox", "-f", "1", "-l", "1", pdfPath, "-"], in: directory)
                let words = try #require(try BBox.parse(bbox.text).first).words
                try #require(words.count > 250, "\(label): only \(words.count) words")
                let scale = Double(dpi) / 72
                var compared = 0
                for word in words {
                    let columns = Int((word.xMin * scale).rounded(.down))..<Int((word.xMax * scale).rounded(.up))
                    let rows = Int((word.yMin * scale).rounded(.down))..<Int((word.yMax * scale).rounded(.up))
                    guard let offset = image.verticalOffset(to: reference, columns: columns, rows: rows, within: 4)
                    else {
                        // The white text the Ministry wrote for screen readers: ink in neither.
                        if reference.verticalOffset(to: image, columns: columns, rows: rows, within: 4) == nil {
                            compared += 1
                        } else {
                            Issue.record("\(label): no ink for \(word)")
                        }
                        continue
                    }
                    #expect(abs(offset) <= 1, "\(label): \(word) is \(offset) rows from where pdftoppm draws it")
                    compared += 1
                }
                #expect(compared == words.count)
            }
        }
    }

    /// What (b) tells apart, so that it can fail: the same picture moved by two pixels, a blank
    /// page, and another person's page of the same form all fall under 98 %.
    @Test("the pixel comparison refuses a page moved by two pixels, a blank page and another person's")
    func thePixelComparisonRefusesAMovedABlankAndAnotherPersonsPage() throws {
        let renderer = try Fixture.renderer()
        let formID = builtInFormIDs[0]
        let attestation = try Fixture.attestation(try Fixture.latin1Person(), formID: formID)
        let other = try Fixture.attestation(try UnicodeFontTests.person("greek"), formID: formID)
        try withScratchDirectory { directory in
            let pdfPath = try write(try renderer.pdf(attestation), named: "attestation.pdf", in: directory)
            try Tool.run(
                "pdftoppm", ["-r", "150", "-gray", "-f", "1", "-l", "1", "-singlefile", pdfPath, "reference"],
                in: directory)
            let reference = try GrayImage(pgm: Data(contentsOf: directory.appendingPathComponent("reference.pgm")))
                .boxBlurred()
            let image = try GrayImage(
                png: try write(try renderer.pagePNG(attestation, page: 1), named: "page.png", in: directory),
                in: directory)
            let otherImage = try GrayImage(
                png: try write(try renderer.pagePNG(other, page: 1), named: "other.png", in: directory),
                in: directory)
            #expect(PixelAgreement(image.boxBlurred(), reference, tolerance: 85).inked >= 0.98, "the right page passes")
            let blank = GrayImage(
                width: image.width, height: image.height, pixels: [UInt8](repeating: 255, count: image.pixels.count))
            for (name, candidate) in [
                ("moved", image.moved(right: 2, down: 2)), ("blank", blank), ("other person", otherImage),
            ] {
                let agreement = PixelAgreement(candidate.boxBlurred(), reference, tolerance: 85)
                #expect(
                    agreement.whole < 0.98 || agreement.inked < 0.98,
                    "\(name): \(agreement.whole * 100) % of pixels, \(agreement.inked * 100) % of inked ones")
            }
        }
    }

    @Test("a page image is a 16-grey palette PNG of the page at the resolution asked, with its resolution")
    func aPageImageIsASixteenGreyPNGOfThePageAtTheResolutionAsked() throws {
        let renderer = try Fixture.renderer()
        for formID in builtInFormIDs {
            let attestation = try Fixture.attestation(try Fixture.camille(), formID: formID)
            let form = try Fixture.form(formID)
            for dpi in [72, 100, 150, 300] {
                let png = try renderer.pagePNG(attestation, page: 1, dpi: dpi)
                let (width, height) = try pngDimensions(png)
                #expect(width == Int((form.page.width * Double(dpi) / 72).rounded(.up)))
                #expect(height == Int((form.page.height * Double(dpi) / 72).rounded(.up)))
                #expect(
                    png[24] == 4 && png[25] == 3, "\(formID), \(dpi) dpi: bit depth \(png[24]), colour type \(png[25])")
            }
        }
        let attestation = try Fixture.attestation(try Fixture.camille(), formID: builtInFormIDs[0])
        #expect(try renderer.pagePNG(attestation, page: 1) == renderer.pagePNG(attestation, page: 1, dpi: 150))
    }

    @Test("a resolution outside 72–300 dpi and a page the attestation lacks are refused, in French")
    func aResolutionOutsideTheRangeAndAMissingPageAreRefusedInFrench() throws {
        let renderer = try Fixture.renderer()
        let attestation = try Fixture.attestation(try Fixture.camille(), formID: builtInFormIDs[0])
        for dpi in [0, 71, 301, 1200] {
            #expect(throws: RenderingError.pageDPI(dpi, 72...300)) {
                _ = try renderer.pagePNG(attestation, page: 1, dpi: dpi)
            }
        }
        for page in [0, 3, -1] {
            #expect(throws: RenderingError.pageNumber(page, pages: 2)) {
                _ = try renderer.pagePNG(attestation, page: page)
            }
        }
        #expect(
            RenderingError.pageDPI(71, 72...300).description
                == "résolution invalide (71) ; de 72 à 300 points par pouce.")
        #expect(RenderingError.pageNumber(3, pages: 2).description == "page 3 inexistante ; de 1 à 2.")
    }

    @Test("the page images need Nimbus Sans; without it they are refused, naming the package, and PDFs still work")
    func withoutNimbusSansPageImagesAreRefusedNamingThePackageAndPDFsStillWork() throws {
        let renderer = try AttestationRenderer(
            forms: FormCatalog.builtIn.forms, standardFontDirectory: "/nonexistent/urw")
        let attestation = try Fixture.attestation(try Fixture.camille(), formID: builtInFormIDs[0])
        #expect(
            throws: RenderingError.rasterFont(
                path: "/nonexistent/urw/NimbusSans-Regular.otf", package: "fonts-urw-base35")
        ) {
            _ = try renderer.pagePNG(attestation, page: 1)
        }
        #expect(throws: Never.self) { _ = try renderer.pdf(attestation) }
        #expect(
            FileManager.default.fileExists(
                atPath: AttestationRenderer.defaultStandardFontDirectory + "/NimbusSans-Regular.otf"),
            "Nimbus Sans is missing: apt-get install fonts-urw-base35")
    }

    @Test("page images are the same bytes when rendered from many threads at once, at several resolutions")
    func pageImagesAreTheSameBytesFromManyThreadsAtOnce() async throws {
        let renderer = try Fixture.renderer()
        let attestation = try Fixture.attestation(try UnicodeFontTests.person("polish"), formID: builtInFormIDs[0])
        let jobs = [(1, 150), (2, 150), (1, 72), (1, 150)]
        let expected = try jobs.map { try renderer.pagePNG(attestation, page: $0.0, dpi: $0.1) }
        let results = try await withThrowingTaskGroup(of: (Int, [UInt8]).self) { group in
            for _ in 0..<4 {
                for (index, job) in jobs.enumerated() {
                    group.addTask { (index, try renderer.pagePNG(attestation, page: job.0, dpi: job.1)) }
                }
            }
            var all: [(Int, [UInt8])] = []
            for try await result in group { all.append(result) }
            return all
        }
        for (index, bytes) in results { #expect(bytes == expected[index], "job \(jobs[index]) differs") }
    }
}

/// The share of pixels whose values differ by at most `tolerance`: over the whole picture, and
/// over the pixels that are not white in one of the two.
struct PixelAgreement {
    let whole: Double
    let inked: Double

    init(_ a: [Int32], _ b: [Int32], tolerance: Int32) {
        precondition(a.count == b.count)
        var equal = 0
        var inkedCount = 0
        var inkedEqual = 0
        a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                for index in 0..<a.count {
                    let same = abs(a[index] - b[index]) <= tolerance
                    if same { equal += 1 }
                    if a[index] < 255 || b[index] < 255 {
                        inkedCount += 1
                        if same { inkedEqual += 1 }
                    }
                }
            }
        }
        whole = Double(equal) / Double(a.count)
        inked = inkedCount == 0 ? 1 : Double(inkedEqual) / Double(inkedCount)
    }
}

extension GrayImage {
    /// A PNG read through ImageMagick, as 8-bit grey.
    init(png path: String, in directory: URL) throws {
        try Tool.run("convert", [path, "-colorspace", "Gray", "-depth", "8", "converted.pgm"], in: directory)
        try self.init(pgm: Data(contentsOf: directory.appendingPathComponent("converted.pgm")))
    }

    init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height)
        (self.width, self.height, self.pixels) = (width, height, pixels)
    }

    /// Each pixel the mean of the 3 × 3 square around it (edges repeated), rounded. Over buffer
    /// pointers, for the speed of a debug build (see `verticalOffset`).
    func boxBlurred() -> [Int32] {
        let (width, height) = (self.width, self.height)
        var rows = [Int32](repeating: 0, count: pixels.count)
        var result = [Int32](repeating: 0, count: pixels.count)
        pixels.withUnsafeBufferPointer { pixels in
            rows.withUnsafeMutableBufferPointer { rows in
                for y in 0..<height {
                    let row = y * width
                    for x in 0..<width {
                        rows[row + x] =
                            Int32(pixels[row + max(x - 1, 0)]) + Int32(pixels[row + x])
                            + Int32(pixels[row + min(x + 1, width - 1)])
                    }
                }
                result.withUnsafeMutableBufferPointer { result in
                    for y in 0..<height {
                        let (above, row, below) = (max(y - 1, 0) * width, y * width, min(y + 1, height - 1) * width)
                        for x in 0..<width {
                            result[row + x] = (rows[above + x] + rows[row + x] + rows[below + x] + 4) / 9
                        }
                    }
                }
            }
        }
        return result
    }

    /// The picture moved, white coming in.
    func moved(right: Int, down: Int) -> GrayImage {
        var moved = [UInt8](repeating: 255, count: pixels.count)
        for y in down..<height {
            for x in right..<width { moved[y * width + x] = pixels[(y - down) * width + x - right] }
        }
        return GrayImage(width: width, height: height, pixels: moved)
    }

    /// How many rows down `other` draws what this picture has in the region, from -`limit` to
    /// `limit`: the offset at which the ink of the region's rows (summed across `columns`)
    /// matches best. Nil when neither picture has ink there.
    ///
    /// Each row's ink is summed once: summed again for every offset tried, this and `boxBlurred`
    /// over checked array subscripts made PageImageTests take 70.7 s of CPU in a debug build;
    /// 26.9 s now (`/usr/bin/time swift test --filter PageImageTests`).
    func verticalOffset(to other: GrayImage, columns: Range<Int>, rows: Range<Int>, within limit: Int) -> Int? {
        let columns = columns.clamped(to: 0..<width)
        func inks(_ picture: GrayImage, _ rows: Range<Int>) -> [Int] {
            picture.pixels.withUnsafeBufferPointer { pixels in
                rows.map { row in
                    guard (0..<picture.height).contains(row) else { return 0 }
                    var sum = 0
                    for column in columns { sum += 255 - Int(pixels[row * picture.width + column]) }
                    return sum
                }
            }
        }
        let mine = inks(self, rows)
        guard mine.contains(where: { $0 > 0 }) else { return nil }
        // theirs[index + limit + offset] is the ink of row rows.lowerBound + index + offset.
        let theirs = inks(other, (rows.lowerBound - limit)..<(rows.upperBound + limit))
        var best = (offset: 0, cost: Int.max)
        // Nearest offsets first: on a tie, the smaller move wins.
        for offset in [0] + (1...limit).flatMap({ [-$0, $0] }) {
            var cost = 0
            for index in mine.indices { cost += abs(mine[index] - theirs[index + limit + offset]) }
            if cost < best.cost { best = (offset, cost) }
        }
        return best.offset
    }
}

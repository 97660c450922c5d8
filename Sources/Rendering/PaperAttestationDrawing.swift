import AttestationKit
import CHaru
import FormSchema

// Paper attestations: the form's own pages, as the PDF of an attestation draws them, with only
// the person's identity written in (`PaperAttestation`), to be printed and completed by hand.
// Kept apart from the attestation's drawing: the two share the form's layout and the PDF writer,
// not their rules.

extension FormLayout {
    /// The form's fixed drawing of each page without its invisible text. On the official forms,
    /// white text tells a screen reader about the QR codes ("QR-code contenant les informations
    /// de votre attestation numérique"); a paper attestation has no QR code, and its PDF is made
    /// to be printed, where invisible text has no reader. A page left with nothing is empty.
    /// Made once, when the form is laid out (`paperFixedPages`).
    static func paperFixedPages(
        of fixedPages: [FixedDrawing], fontNames: [TextFont: String]
    ) throws(RenderingError) -> [FixedDrawing] {
        var pages: [FixedDrawing] = []
        for page in fixedPages {
            let visible = page.items.filter {
                if case .text(let run) = $0 { run.colour.darkness > 0 } else { true }
            }
            if visible.count == page.items.count {
                pages.append(page)
            } else if visible.isEmpty {
                pages.append(.empty)
            } else {
                var writer = PDFContentWriter(fontNames: fontNames, startOfPage: true)
                writer.draw(visible)
                pages.append(FixedDrawing(items: visible, pdfContent: try Deflate.compress(writer.finish().bytes)))
            }
        }
        return pages
    }

    /// The pages of a paper attestation of this form: page 1, and each other page that draws
    /// something once its QR codes and invisible text are gone (none, on the official forms,
    /// whose page 2 is the big QR code), each with the values of its identity-only fields.
    func paperPages(
        of paper: PaperAttestation, metrics: StandardFontMetrics,
        unicodeFont: UnicodeFontSource
    ) throws(RenderingError) -> [PageDrawing] {
        let fixed = paperFixedPages
        var items = [[DrawingItem]](repeating: [], count: fixed.count)
        // The logos, and every box a chosen reason's mark would replace: on paper none is chosen.
        for (index, picture) in pictures.enumerated() where items.indices.contains(picture.image.page - 1) {
            items[picture.image.page - 1].append(.picture(index))
        }
        for reason in form.printedReasons {
            if let box = replacedBoxes[reason.code], items.indices.contains(box.page - 1) {
                items[box.page - 1].append(.text(box.run))
            }
        }
        for slot in form.fields where items.indices.contains(slot.page - 1) {
            let value = paper.text(of: slot)
            guard !value.isEmpty else { continue }
            for run in try FieldText.runs(value: value, slot: slot, metrics: metrics, unicodeFont: unicodeFont.load) {
                items[slot.page - 1].append(.text(run))
            }
        }
        var pages: [PageDrawing] = []
        for index in fixed.indices where index == 0 || !items[index].isEmpty || !fixed[index].items.isEmpty {
            let size = form.size(ofPage: index + 1)
            pages.append(PageDrawing(width: size.width, height: size.height, fixed: fixed[index], items: items[index]))
        }
        return pages
    }
}

extension AttestationRenderer {
    /// Paper attestations, one after the other in one PDF to print: for each, its form's pages
    /// with the person's identity written in, the reasons' boxes, the dates, the times and the
    /// signature left empty, no QR code (`PaperAttestation`). The document information names the
    /// form and this generator, with no creation date: a paper attestation is dated by hand.
    public func paperPDF(_ papers: [PaperAttestation]) throws(RenderingError) -> [UInt8] {
        var pages: [(drawing: PageDrawing, layout: FormLayout)] = []
        for paper in papers {
            let layout = try layout(id: paper.form.id)
            for drawing in try layout.paperPages(of: paper, metrics: metrics, unicodeFont: unicodeFont) {
                pages.append((drawing, layout))
            }
        }
        let document = try HaruDocument()
        if let first = pages.first?.layout {
            HPDF_SetInfoAttr(document.handle, HPDF_INFO_TITLE, first.metadata.title)
            HPDF_SetInfoAttr(document.handle, HPDF_INFO_SUBJECT, first.metadata.subject)
            HPDF_SetInfoAttr(document.handle, HPDF_INFO_KEYWORDS, first.metadata.keywords)
        }
        HPDF_SetInfoAttr(document.handle, HPDF_INFO_AUTHOR, Self.paperProducerCString)
        HPDF_SetInfoAttr(document.handle, HPDF_INFO_CREATOR, Self.paperProducerCString)
        HPDF_SetInfoAttr(document.handle, HPDF_INFO_PRODUCER, Self.paperProducerCString)

        // As in `render`: every Unicode run encoded first, the font then embedded once.
        var fonts = PageFonts(document: document, unicodeFont: unicodeFont)
        var unicodeCodes: [[UInt16]] = []
        for (drawing, _) in pages {
            for case .text(let run) in drawing.items {
                if case .unicode(let scalars) = run.text { unicodeCodes.append(try fonts.encodeUnicode(scalars)) }
            }
        }
        var codes = unicodeCodes.makeIterator()
        var pictures: [String: HPDF_Image] = [:]
        for (index, (drawing, layout)) in pages.enumerated() {
            let page = try AttestationRenderer.addPage(drawing, of: layout, to: document, fonts: &fonts)
            if index == 0 { try fonts.embedUnicodeFont() }
            // A paper page has text and the form's pictures: no reasons' marks, no QR code.
            try draw(
                drawing.items, on: page, number: index + 1, fonts: &fonts, layout: layout, template: false,
                codes: &codes, qrModules: 0
            ) { () throws(RenderingError) -> HPDF_Image in
                preconditionFailure("a paper attestation draws no QR code")
            } picture: { (number: Int) throws(RenderingError) -> HPDF_Image in
                // Each form's picture stored once, however many copies draw it.
                let key = "\(layout.form.id) \(number)"
                if let stored = pictures[key] { return stored }
                let made = try document.image(of: layout.pictures[number])
                pictures[key] = made
                return made
            }
        }
        try document.check()
        return try document.bytes()
    }

    private static let paperProducerCString = PDFDocEncoding.cString(producer)
}

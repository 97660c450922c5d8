import AttestationKit

extension FormLayout {
    /// The pages of an attestation of this form: each page's fixed drawing with, over it, the
    /// values of its fields, the marks of the chosen reasons printed there and its QR codes.
    /// Pages 2, 3, … exist up to the last one the form puts anything on (the official forms:
    /// the big QR code on page 2; the generator of 22 March 2021: on page 3), each in its own
    /// size when the form gives one (`Form.size(ofPage:)`).
    /// `replacing`: placeholders' values given instead of the attestation's (the offline
    /// template's dates and times).
    func pages(
        of attestation: Attestation, replacing: [String: String] = [:], metrics: StandardFontMetrics,
        unicodeFont: UnicodeFontSource
    ) throws(RenderingError) -> [PageDrawing] {
        let pageCount = fixedPages.count
        var items = [[DrawingItem]](repeating: [], count: pageCount)
        for (index, picture) in pictures.enumerated() { items[picture.image.page - 1].append(.picture(index)) }
        for slot in form.fields {
            let value =
                replacing.isEmpty ? attestation.text(of: slot) : attestation.text(of: slot, replacing: replacing)
            for run in try FieldText.runs(value: value, slot: slot, metrics: metrics, unicodeFont: unicodeFont.load) {
                items[slot.page - 1].append(.text(run))
            }
        }
        // The marks of the chosen reasons, then the boxes a mark replaces of the others: in this
        // order in a template too (`templateMarks`, `templateBoxes`), so that the page's text
        // reads the same once the page has filled it.
        let chosen = Set(attestation.reasons.map(\.code))
        for page in markedPages.sorted() {
            let marked = attestation.reasons.compactMap { reason in
                marks[reason.code].flatMap { $0.page == page ? $0.run : nil }
            }
            let boxes = form.reasons.compactMap { reason -> TextRun? in
                guard !chosen.contains(reason.code), let box = replacedBoxes[reason.code], box.page == page else {
                    return nil
                }
                return box.run
            }
            items[page - 1].append(.reasonMarks(marked + boxes))
        }
        // A reason printed but not offered keeps its box: never in a template's block.
        for reason in form.printedReasons where form.reason(code: reason.code) == nil {
            if let box = replacedBoxes[reason.code] { items[box.page - 1].append(.text(box.run)) }
        }
        for placement in form.qrCodes {
            items[placement.page - 1].append(.qrCode(QRCodeBox(x: placement.x, y: placement.y, size: placement.size)))
        }
        return (1...pageCount).map { page in
            let size = form.size(ofPage: page)
            return PageDrawing(
                width: size.width, height: size.height, fixed: fixedPages[page - 1], items: items[page - 1])
        }
    }

    /// The pages that hold reasons' marks (page 1 for every official form).
    var markedPages: Set<Int> { Set(form.reasons.map(\.page)) }
}

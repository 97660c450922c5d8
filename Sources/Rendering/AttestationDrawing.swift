import AttestationKit

extension FormLayout {
    /// The pages of an attestation of this form: each page's fixed drawing with, over it, the
    /// values of its fields, the marks of the chosen reasons printed there and its QR codes.
    /// Page 2 exists when the form puts anything on it (the official forms: the big QR code),
    /// in its own size when the form gives one (`secondPage`).
    /// `replacing`: placeholders' values given instead of the attestation's (the offline
    /// template's dates and times).
    func pages(
        of attestation: Attestation, replacing: [String: String] = [:], metrics: StandardFontMetrics,
        unicodeFont: UnicodeFontSource
    ) throws(RenderingError) -> [PageDrawing] {
        var items: [[DrawingItem]] = [[], []]
        for slot in form.fields {
            let value =
                replacing.isEmpty ? attestation.text(of: slot) : attestation.text(of: slot, replacing: replacing)
            for run in try FieldText.runs(value: value, slot: slot, metrics: metrics, unicodeFont: unicodeFont.load) {
                items[slot.page - 1].append(.text(run))
            }
        }
        for page in 1...2 where markedPages.contains(page) {
            items[page - 1].append(
                .reasonMarks(
                    attestation.reasons.compactMap { reason in
                        marks[reason.code].flatMap { $0.page == page ? $0.run : nil }
                    }))
        }
        for placement in form.qrCodes {
            items[placement.page - 1].append(.qrCode(QRCodeBox(x: placement.x, y: placement.y, size: placement.size)))
        }
        var pages: [PageDrawing] = []
        for page in 1...2 where page == 1 || !items[1].isEmpty || !fixedPages[1].items.isEmpty {
            let size = form.size(ofPage: page)
            pages.append(
                PageDrawing(width: size.width, height: size.height, fixed: fixedPages[page - 1], items: items[page - 1])
            )
        }
        return pages
    }

    /// The pages that hold reasons' marks (page 1 for every official form).
    var markedPages: Set<Int> { Set(form.reasons.map(\.page)) }
}

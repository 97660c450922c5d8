import AttestationKit

extension FormLayout {
    /// The pages of an attestation of this form: page 1 is the fixed drawing with the values,
    /// the marks of the chosen reasons and the small QR code; page 2, when the form places a
    /// code there, that code alone.
    /// `replacing`: placeholders' values given instead of the attestation's (the offline
    /// template's dates and times).
    func pages(of attestation: Attestation, replacing: [String: String] = [:], metrics: StandardFontMetrics,
               unicodeFont: UnicodeFontSource) throws(RenderingError) -> [PageDrawing] {
        var first: [DrawingItem] = []
        var second: [DrawingItem] = []
        for slot in attestation.form.fields {
            let value = replacing.isEmpty ? attestation.text(of: slot) : attestation.text(of: slot, replacing: replacing)
            for run in try FieldText.runs(value: value, slot: slot, metrics: metrics, unicodeFont: unicodeFont.load) {
                first.append(.text(run))
            }
        }
        let markSize = form.reasonLayout.markSize
        first.append(.reasonMarks(attestation.reasons.compactMap { reason in
            marks[reason.code].map { TextRun(text: .standard(.regular, winAnsi: [UInt8(ascii: "x")]), size: markSize, x: $0.x, y: $0.y) }
        }))
        for placement in form.qrCodes {
            let box = DrawingItem.qrCode(QRCodeBox(x: placement.x, y: placement.y, size: placement.size))
            if placement.page == 1 { first.append(box) } else { second.append(box) }
        }
        let (width, height) = (form.page.width, form.page.height)
        var pages = [PageDrawing(width: width, height: height, fixed: fixedPage, items: first)]
        if !second.isEmpty { pages.append(PageDrawing(width: width, height: height, fixed: .empty, items: second)) }
        return pages
    }
}

import AttestationKit
import CHaru
import Foundation

/// Draws attestations: the two-page PDF of the form, and the QR code alone as a PNG.
///
/// The fixed part of each form is laid out once, in `init`; rendering then costs one libharu
/// document per request. A renderer is immutable and can be shared by any number of threads.
public struct AttestationRenderer: Sendable {
    /// DejaVu Sans from Debian's fonts-dejavu-core: embedded only for names outside WinAnsi.
    public static let defaultUnicodeFontPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    /// Accepted sizes for the PNG, in pixels.
    public static let pngSizes = 64...2048

    private let layouts: [String: FormLayout]
    private let unicodeFontPath: String

    /// Lays out every form; a form that cannot be drawn is an error now, not at the first request.
    public init(forms: [Form], unicodeFontPath: String = AttestationRenderer.defaultUnicodeFontPath) throws(RenderingError) {
        var layouts: [String: FormLayout] = [:]
        for form in forms { layouts[form.id] = try FormLayout(form: form) }
        self.layouts = layouts
        self.unicodeFontPath = unicodeFontPath
    }

    /// The attestation as a PDF: page 1 the filled form with a small QR code, page 2 a large one.
    public func pdf(_ attestation: Attestation) throws(RenderingError) -> [UInt8] {
        let layout = if let prepared = layouts[attestation.form.id] { prepared } else { try FormLayout(form: attestation.form) }
        let qr = try QRMatrix(encoding: QRPayload(attestation).bytes)
        let document = try HaruDocument()
        let pdf = document.handle
        HPDF_SetCompressionMode(pdf, UInt32(HPDF_COMP_ALL))
        setMetadata(pdf, attestation)

        let form = attestation.form
        var fonts = try PageFonts(document: document, unicodeFontPath: unicodeFontPath)
        guard let page = HPDF_AddPage(pdf) else { try document.check(); throw .pdf(code: 0) }
        HPDF_Page_SetWidth(page, Float(form.page.width))
        HPDF_Page_SetHeight(page, Float(form.page.height))

        HPDF_Page_BeginText(page)
        for line in layout.lines {
            try fonts.select(line.style, size: line.size, on: page)
            HPDF_Page_TextOut(page, Float(line.x), Float(line.y), line.text)
        }
        for (slot, value) in values(attestation) {
            try FieldText(value: value, slot: slot, fonts: &fonts).draw(on: page, fonts: &fonts)
        }
        let markSize = form.reasonLayout.markSize
        for reason in attestation.reasons {
            guard let mark = layout.marks[reason.code] else { continue }
            try fonts.select(.regular, size: markSize, on: page)
            HPDF_Page_TextOut(page, Float(mark.x), Float(mark.y), "x")
        }
        HPDF_Page_EndText(page)

        HPDF_Page_SetLineWidth(page, 0.5)
        for box in layout.boxes {
            HPDF_Page_Rectangle(page, Float(box.x), Float(box.y), Float(box.size), Float(box.size))
        }
        HPDF_Page_Stroke(page)
        drawRules(form.rules ?? [], on: page)

        var secondPage: HPDF_Page?
        for placement in form.qrCodes {
            if placement.page == 1 {
                drawQR(qr, placement, on: page)
            } else {
                if secondPage == nil {
                    secondPage = HPDF_AddPage(pdf)
                    HPDF_Page_SetWidth(secondPage, Float(form.page.width))
                    HPDF_Page_SetHeight(secondPage, Float(form.page.height))
                }
                drawQR(qr, placement, on: secondPage)
            }
        }
        try document.check()
        return try document.bytes()
    }

    /// The QR code alone, black on white with a quiet zone of 4 modules, about `size` pixels
    /// wide (whole pixels per module, so the result is at most `size` and never blurred).
    public func qrPNG(_ attestation: Attestation, size: Int = 400) throws(RenderingError) -> [UInt8] {
        guard Self.pngSizes.contains(size) else { throw .pngSize(size, Self.pngSizes) }
        let qr = try QRMatrix(encoding: QRPayload(attestation).bytes)
        let quiet = 4
        let modules = qr.width + 2 * quiet
        let scale = max(1, size / modules)
        let side = modules * scale
        var pixels = [UInt8](repeating: 0xFF, count: side * side)
        for row in 0..<qr.width {
            for column in 0..<qr.width where qr.isDark(row: row, column: column) {
                let top = (row + quiet) * scale, left = (column + quiet) * scale
                for y in top..<top + scale {
                    pixels.withUnsafeMutableBufferPointer { buffer in
                        let start = y * side + left
                        buffer[start..<start + scale].update(repeating: 0)
                    }
                }
            }
        }
        return try PNGImage.encode(gray: pixels, width: side, height: side)
    }

    private func values(_ attestation: Attestation) -> [(FieldSlot, String)] {
        let fields = attestation.form.fields
        let person = attestation.identity
        let exit = attestation.exitLocal
        return [
            (fields.name, person.fullName),
            (fields.birthDate, person.birthDate.description),
            (fields.birthPlace, person.birthPlace),
            (fields.address, person.fullAddress),
            (fields.city, person.city),
            (fields.exitDate, exit.date.description),
            (fields.exitTime, exit.time),
        ]
    }

    private func setMetadata(_ pdf: HPDF_Doc, _ attestation: Attestation) {
        let metadata = attestation.form.metadata
        // PDFDocEncoding, which these strings are written in, agrees with CP1252 on French letters.
        func set(_ type: HPDF_InfoType, _ text: String) {
            guard let bytes = WinAnsi.encode(text) else { return }
            HPDF_SetInfoAttr(pdf, type, bytes.map { CChar(bitPattern: $0) } + [0])
        }
        set(HPDF_INFO_TITLE, metadata.title)
        set(HPDF_INFO_SUBJECT, metadata.subject)
        set(HPDF_INFO_KEYWORDS, metadata.keywords)
        set(HPDF_INFO_AUTHOR, Self.producer)
        set(HPDF_INFO_CREATOR, Self.producer)
        set(HPDF_INFO_PRODUCER, Self.producer)

        let created = attestation.createdLocal
        let offset = attestation.timeZone.secondsFromGMT(for: attestation.created) / 60
        var date = HPDF_Date()
        date.year = Int32(created.date.year)
        date.month = Int32(created.date.month)
        date.day = Int32(created.date.day)
        date.hour = Int32(created.hour)
        date.minutes = Int32(created.minute)
        date.seconds = 0
        date.ind = CChar(UInt8(ascii: offset == 0 ? "Z" : offset > 0 ? "+" : "-"))
        date.off_hour = Int32(abs(offset) / 60)
        date.off_minutes = Int32(abs(offset) % 60)
        HPDF_SetInfoDateAttr(pdf, HPDF_INFO_CREATION_DATE, date)
    }

    /// Who made the file: this project, never the Ministry.
    static let producer = "attestation-links (générateur auto-hébergé, non officiel)"

    private func drawRules(_ rules: [Rule], on page: HPDF_Page) {
        guard !rules.isEmpty else { return }
        HPDF_Page_SetLineWidth(page, 0.6)
        for rule in rules {
            if let dash = rule.dash, !dash.isEmpty {
                let pattern = dash.map { HPDF_UINT16(clamping: max(1, $0)) }
                HPDF_Page_SetDash(page, pattern, HPDF_UINT(pattern.count), 0)
            } else {
                HPDF_Page_SetDash(page, nil, 0, 0)
            }
            HPDF_Page_MoveTo(page, Float(rule.x), Float(rule.y))
            HPDF_Page_LineTo(page, Float(rule.x + rule.length), Float(rule.y))
            HPDF_Page_Stroke(page)
        }
        HPDF_Page_SetDash(page, nil, 0, 0)
    }

    /// The code in module units (one unit a module, y down from the top, quiet zone of one
    /// module included in the placement's size), merged into few rectangles, filled at once.
    private func drawQR(_ qr: QRMatrix, _ placement: QRPlacement, on page: HPDF_Page?) {
        let quiet = 1
        let scale = placement.size / Double(qr.width + 2 * quiet)
        HPDF_Page_GSave(page)
        HPDF_Page_Concat(page, Float(scale), 0, 0, Float(-scale),
                         Float(placement.x + Double(quiet) * scale),
                         Float(placement.y + placement.size - Double(quiet) * scale))
        for rect in qr.rectangles() {
            HPDF_Page_Rectangle(page, Float(rect.x), Float(rect.y), Float(rect.width), Float(rect.height))
        }
        HPDF_Page_Fill(page)
        HPDF_Page_GRestore(page)
    }
}

/// The fonts of one document, created on first use, and the one currently selected.
struct PageFonts {
    private let document: HaruDocument
    private let unicodeFontPath: String
    private var standard: [FontStyle: HPDF_Font] = [:]
    private(set) var unicode: HPDF_Font?
    private var current: (font: HPDF_Font, size: Double)?

    init(document: HaruDocument, unicodeFontPath: String) throws(RenderingError) {
        self.document = document
        self.unicodeFontPath = unicodeFontPath
    }

    mutating func standardFont(_ style: FontStyle) throws(RenderingError) -> HPDF_Font {
        if let font = standard[style] { return font }
        let font = try document.standardFont(style)
        standard[style] = font
        return font
    }

    mutating func unicodeFont() throws(RenderingError) -> HPDF_Font {
        if let unicode { return unicode }
        let font = try document.unicodeFont(path: unicodeFontPath)
        unicode = font
        return font
    }

    mutating func select(_ style: FontStyle, size: Double, on page: HPDF_Page) throws(RenderingError) {
        select(try standardFont(style), size: size, on: page)
    }

    /// Skips the operator when nothing changes: fewer operators, smaller and faster PDF.
    mutating func select(_ font: HPDF_Font, size: Double, on page: HPDF_Page) {
        if let current, current.font == font, current.size == size { return }
        HPDF_Page_SetFontAndSize(page, font, Float(size))
        current = (font, size)
    }
}

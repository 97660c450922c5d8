import AttestationKit
import CHaru
import FormSchema

/// One libharu document, freed when the last reference goes, whatever path leaves the scope.
/// Through libharu's public API (hpdf.h); the few internals are in HaruInternals.swift.
final class HaruDocument {
    let handle: HPDF_Doc

    init() throws(RenderingError) {
        // No error handler: libharu records the first error, which `check()` turns into a
        // Swift error (a handler could not unwind C frames anyway).
        guard let handle = HPDF_New(nil, nil) else { throw .documentNotCreated }
        self.handle = handle
        // libharu compresses nothing (HPDF_COMP_NONE, its default): what a document writes in
        // its pages' own content (its values, the QR code's placement) is a few hundred bytes,
        // whose deflate cost more than the bytes it saved; the streams worth deflating (the
        // form's fixed content, once at start-up; the Unicode font; the QR code's image) are
        // deflated by Rendering itself (HaruInternals.swift).
    }

    deinit { HPDF_Free(handle) }

    /// A new last page of the given size, in points.
    func addPage(width: Double, height: Double) throws(RenderingError) -> HPDF_Page {
        guard let page = HPDF_AddPage(handle) else { throw error("HPDF_AddPage") }
        // libharu checks the size (3 to 14,400 points) and records its refusal.
        guard HPDF_Page_SetWidth(page, Float(width)) == HPDF_OK, HPDF_Page_SetHeight(page, Float(height)) == HPDF_OK
        else {
            throw error("HPDF_Page_SetWidth")
        }
        return page
    }

    /// One of the 14 standard fonts, nothing embedded: in WinAnsiEncoding, but Symbol and
    /// ZapfDingbats in their own (libharu's FontSpecific, when no encoding is named). A form's
    /// own font is embedded by Rendering, as prepared when the form loaded (`PreparedFont`).
    func standardFont(_ font: TextFont) throws(RenderingError) -> HPDF_Font {
        precondition(font.isStandard, "a form's own font is embedded from its PreparedFont")
        guard let handle = HPDF_GetFont(handle, font.rawValue, font.usesWinAnsi ? "WinAnsiEncoding" : nil) else {
            throw error("HPDF_GetFont")
        }
        return handle
    }

    /// Adds `stream` to the page's content, after what the page drew so far; what the page
    /// draws next goes into a new stream after it.
    func insert(_ stream: HPDF_Dict, on page: HPDF_Page) throws(RenderingError) {
        guard HPDF_Page_Insert_Shared_Content_Stream(page, stream) == HPDF_OK else {
            throw error("HPDF_Page_Insert_Shared_Content_Stream")
        }
    }

    func check() throws(RenderingError) {
        let code = HPDF_GetError(handle)
        if code != HPDF_OK { throw .pdf(code: UInt(code)) }
    }

    /// The whole file, copied out of libharu's memory stream (`savedBytes`, HaruInternals.swift).
    func bytes() throws(RenderingError) -> [UInt8] {
        guard HPDF_SaveToStream(handle) == HPDF_OK else { throw error("HPDF_SaveToStream") }
        let expected = Int(HPDF_GetStreamSize(handle))
        let result = try savedBytes(count: expected)
        guard result.count == expected else { throw .incompleteOutput(expected: expected, read: result.count) }
        return result
    }

    /// libharu's first recorded error, or, when it recorded none, the function that failed.
    func error(_ function: String) -> RenderingError {
        let code = HPDF_GetError(handle)
        return code == HPDF_OK ? .pdfCallFailed(function) : .pdf(code: UInt(code))
    }
}

/// The width of text in a font, in points.
func textWidth(_ bytes: [UInt8], font: HPDF_Font, size: Double) -> Double {
    let width = bytes.withUnsafeBufferPointer { HPDF_Font_TextWidth(font, $0.baseAddress, HPDF_UINT($0.count)) }
    return Double(width.width) * size / 1000
}

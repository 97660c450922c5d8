import CHaru

/// One line of text in DejaVu Sans the way the renderer drew it before it embedded subsets:
/// libharu's UTF-8 encoder and its embedding of the whole TrueType file. Not used to render: the
/// tests draw it to check, pixel for pixel, that the subsets HarfBuzz makes keep DejaVu's own
/// glyphs (RenderingTests' UnicodeFontTests), and libharu is only called from this module.
enum WholeFontLine {
    static func pdf(
        _ text: String, x: Double, y: Double, size: Double, width: Double, height: Double,
        fontPath: String = AttestationRenderer.defaultUnicodeFontPath
    ) throws(RenderingError) -> [UInt8] {
        let document = try HaruDocument()
        let pdf = document.handle
        HPDF_SetCompressionMode(pdf, UInt32(HPDF_COMP_ALL))
        guard HPDF_UseUTFEncodings(pdf) == HPDF_OK, let name = HPDF_LoadTTFontFromFile(pdf, fontPath, HPDF_TRUE),
            let font = HPDF_GetFont(pdf, name, "UTF-8"), let page = HPDF_AddPage(pdf)
        else {
            try document.check()
            throw .pdfCallFailed("HPDF_LoadTTFontFromFile")
        }
        HPDF_Page_SetWidth(page, Float(width))
        HPDF_Page_SetHeight(page, Float(height))
        HPDF_Page_BeginText(page)
        HPDF_Page_SetFontAndSize(page, font, Float(size))
        HPDF_Page_TextOut(page, Float(x), Float(y), text)
        HPDF_Page_EndText(page)
        try document.check()
        return try document.bytes()
    }
}

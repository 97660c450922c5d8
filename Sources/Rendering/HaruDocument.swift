import AttestationKit
import CHaru

/// One libharu document, freed when the last reference goes, whatever path leaves the scope.
final class HaruDocument {
    let handle: HPDF_Doc

    init() throws(RenderingError) {
        // No error handler: libharu records the first error, which `check()` turns into a
        // Swift error (a handler could not unwind C frames anyway).
        guard let handle = HPDF_New(nil, nil) else { throw .documentNotCreated }
        self.handle = handle
        // Page contents and metadata deflated, images too: a 1-bit image is then CCITT G4.
        guard HPDF_SetCompressionMode(handle, UInt32(HPDF_COMP_ALL)) == HPDF_OK else {
            throw error("HPDF_SetCompressionMode")
        }
    }

    deinit { HPDF_Free(handle) }

    /// A new last page of the given size, in points.
    func addPage(width: Double, height: Double) throws(RenderingError) -> HPDF_Page {
        guard let page = HPDF_AddPage(handle) else { throw error("HPDF_AddPage") }
        // libharu checks the size (3 to 14,400 points) and records its refusal.
        guard HPDF_Page_SetWidth(page, Float(width)) == HPDF_OK, HPDF_Page_SetHeight(page, Float(height)) == HPDF_OK else {
            throw error("HPDF_Page_SetWidth")
        }
        return page
    }

    /// One of the 14 standard fonts in WinAnsiEncoding: nothing embedded.
    func standardFont(_ style: FontStyle) throws(RenderingError) -> HPDF_Font {
        let name = switch style {
        case .regular: "Helvetica"
        case .bold: "Helvetica-Bold"
        case .italic: "Helvetica-Oblique"
        }
        guard let font = HPDF_GetFont(handle, name, "WinAnsiEncoding") else { throw error("HPDF_GetFont") }
        return font
    }

    /// Asks readers not to smooth the image when they enlarge it, so a QR code's modules keep
    /// sharp edges. Interpolation is off by default in PDF, but some readers (pdf.js) smooth
    /// enlarged images unless the entry says false explicitly. hpdf.h has no setter: the
    /// image's dictionary is written through hpdf_objects.h.
    func disableInterpolation(_ image: HPDF_Image) throws(RenderingError) {
        guard HPDF_Dict_AddBoolean(image, "Interpolate", HPDF_FALSE) == HPDF_OK else { throw error("HPDF_Dict_AddBoolean") }
    }

    /// An empty dictionary, an indirect object of the document (freed with it).
    func indirectDictionary() throws(RenderingError) -> HPDF_Dict {
        // Xref_Add frees the object itself when it fails.
        guard let dict = HPDF_Dict_New(handle.pointee.mmgr), HPDF_Xref_Add(handle.pointee.xref, dict) == HPDF_OK else {
            throw error("HPDF_Xref_Add")
        }
        return dict
    }

    /// A stream of `bytes`, deflated when the document is saved.
    func stream(_ bytes: [UInt8]) throws(RenderingError) -> HPDF_Dict {
        guard let stream = HPDF_DictStream_New(handle.pointee.mmgr, handle.pointee.xref) else { throw error("HPDF_DictStream_New") }
        stream.pointee.filter = UInt32(HPDF_STREAM_FILTER_FLATE_DECODE)
        let status = bytes.withUnsafeBufferPointer {
            HPDF_Stream_Write(stream.pointee.stream, $0.baseAddress, HPDF_UINT($0.count))
        }
        guard status == HPDF_OK else { throw error("HPDF_Stream_Write") }
        return stream
    }

    /// A stream of bytes deflated already, written as they are. libharu drops a /Filter entry
    /// from streams it does not compress itself, so the entry is written by the dictionary's
    /// write hook, which libharu calls after the other entries.
    func deflatedContent(_ deflated: [UInt8]) throws(RenderingError) -> HPDF_Dict {
        guard let stream = HPDF_DictStream_New(handle.pointee.mmgr, handle.pointee.xref) else { throw error("HPDF_DictStream_New") }
        stream.pointee.filter = UInt32(HPDF_STREAM_FILTER_NONE)
        stream.pointee.write_fn = { _, output in HPDF_Stream_WriteStr(output, "/Filter /FlateDecode\n") }
        let status = deflated.withUnsafeBufferPointer {
            HPDF_Stream_Write(stream.pointee.stream, $0.baseAddress, HPDF_UINT($0.count))
        }
        guard status == HPDF_OK else { throw error("HPDF_Stream_Write") }
        return stream
    }

    /// Makes the page's /Contents an array: `leading` streams, its own stream, then `trailing`
    /// ones. PDF reads the streams of the array as one, so an operator sequence may continue
    /// across them.
    func arrangeContents(of page: HPDF_Page, leading: [HPDF_Dict] = [], trailing: [HPDF_Dict]) throws(RenderingError) {
        let attributes = page.pointee.attr.assumingMemoryBound(to: _HPDF_PageAttr_Rec.self)
        guard let contents = HPDF_Array_New(handle.pointee.mmgr),
              HPDF_Dict_Add(page, "Contents", contents) == HPDF_OK else { throw error("HPDF_Dict_Add") }
        for stream in leading + [attributes.pointee.contents] + trailing {
            guard HPDF_Array_Add(contents, stream) == HPDF_OK else { throw error("HPDF_Array_Add") }
        }
    }

    func check() throws(RenderingError) {
        let code = HPDF_GetError(handle)
        if code != HPDF_OK { throw .pdf(code: UInt(code)) }
    }

    /// The whole file.
    func bytes() throws(RenderingError) -> [UInt8] {
        guard HPDF_SaveToStream(handle) == HPDF_OK else { throw error("HPDF_SaveToStream") }
        var size = HPDF_GetStreamSize(handle)
        let result = [UInt8](unsafeUninitializedCapacity: Int(size)) { buffer, count in
            count = HPDF_ReadFromStream(handle, buffer.baseAddress, &size) == HPDF_OK ? Int(size) : 0
        }
        // ReadFromStream answers HPDF_STREAM_EOF once everything is read: not an error.
        HPDF_ResetError(handle)
        let expected = Int(HPDF_GetStreamSize(handle))
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

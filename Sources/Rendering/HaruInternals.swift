import CHaru

// The only places Rendering goes past libharu's public API (the functions hpdf.h declares),
// each for a reason measured or stated where it is used. Everything else (document, pages,
// standard fonts, text, the QR image, metadata, saving) goes through hpdf.h. libharu 2.3's
// hpdf.h declares these internals too (through hpdf_doc.h, unless HPDF_SHARED), and
// libhpdf-2.3.0.so exports them; the structures' layouts come from the installed headers.
//
// 1. The fixed part of a form (text, boxes, rules) is laid out once at start-up into
//    content-stream bytes and deflated once; a document inserts those bytes as a stream of
//    its own (HPDF_Page_Insert_Shared_Content_Stream, public). Writing them needs a stream
//    libharu neither fills nor compresses, and the page's resource names of the standard
//    fonts that the bytes use. Measured: drawing the same lines, boxes and rules through
//    hpdf.h's operators in every document, deflated by libharu, costs 3,515,738 instructions
//    per PDF of form 2020-11-28 instead of 2,681,752, and 4,003,301 instead of 2,921,133 for
//    2020-11-02 (Benchmarks/callgrind-per-render 200).
// 2. The embedded Unicode font (EmbeddedFont.swift): libharu's own TrueType path cannot
//    embed a subset built elsewhere, and its text operators cannot use a font it did not
//    build, so the font's dictionaries, its selection and its text are written here
//    (libharu's own path measured in `HaruDocument.embed`: 137 million instructions a PDF).
// 3. The QR code's image (QRCodeImage.swift): hpdf.h's only 1-bit image always CCITT-encodes,
//    which cost a quarter of a PDF's instructions, and has no setter for /Interpolate false.
// 4. The saved file (`savedBytes`) is copied out of the document's memory stream buffer by
//    buffer (HPDF_MemStream_GetBufPtr, its blocks as libharu filled them) instead of through
//    HPDF_ReadFromStream, whose byte-by-byte HPDF_MemCpy was a quarter of libharu's copies of a
//    drawn version's 70 KB (see 5).
// 5. A form's own fonts and pictures (PreparedFont.swift, FormPicture.swift): subset, decoded
//    and deflated once when the form loads, their bytes copied into each document's streams.
//    hpdf.h's loaders (HPDF_LoadTTFontFromFile, HPDF_LoadPngImageFromMem,
//    HPDF_LoadRawImageFromMem) parse the file and deflate again in every document: a PDF of
//    9 June 2021 cost 232.7 M instructions through the server, 57 % of them in zlib, against
//    4.1 M for one of 28 November 2020 (issue 37; docs/performance.md has the counts since).

extension HaruDocument {
    /// The page's resource name ("F1", …) for a font, added to the page's resources.
    /// Internal (hpdf_pages.h): the public API names a font only when it writes `Tf` itself.
    func localFontName(_ font: HPDF_Font, on page: HPDF_Page) throws(RenderingError) -> String {
        guard let name = HPDF_Page_GetLocalFontName(page, font) else { throw error("HPDF_Page_GetLocalFontName") }
        return String(cString: name)
    }

    /// A stream written as it is, its bytes deflated already (FlateDecode) or stored: the fixed
    /// part of a form, compressed once at start-up instead of by libharu in every document;
    /// the Unicode font's streams and the QR code's image, deflated at a faster level than
    /// libharu's; the offline template's image, stored so that the page can rewrite its bits.
    ///
    /// libharu has no public way to fill a stream with bytes, and drops a /Filter entry from
    /// the streams it does not compress itself: the entry is written by the dictionary's
    /// write hook, which libharu calls after the other entries.
    func stream(_ bytes: [UInt8], deflated: Bool) throws(RenderingError) -> HPDF_Dict {
        guard let stream = HPDF_DictStream_New(handle.pointee.mmgr, handle.pointee.xref) else {
            throw error("HPDF_DictStream_New")
        }
        stream.pointee.filter = UInt32(HPDF_STREAM_FILTER_NONE)
        if deflated {
            stream.pointee.write_fn = { _, output in HPDF_Stream_WriteStr(output, "/Filter /FlateDecode\n") }
        }
        try write(bytes, to: stream.pointee.stream)
        return stream
    }

    /// Appends content-stream bytes to the page's current content stream: the text of the
    /// embedded Unicode font, which libharu's text operators cannot write (see 2 above). Only
    /// valid where the bytes leave the graphics state as libharu believes it is (balanced
    /// `q`/`Q`, `BT`/`ET`, no text matrix left set).
    func append(_ content: ContentStream, to page: HPDF_Page) throws(RenderingError) {
        let attributes = page.pointee.attr.assumingMemoryBound(to: _HPDF_PageAttr_Rec.self)
        try write(content.bytes, to: attributes.pointee.stream)
    }

    /// The bytes of the document saved by HPDF_SaveToStream, at most `count`: the document's
    /// stream is private (hpdf_doc.h), its blocks read through hpdf_streams.h.
    func savedBytes(count: Int) throws(RenderingError) -> [UInt8] {
        guard count > 0, let saved = handle.pointee.stream else { throw error("HPDF_SaveToStream") }
        let blocks = HPDF_MemStream_GetBufCount(saved)
        return [UInt8](unsafeUninitializedCapacity: count) { buffer, written in
            written = 0
            for index in 0..<blocks {
                var length: HPDF_UINT = 0
                guard let block = HPDF_MemStream_GetBufPtr(saved, index, &length) else { break }
                let copied = min(Int(length), count - written)
                (buffer.baseAddress! + written).update(from: block, count: copied)
                written += copied
            }
        }
    }

    /// An empty dictionary, an indirect object of the document (freed with it).
    func indirectDictionary() throws(RenderingError) -> HPDF_Dict {
        // Xref_Add frees the object itself when it fails.
        guard let dict = HPDF_Dict_New(handle.pointee.mmgr), HPDF_Xref_Add(handle.pointee.xref, dict) == HPDF_OK else {
            throw error("HPDF_Xref_Add")
        }
        return dict
    }

    /// A new direct dictionary under `key` of `parent`, which owns it from then on.
    func addDictionary(_ key: String, to parent: HPDF_Dict) throws(RenderingError) -> HPDF_Dict {
        // Dict_Add frees the object itself when it fails: no use of it after a failure.
        guard let dict = HPDF_Dict_New(handle.pointee.mmgr), HPDF_Dict_Add(parent, key, dict) == HPDF_OK else {
            throw error("HPDF_Dict_Add")
        }
        return dict
    }

    /// A new array under `key` of `parent`, which owns it from then on.
    func addArray(_ key: String, to parent: HPDF_Dict) throws(RenderingError) -> HPDF_Array {
        guard let array = HPDF_Array_New(handle.pointee.mmgr), HPDF_Dict_Add(parent, key, array) == HPDF_OK else {
            throw error("HPDF_Dict_Add")
        }
        return array
    }

    /// A new array at the end of `parent`, which owns it from then on.
    func appendArray(to parent: HPDF_Array) throws(RenderingError) -> HPDF_Array {
        guard let array = HPDF_Array_New(handle.pointee.mmgr), HPDF_Array_Add(parent, array) == HPDF_OK else {
            throw error("HPDF_Array_Add")
        }
        return array
    }

    /// A text string under `key` of `parent`.
    func addString(_ key: String, _ text: String, to parent: HPDF_Dict) throws(RenderingError) {
        guard let string = HPDF_String_New(handle.pointee.mmgr, text, nil),
            HPDF_Dict_Add(parent, key, string) == HPDF_OK
        else {
            throw error("HPDF_Dict_Add")
        }
    }

    /// A stream of `bytes` stored as they are, for the few bytes deflate would not shrink.
    func storedStream(_ bytes: [UInt8]) throws(RenderingError) -> HPDF_Dict {
        guard let stream = HPDF_DictStream_New(handle.pointee.mmgr, handle.pointee.xref) else {
            throw error("HPDF_DictStream_New")
        }
        stream.pointee.filter = UInt32(HPDF_STREAM_FILTER_NONE)
        try write(bytes, to: stream.pointee.stream)
        return stream
    }

    private func write(_ bytes: [UInt8], to stream: HPDF_Stream) throws(RenderingError) {
        let status = bytes.withUnsafeBufferPointer { HPDF_Stream_Write(stream, $0.baseAddress, HPDF_UINT($0.count)) }
        guard status == HPDF_OK else { throw .pdf(code: UInt(status)) }
    }

    /// An image XObject of `bytes` (deflated already, or stored), `bits` a component, which the
    /// page operators of hpdf.h (HPDF_Page_DrawImage) and HPDF_Image_AddSMask accept as theirs.
    func image(
        _ bytes: [UInt8], deflated: Bool, width: Int, height: Int, colourSpace: String, bits: Int
    ) throws(RenderingError) -> HPDF_Image {
        let image = try stream(bytes, deflated: deflated)
        image.pointee.header.obj_class |= UInt16(HPDF_OSUBCLASS_XOBJECT)
        var status = HPDF_Dict_AddName(image, "Type", "XObject")
        status |= HPDF_Dict_AddName(image, "Subtype", "Image")
        status |= HPDF_Dict_AddNumber(image, "Width", HPDF_INT(width))
        status |= HPDF_Dict_AddNumber(image, "Height", HPDF_INT(height))
        status |= HPDF_Dict_AddName(image, "ColorSpace", colourSpace)
        status |= HPDF_Dict_AddNumber(image, "BitsPerComponent", HPDF_INT(bits))
        guard status == HPDF_OK else { throw error("HPDF_Dict_AddName") }
        return image
    }

    /// Asks readers not to smooth the image when they enlarge it, so a QR code's modules keep
    /// sharp edges. Interpolation is off by default in PDF, but some readers (pdf.js) smooth
    /// enlarged images unless the entry says false. hpdf.h has no setter (see 3 above).
    func disableInterpolation(_ image: HPDF_Image) throws(RenderingError) {
        guard HPDF_Dict_AddBoolean(image, "Interpolate", HPDF_FALSE) == HPDF_OK else {
            throw error("HPDF_Dict_AddBoolean")
        }
    }
}

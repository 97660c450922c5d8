import CHaru

/// The libharu release Rendering may run on. HaruInternals.swift goes past hpdf.h into
/// structures whose layouts were checked against libharu 2.3.0 only: the shim refuses to compile
/// against other headers, and this refuses a library loaded at run time that is not the release
/// of the headers (a libhpdf built by hand, or a binary copied to another system), which would
/// otherwise be read and written at the wrong offsets.
enum HaruVersion {
    /// The release of the headers the layouts were checked against.
    static let checked = String(cString: charu_checked_version())

    /// The release of the libharu loaded now.
    static var loaded: String { HPDF_GetVersion().map { String(cString: $0) } ?? "inconnue" }

    /// Throws unless `loaded` is the release the layouts were checked against.
    static func check(loaded: String = HaruVersion.loaded) throws(RenderingError) {
        guard loaded == checked else { throw .unsupportedLibharu(loaded: loaded, checked: checked) }
    }
}

extension AttestationRenderer {
    /// Refuses to draw with C libraries whose private layouts Rendering was not checked against
    /// (see `HaruVersion`). Checked again by every renderer's `init`; programs call it first to
    /// say so before anything else.
    public static func checkLibraries() throws(RenderingError) {
        try HaruVersion.check()
    }
}

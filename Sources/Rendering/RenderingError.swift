/// Why a document could not be produced; `description` is the French message.
public enum RenderingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The form cannot be drawn as defined (text outside WinAnsi, reasons that overlap).
    case layout(form: String, String)
    /// The renderer was made without the attestation's form (a programming error).
    case formNotGiven(String)
    /// libharu reported an error: its own code (hpdf_error.h), never one made up here.
    case pdf(code: UInt)
    /// A libharu call failed without recording an error code; the function's name.
    case pdfCallFailed(String)
    /// libharu could not even create a document (`HPDF_New`: out of memory).
    case documentNotCreated
    /// libharu named the standard fonts of a page otherwise than the prepared page content
    /// expects (`F1`, `F2`, …): the content would draw with the wrong fonts.
    case unexpectedFontNames
    /// zlib refused to compress (its status code, zlib.h).
    case compressionFailed(Int32)
    /// The finished PDF read back from libharu is shorter than libharu said it was.
    case incompleteOutput(expected: Int, read: Int)
    /// The Unicode font for names outside WinAnsi is missing, unreadable or not a TrueType font.
    case unicodeFont(path: String)
    /// HarfBuzz could not subset the Unicode font for the characters of a document.
    case fontSubsetFailed
    case qrCodeTooLarge(Int)
    /// libqrencode failed for another reason than the size (its errno: ENOMEM…).
    case qrEncodingFailed(errno: Int32)
    case png
    case pngSize(Int, ClosedRange<Int>)
    /// A font of the page images is missing or unreadable: its path, and the Debian package
    /// that installs it.
    case rasterFont(path: String, package: String)
    /// cairo failed: the function, or cairo's own description of its error.
    case raster(String)
    /// A page image at a resolution outside the accepted range.
    case pageDPI(Int, ClosedRange<Int>)
    /// A page the attestation does not have: the number asked, and how many it has.
    case pageNumber(Int, pages: Int)
    /// The libharu loaded is not the release whose private structures Rendering uses
    /// (`HaruVersion`).
    case unsupportedLibharu(loaded: String, checked: String)

    public var description: String {
        switch self {
        case .layout(let form, let message):
            return "formulaire \(form) : \(message)"
        case .formNotGiven(let id):
            return "le formulaire \(id) n’a pas été préparé pour le rendu."
        case .pdf(let code):
            return "erreur interne de génération PDF (libharu 0x\(String(code, radix: 16)))."
        case .pdfCallFailed(let function):
            return "erreur interne de génération PDF (\(function) a échoué sans code d’erreur libharu)."
        case .documentNotCreated:
            return "erreur interne de génération PDF (libharu n’a pas pu créer le document : mémoire insuffisante)."
        case .unexpectedFontNames:
            return "erreur interne de génération PDF (noms des polices standard inattendus)."
        case .compressionFailed(let status):
            return "erreur interne de génération PDF (compression zlib, code \(status))."
        case .incompleteOutput(let expected, let read):
            return "erreur interne de génération PDF (document incomplet : \(read) octets lus sur \(expected))."
        case .unicodeFont(let path):
            return "police Unicode introuvable, illisible ou non TrueType : \(path) (paquet fonts-dejavu-core)."
        case .fontSubsetFailed:
            return "erreur interne de génération PDF (sous-ensemble de la police Unicode impossible, HarfBuzz)."
        case .qrCodeTooLarge(let count):
            return "données trop longues pour un QR code (\(count) octets)."
        case .qrEncodingFailed(let errno):
            return "erreur interne de génération du QR code (libqrencode, errno \(errno))."
        case .png:
            return "erreur interne de génération PNG."
        case .pngSize(let size, let range):
            return "taille de PNG invalide (\(size)) ; de \(range.lowerBound) à \(range.upperBound) pixels."
        case .rasterFont(let path, let package):
            return "police de l’image introuvable ou illisible : \(path) (paquet \(package))."
        case .raster(let detail):
            return "erreur interne de génération de l’image (cairo : \(detail))."
        case .pageDPI(let dpi, let range):
            return "résolution invalide (\(dpi)) ; de \(range.lowerBound) à \(range.upperBound) points par pouce."
        case .pageNumber(let page, let pages):
            return pages == 1
                ? "page \(page) inexistante ; cette attestation n’a qu’une page (1)."
                : "page \(page) inexistante ; de 1 à \(pages)."
        case .unsupportedLibharu(let loaded, let checked):
            return "libharu \(loaded) chargée, mais ce programme n’a été vérifié qu’avec libharu \(checked) "
                + "(paquet libhpdf-\(checked) de Debian 12 ou 13) : il refuse de produire des PDF avec une autre version."
        }
    }
}

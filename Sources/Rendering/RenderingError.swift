/// Why a document could not be produced; `description` is the French message.
public enum RenderingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The form cannot be drawn as defined (text outside WinAnsi, reasons that overlap).
    case layout(form: String, String)
    /// libharu reported an error (its code, see hpdf_error.h).
    case pdf(code: UInt)
    /// The Unicode font for names outside WinAnsi is missing, unreadable or not a TrueType font.
    case unicodeFont(path: String)
    case qrCodeTooLarge(Int)
    case png
    case pngSize(Int, ClosedRange<Int>)

    public var description: String {
        switch self {
        case .layout(let form, let message):
            return "formulaire \(form) : \(message)"
        case .pdf(let code):
            return "erreur interne de génération PDF (libharu 0x\(String(code, radix: 16)))."
        case .unicodeFont(let path):
            return "police Unicode introuvable, illisible ou non TrueType : \(path) (paquet fonts-dejavu-core)."
        case .qrCodeTooLarge(let count):
            return "données trop longues pour un QR code (\(count) octets)."
        case .png:
            return "erreur interne de génération PNG."
        case .pngSize(let size, let range):
            return "taille de PNG invalide (\(size)) ; de \(range.lowerBound) à \(range.upperBound) pixels."
        }
    }
}

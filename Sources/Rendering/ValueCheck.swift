import AttestationKit
import FormSchema

/// Whether a form can write a person's values, checked where they enter (`mint`, its CSV,
/// `render`): every character drawn by the fonts the document writes it with, and every value
/// left non-empty in the QR code. The renderer itself draws whatever a link holds (a character
/// no font has as the font's empty box, .notdef), so the links minted before stay served.
///
/// The fonts are the renderer's (`FieldText`): a slot whose text Windows-1252 writes whole is
/// drawn in its standard font, which has every character of that encoding (the form's load
/// checks refuse Symbol and ZapfDingbats for values); any other is drawn whole with the Unicode
/// font, so each of its characters must be in that font's `cmap`.
public struct ValueCheck: Sendable {
    private let unicodeFont: UnicodeFontSource

    /// - Parameter unicodeFontPath: the Unicode font the documents will be drawn with (the
    ///   server's is the default).
    public init(unicodeFontPath: String = AttestationRenderer.defaultUnicodeFontPath) {
        unicodeFont = UnicodeFontSource(path: unicodeFontPath)
    }

    /// The first problem of `identity` on `form`: a character its PDF cannot draw, else a value
    /// its QR code would leave empty; nil when every value is written whole. Throws when the
    /// Unicode font, needed for a value outside Windows-1252, cannot be read.
    public func problem(with identity: Identity, on form: Form) throws(RenderingError) -> IdentityError? {
        let values = Dictionary(
            uniqueKeysWithValues: FieldValues.identityPlaceholders.map { ($0.key, identity.text(of: $0.value)) })
        for slot in form.fields {
            let fields = FieldValues.placeholderNames(in: slot.value).compactMap {
                FieldValues.identityPlaceholders[$0]
            }
            guard fields.contains(where: Identity.textFields.contains),
                WinAnsi.encode(FieldValues.fill(slot.value, with: values)) == nil
            else { continue }
            let font = try unicodeFont.load()
            for field in fields {
                if let missing = identity.text(of: field).unicodeScalars.first(where: { font.glyph(for: $0) == 0 }) {
                    return IdentityError(field: field, problem: .notDrawable(missing, form: form.id))
                }
            }
        }
        return QRPayload.emptyValue(of: identity, in: form.attestationRules)
    }
}

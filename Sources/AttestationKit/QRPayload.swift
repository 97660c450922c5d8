/// The text of the attestation's QR code, in its form's format: every free-text value folded to
/// ASCII as the official generator did from November 2020 (so any scanner of the time reads
/// it), or as typed for the forms before that (`qrPayload.asciiFolding` off; a value outside
/// Windows-1252 is folded all the same).
public struct QRPayload: Sendable, Hashable, CustomStringConvertible {
    public let text: String

    public init(_ attestation: Attestation) {
        let format = attestation.form.qrPayload
        // Unfolded, a value is as typed when Windows-1252 writes it (the 2020 generators drew
        // nothing else, and each character is then at most 3 bytes, within
        // `Identity.maximumQRBytes`), and folded otherwise.
        let values = FieldValues.values(attestation, transform: format.asciiFolding
            ? ASCIIFolding.fold : { WinAnsiText.encode($0) == nil ? ASCIIFolding.fold($0) : $0 })
        let lines = format.lines.map { FieldValues.fill($0, with: values) }
        text = lines.joined(separator: format.separator) + (format.trailingSeparator ? format.separator : "")
    }

    public var description: String { text }

    /// The UTF-8 bytes to encode (pure ASCII when the form folds the values).
    public var bytes: [UInt8] { Array(text.utf8) }
}

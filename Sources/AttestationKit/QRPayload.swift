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
        let values = Self.values(attestation)
        let lines = format.lines.map { FieldValues.fill($0, with: values) }
        text = lines.joined(separator: format.separator) + (format.trailingSeparator ? format.separator : "")
    }

    private static func values(_ attestation: Attestation) -> [String: String] {
        FieldValues.values(attestation) { written($0, in: attestation.form) }
    }

    /// A free-text value as `form`'s QR code writes it.
    public static func written(_ value: String, in form: FormRules) -> String {
        form.qrPayload.asciiFolding || WinAnsiText.encode(value) == nil ? ASCIIFolding.fold(value) : value
    }

    /// The first value of `identity` that `form`'s QR code would leave empty (nothing but
    /// spaces once folded to Latin letters: `Prenom: ;` for `😀😀`), naming its first character
    /// that has no Latin form.
    public static func emptyValue(of identity: Identity, in form: FormRules) -> IdentityError? {
        let named = Set(
            form.qrPayload.lines.flatMap(FieldValues.names(in:)).compactMap { FieldValues.identityPlaceholders[$0] })
        for field in Identity.textFields where named.contains(field) {
            let value = identity.text(of: field)
            guard written(value, in: form).allSatisfy(\.isWhitespace) else { continue }
            let character =
                value.unicodeScalars.first {
                    !$0.properties.isWhitespace && written(String($0), in: form).allSatisfy(\.isWhitespace)
                } ?? value.unicodeScalars.first!
            return IdentityError(field: field, problem: .emptyInQRCode(character, form: form.id))
        }
        return nil
    }

    /// A piece of the payload: fixed text, or a placeholder left for someone else to fill.
    public enum Segment: Sendable, Hashable {
        case text(String)
        case value(String)
    }

    /// The payload as pieces: every placeholder filled with the attestation's value except those
    /// named in `open`, kept as `.value(name)`. The offline template uses it to hand the page the
    /// person's values already written (folded as here), leaving only dates, times and reasons.
    public static func segments(_ attestation: Attestation, open: Set<String>) -> [Segment] {
        let format = attestation.form.qrPayload
        let values = Self.values(attestation)
        var segments: [Segment] = []
        func add(_ text: some StringProtocol) {
            guard !text.isEmpty else { return }
            if case .text(let previous) = segments.last {
                segments[segments.count - 1] = .text(previous + text)
            } else {
                segments.append(.text(String(text)))
            }
        }
        for (index, line) in format.lines.enumerated() {
            if index > 0 { add(format.separator) }
            var rest = Substring(line)
            while let brace = rest.firstIndex(of: "{"), let close = rest[brace...].firstIndex(of: "}") {
                add(rest[..<brace])
                let name = String(rest[rest.index(after: brace)..<close])
                if open.contains(name) { segments.append(.value(name)) } else { add(values[name] ?? "") }
                rest = rest[rest.index(after: close)...]
            }
            add(rest)
        }
        if format.trailingSeparator { add(format.separator) }
        return segments
    }

    public var description: String { text }

    /// The UTF-8 bytes to encode (pure ASCII when the form folds the values).
    public var bytes: [UInt8] { Array(text.utf8) }
}

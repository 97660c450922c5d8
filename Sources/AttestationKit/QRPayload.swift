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
        FieldValues.values(
            attestation,
            transform: attestation.form.qrPayload.asciiFolding
                ? ASCIIFolding.fold : { WinAnsiText.encode($0) == nil ? ASCIIFolding.fold($0) : $0 })
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

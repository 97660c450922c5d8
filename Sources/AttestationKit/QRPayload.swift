/// The text of the attestation's QR code, in its form's format, every value folded to ASCII
/// as the official generator did (so any scanner of 2020 reads it).
public struct QRPayload: Sendable, Hashable, CustomStringConvertible {
    public let text: String

    public init(_ attestation: Attestation) {
        let format = attestation.form.qrPayload
        let values = Self.values(attestation)
        let lines = format.lines.map { line in
            var result = ""
            var rest = Substring(line)
            while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
                result += rest[..<open]
                let name = String(rest[rest.index(after: open)..<close])
                result += values[name] ?? ""
                rest = rest[rest.index(after: close)...]
            }
            return result + rest
        }
        text = lines.joined(separator: format.separator) + (format.trailingSeparator ? format.separator : "")
    }

    public var description: String { text }

    /// The UTF-8 bytes to encode (pure ASCII, by construction of the values).
    public var bytes: [UInt8] { Array(text.utf8) }

    private static func values(_ attestation: Attestation) -> [String: String] {
        let person = attestation.identity
        let created = attestation.createdLocal
        let exit = attestation.exitLocal
        let fold = ASCIIFolding.fold
        return [
            "creationDate": created.date.description,
            "creationTime": created.time,
            "creationTimeH": created.timeWithH,
            "lastName": fold(person.lastName),
            "firstName": fold(person.firstName),
            "birthDate": person.birthDate.description,
            "birthPlace": fold(person.birthPlace),
            "address": fold(person.address),
            "zipCode": person.zipCode,
            "city": fold(person.city),
            "exitDate": exit.date.description,
            "exitTime": exit.time,
            "exitTimeH": exit.timeWithH,
            "reasons": attestation.reasons.map(\.code).joined(separator: ", "),
        ]
    }
}

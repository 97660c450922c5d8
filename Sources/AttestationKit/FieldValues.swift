import Foundation

/// The placeholders of a form's fields and QR payload, and what each prints.
///
/// | placeholder | prints |
/// | --- | --- |
/// | `{firstName}` `{lastName}` `{birthPlace}` `{address}` `{city}` | the value as typed |
/// | `{zipCode}` | `75001` |
/// | `{birthDate}` `{creationDate}` `{exitDate}` | `28/11/2020` |
/// | `{creationTime}` `{exitTime}` | `08:15` |
/// | `{creationTimeH}` `{exitTimeH}` | `08h15` |
/// | `{reasons}` | the chosen codes in form order, joined by ", " |
///
/// On the page every value keeps its exact spelling; in the QR code the free-text values are
/// folded to ASCII when the form's `qrPayload.asciiFolding` is on (the default).
public enum FieldValues {
    public static let placeholders: Set<String> = [
        "creationDate", "creationTime", "creationTimeH", "lastName", "firstName", "birthDate",
        "birthPlace", "address", "zipCode", "city", "exitDate", "exitTime", "exitTimeH", "reasons",
    ]

    /// The placeholders that hold a value of the person's identity.
    public static let identityPlaceholders: [String: Identity.Field] = [
        "firstName": .firstName, "lastName": .lastName, "birthDate": .birthDate, "birthPlace": .birthPlace,
        "address": .address, "zipCode": .zipCode, "city": .city,
    ]

    /// The names between braces in `text`, in order.
    public static func placeholderNames(in text: String) -> [String] { names(in: text) }

    package static func names(in text: String) -> [String] {
        var names: [String] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            guard let close = rest[open...].firstIndex(of: "}") else { break }
            names.append(String(rest[rest.index(after: open)..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return names
    }

    /// `template` with each known placeholder replaced by its value (unknown ones by nothing).
    public static func fill(_ template: String, with values: [String: String]) -> String {
        var result = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            result += rest[..<open]
            result += values[String(rest[rest.index(after: open)..<close])] ?? ""
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }

    /// Every placeholder's value for `attestation`, the free-text ones through `transform`.
    package static func values(_ attestation: Attestation, transform: (String) -> String = { $0 }) -> [String: String] {
        let person = attestation.identity
        let created = attestation.createdLocal
        let exit = attestation.exitLocal
        return [
            "creationDate": created.date.description,
            "creationTime": created.time,
            "creationTimeH": created.timeWithH,
            "lastName": transform(person.lastName),
            "firstName": transform(person.firstName),
            "birthDate": person.birthDate.description,
            "birthPlace": transform(person.birthPlace),
            "address": transform(person.address),
            "zipCode": person.zipCode,
            "city": transform(person.city),
            "exitDate": exit.date.description,
            "exitTime": exit.time,
            "exitTimeH": exit.timeWithH,
            "reasons": attestation.reasons.map(\.code).joined(separator: ", "),
        ]
    }
}

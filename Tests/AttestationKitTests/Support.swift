import Foundation
import Testing

@testable import AttestationKit

/// Fixed values shared by the suites: no test reads the real clock.
enum Fixture {
    /// The day the 28 November 2020 form came into force.
    static let today = CalendarDate(year: 2020, month: 11, day: 28)!

    static let form1128ID = "deplacement-2020-11-28"
    static let form1102ID = "deplacement-2020-11-02"

    static var form1128: Form { FormCatalog.builtIn.form(id: form1128ID)! }
    static var form1102: Form { FormCatalog.builtIn.form(id: form1102ID)! }

    static let paris = TimeZone(identifier: "Europe/Paris")!
    static let martinique = TimeZone(identifier: "America/Martinique")!
    static let noumea = TimeZone(identifier: "Pacific/Noumea")!

    /// The free-text fields (every field except the zip code and the birth date).
    static let textFields: [Identity.Field] = [.firstName, .lastName, .birthPlace, .address, .city]
}

/// An instant written in ISO 8601 with an explicit offset, e.g. `2021-03-28T00:50:00Z`.
func instant(_ text: String) throws -> Date {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    return try #require(formatter.date(from: text), "not an ISO 8601 instant: \(text)")
}

/// The raw text of a person as typed in a form, valid by default, one field changeable at a time.
struct RawIdentity: Sendable {
    var firstName = "Jean"
    var lastName = "Dupont"
    var birthDate = "01/01/1970"
    var birthPlace = "Lyon"
    var address = "999 avenue de France"
    var zipCode = "75001"
    var city = "Paris"

    func with(_ field: Identity.Field, _ value: String) -> RawIdentity {
        var copy = self
        switch field {
        case .firstName: copy.firstName = value
        case .lastName: copy.lastName = value
        case .birthDate: copy.birthDate = value
        case .birthPlace: copy.birthPlace = value
        case .address: copy.address = value
        case .zipCode: copy.zipCode = value
        case .city: copy.city = value
        }
        return copy
    }

    func make(today: CalendarDate = Fixture.today) throws(IdentityError) -> Identity {
        try Identity(
            firstName: firstName, lastName: lastName, birthDate: birthDate, birthPlace: birthPlace,
            address: address, zipCode: zipCode, city: city, today: today)
    }
}

/// The stored value of a free-text field.
func value(of field: Identity.Field, in identity: Identity) -> String {
    switch field {
    case .firstName: identity.firstName
    case .lastName: identity.lastName
    case .birthDate: identity.birthDate.description
    case .birthPlace: identity.birthPlace
    case .address: identity.address
    case .zipCode: identity.zipCode
    case .city: identity.city
    }
}

/// SplitMix64: a small seeded generator, so "random" inputs are the same on every run.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The built-in JSON of a form as a mutable JSON object.
func builtInJSONObject(_ id: String) throws -> [String: Any] {
    let bytes: [UInt8]
    switch id {
    case Fixture.form1128ID: bytes = PackageResources.deplacement_2020_11_28_json
    case Fixture.form1102ID: bytes = PackageResources.deplacement_2020_11_02_json
    default:
        Issue.record("no built-in form \(id)")
        bytes = []
    }
    let object = try JSONSerialization.jsonObject(with: Data(bytes))
    return try #require(object as? [String: Any])
}

func jsonData(_ object: [String: Any]) throws -> Data {
    try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
}

/// Changes the element `index` of the array of objects at `key`.
func editElement(_ json: inout [String: Any], _ key: String, _ index: Int, _ change: (inout [String: Any]) -> Void) {
    var array = json[key] as! [[String: Any]]
    change(&array[index])
    json[key] = array
}

/// Changes the object at `key`.
func editObject(_ json: inout [String: Any], _ key: String, _ change: (inout [String: Any]) -> Void) {
    var object = json[key] as! [String: Any]
    change(&object)
    json[key] = object
}

/// Whitespace runs (spaces, line breaks) as one space, as the PDF text extraction shows them.
func collapsingWhitespace(_ text: String) -> String {
    text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
}

/// A string of invisible characters, named by code point in test output (`U+000A`).
struct Invisible: Sendable, ExpressibleByStringLiteral, CustomTestStringConvertible {
    let text: String
    init(stringLiteral text: String) { self.text = text }
    var testDescription: String {
        text.unicodeScalars.map { "U+" + String(format: "%04X", $0.value) }.joined(separator: " ")
    }
}

import FormSchema
import Foundation
import TestSupport
import Testing

@testable import AttestationKit

/// What these suites add to the shared fixed values.
extension Fixture {
    static let paris = TimeZone(identifier: "Europe/Paris")!
    static let martinique = TimeZone(identifier: "America/Martinique")!
    static let noumea = TimeZone(identifier: "Pacific/Noumea")!

    /// The free-text fields (every field except the zip code and the birth date).
    static let textFields: [Identity.Field] = [.firstName, .lastName, .birthPlace, .address, .city]
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

/// A string of invisible characters, named by code point in test output (`U+000A`).
struct Invisible: Sendable, ExpressibleByStringLiteral, CustomTestStringConvertible {
    let text: String
    init(stringLiteral text: String) { self.text = text }
    var testDescription: String {
        text.unicodeScalars.map { "U+" + String(format: "%04X", $0.value) }.joined(separator: " ")
    }
}

import AttestationKit
import Foundation

/// The raw text of a person as typed in a form, valid by default, one field changeable at a time.
public struct RawIdentity: Sendable {
    public var firstName: String
    public var lastName: String
    public var birthDate: String
    public var birthPlace: String
    public var address: String
    public var zipCode: String
    public var city: String

    public init(
        firstName: String = "Jean", lastName: String = "Dupont", birthDate: String = "01/01/1970",
        birthPlace: String = "Lyon", address: String = "999 avenue de France", zipCode: String = "75001",
        city: String = "Paris"
    ) {
        (self.firstName, self.lastName, self.birthDate, self.birthPlace) = (firstName, lastName, birthDate, birthPlace)
        (self.address, self.zipCode, self.city) = (address, zipCode, city)
    }

    public func with(_ field: Identity.Field, _ value: String) -> RawIdentity {
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

    /// The person, checked as of `today` (the day the 28 November 2020 form came into force).
    public func make(
        today: CalendarDate = Fixture.today
    ) throws(IdentityError)
        -> Identity
    {
        try Identity(
            firstName: firstName, lastName: lastName, birthDate: birthDate, birthPlace: birthPlace,
            address: address, zipCode: zipCode, city: city, today: today)
    }
}

/// A built-in form's JSON file (Sources/FormSchema/Forms/ID.json) as a mutable JSON object, for
/// the tests that load it changed.
public func builtInJSONObject(_ id: String) throws -> [String: Any] {
    let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/FormSchema/Forms/\(id).json")
    let object = try JSONSerialization.jsonObject(with: Data(contentsOf: file))
    guard let dictionary = object as? [String: Any] else { throw CocoaError(.fileReadCorruptFile) }
    return dictionary
}

public func jsonData(_ object: [String: Any]) throws -> Data {
    try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
}

/// Changes the element `index` of the array of objects at `key`.
public func editElement(
    _ json: inout [String: Any], _ key: String, _ index: Int, _ change: (inout [String: Any]) -> Void
) {
    var array = json[key] as! [[String: Any]]
    change(&array[index])
    json[key] = array
}

/// Changes the object at `key`.
public func editObject(_ json: inout [String: Any], _ key: String, _ change: (inout [String: Any]) -> Void) {
    var object = json[key] as! [String: Any]
    change(&object)
    json[key] = object
}

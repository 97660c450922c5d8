import ArgumentParser
import AttestationKit
import Foundation

/// The person's identity as command-line options, shared by `mint` and `render`.
/// Each is optional to the parser: `mint --csv` and `render LINK` take the person elsewhere.
struct PersonOptions: ParsableArguments {
    @Option(name: .customLong("first-name"), help: "First name.") var firstName: String?
    @Option(name: .customLong("last-name"), help: "Last name.") var lastName: String?
    @Option(name: .customLong("birth-date"), help: ArgumentHelp("Birth date.", valueName: "DD/MM/YYYY")) var birthDate: String?
    @Option(name: .customLong("birth-place"), help: "Place of birth.") var birthPlace: String?
    @Option(help: "Street address.") var address: String?
    @Option(help: ArgumentHelp("Zip code, 5 digits.", valueName: "ZIP")) var zip: String?
    @Option(help: "City.") var city: String?

    var isEmpty: Bool { [firstName, lastName, birthDate, birthPlace, address, zip, city].allSatisfy { $0 == nil } }

    /// - Parameter naming: how messages name a value: an option (`--birth-date`) or a CSV column.
    func identity(today: CalendarDate, naming: (String) -> String = { "--\($0)" }) throws -> Identity {
        let values: [(String, String?)] = [
            ("first-name", firstName), ("last-name", lastName), ("birth-date", birthDate), ("birth-place", birthPlace),
            ("address", address), ("zip", zip), ("city", city),
        ]
        let missing = values.filter { $0.1 == nil }.map { naming($0.0) }
        guard missing.isEmpty else {
            throw AdminError.usage("identité incomplète : \(missing.joined(separator: ", ")) manquant(s) ; les sept valeurs d’identité sont obligatoires.")
        }
        do {
            return try Identity(firstName: firstName!, lastName: lastName!, birthDate: birthDate!, birthPlace: birthPlace!,
                                address: address!, zipCode: zip!, city: city!, today: today)
        } catch {
            throw AdminError.data("\(naming(Self.option(error.field))) : \(error.description)")
        }
    }

    static func option(_ field: Identity.Field) -> String {
        switch field {
        case .firstName: "first-name"
        case .lastName: "last-name"
        case .birthDate: "birth-date"
        case .birthPlace: "birth-place"
        case .address: "address"
        case .zipCode: "zip"
        case .city: "city"
        }
    }
}

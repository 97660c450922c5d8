import ArgumentParser
import AttestationKit
import FormSchema
import Foundation
import Rendering

/// The person's identity as command-line options, shared by `mint` and `render`.
/// Each is optional to the parser: `mint --csv` and `render LINK` take the person elsewhere.
struct PersonOptions: ParsableArguments {
    @Option(name: .customLong("first-name"), help: ArgumentHelp("Prénom.", valueName: "PRÉNOM")) var firstName: String?
    @Option(name: .customLong("last-name"), help: ArgumentHelp("Nom de famille.", valueName: "NOM")) var lastName:
        String?
    @Option(
        name: .customLong("birth-date"),
        help: ArgumentHelp(
            "Date de naissance (aussi J/M/AAAA ou AAAA-MM-JJ).", valueName: "JJ/MM/AAAA")) var birthDate: String?
    @Option(
        name: .customLong("birth-place"),
        help: ArgumentHelp(
            "Lieu de naissance (pas demandé pour un formulaire qui ne l’imprime pas).", valueName: "LIEU"))
    var birthPlace: String?
    @Option(help: ArgumentHelp("Adresse (numéro et voie).", valueName: "ADRESSE")) var address: String?
    @Option(help: ArgumentHelp("Code postal, 5 chiffres.", valueName: "CODE")) var zip: String?
    @Option(help: ArgumentHelp("Ville.", valueName: "VILLE")) var city: String?

    var isEmpty: Bool { [firstName, lastName, birthDate, birthPlace, address, zip, city].allSatisfy { $0 == nil } }

    static let keys = ["first-name", "last-name", "birth-date", "birth-place", "address", "zip", "city"]

    /// - Parameters:
    ///   - origin: how messages name a value: an option (`--birth-date`) or a CSV cell.
    ///   - form: the form drawn; one that neither prints nor encodes the place of birth does not
    ///     ask for it (`FormRules.usesBirthPlace`).
    func identity(today: CalendarDate, origin: ValueOrigin = .options, form: Form? = nil) throws -> Identity {
        let birthPlaceOptional = form.map { !$0.attestationRules.usesBirthPlace } ?? false
        let values = [firstName, lastName, birthDate, birthPlace, address, zip, city]
        let missing = Swift.zip(Self.keys, values).filter { $0.1 == nil }.map(\.0)
            .filter { !(birthPlaceOptional && $0 == "birth-place") }
        let required =
            birthPlaceOptional
            ? "les six valeurs d’identité (sans lieu de naissance pour ce formulaire)" : "les sept valeurs d’identité"
        guard missing.isEmpty else {
            switch origin {
            case .options:
                throw AdminError.usage(
                    "identité incomplète : \(missing.map { "--\($0)" }.joined(separator: ", ")) manquant(s) ; \(required) sont obligatoires."
                )
            case .csv:
                throw AdminError.data(
                    origin.message(
                        missing[0], "une valeur est attendue ; \(required) sont obligatoires."))
            }
        }
        var date = birthDate!
        if !date.trimmingCharacters(in: .whitespaces).isEmpty {
            guard let parsed = WrittenDate.parse(date) else {
                let problem = WrittenDate.problem(date)
                if case .options = origin {
                    throw AdminError.data(origin.message("birth-date", "date de naissance : \(problem)"))
                }
                throw AdminError.data(origin.message("birth-date", problem))
            }
            date = parsed.description
        }
        do {
            return try Identity(
                firstName: firstName!, lastName: lastName!, birthDate: date, birthPlace: birthPlace ?? "",
                address: address!, zipCode: zip!, city: city!, today: today, birthPlaceOptional: birthPlaceOptional)
        } catch {
            throw AdminError.data(origin.message(Self.option(error.field), error))
        }
    }

    /// Refuses what `form` cannot write of `identity` (`ValueCheck`): a character its fonts do not
    /// draw, a value its QR code would leave empty. Data (65), as any other value refused.
    static func check(_ identity: Identity, on form: Form, with check: ValueCheck, origin: ValueOrigin) throws {
        let problem: IdentityError?
        do { problem = try check.problem(with: identity, on: form) } catch {
            throw AdminError.software(error.description)
        }
        if let problem { throw AdminError.data(origin.message(option(problem.field), problem)) }
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

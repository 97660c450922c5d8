import Foundation

/// The person the attestation is for, as the form asks for it. Every value is validated on
/// creation, so an `Identity` always prints readably and encodes into a well-formed QR payload.
public struct Identity: Sendable, Hashable, Codable {
    public let firstName: String
    public let lastName: String
    public let birthDate: CalendarDate
    public let birthPlace: String
    public let address: String
    public let zipCode: String
    public let city: String

    /// The longest value accepted for each free-text field, in characters: enough for real
    /// names and addresses, short enough that the PDF stays readable at its smallest type.
    public static let maximumLengths: [Field: Int] = [
        .firstName: 50, .lastName: 50, .birthPlace: 60, .address: 100, .city: 50,
    ]

    /// The longest ASCII form of a free-text field, in bytes: what the QR code holds (see
    /// `ASCIIFolding`). Six times the field's limit leaves room for real transliterations (a
    /// whole field of Chinese syllables, `北京` → `bei jing`) while all five fields at that size
    /// still fit the built-in forms' QR code; ligatures such as U+FDFA (17 letters each) could
    /// push it past its capacity, and every request of the link failed.
    public static func maximumQRBytes(_ field: Field) -> Int { 6 * (maximumLengths[field] ?? 100) }

    /// The earliest birth date accepted.
    public static let earliestBirthDate = CalendarDate(year: 1900, month: 1, day: 1)!

    /// Validates and normalizes (Unicode NFC, surrounding spaces trimmed) each field.
    /// - Parameters:
    ///   - today: the current day, for checking that the birth date is in the past.
    ///   - birthPlaceOptional: an empty place of birth is accepted (kept as ""), for a form that
    ///     neither prints nor encodes it (`FormRules.usesBirthPlace`), as from April 2021.
    public init(
        firstName: String, lastName: String, birthDate: String, birthPlace: String,
        address: String, zipCode: String, city: String, today: CalendarDate, birthPlaceOptional: Bool = false
    ) throws(IdentityError) {
        self.firstName = try Self.text(firstName, .firstName)
        self.lastName = try Self.text(lastName, .lastName)
        self.birthPlace =
            birthPlaceOptional && birthPlace.trimmingCharacters(in: .whitespaces).isEmpty
            ? "" : try Self.text(birthPlace, .birthPlace)
        self.address = try Self.text(address, .address)
        self.city = try Self.text(city, .city)

        let zip = zipCode.trimmingCharacters(in: .whitespaces)
        guard zip.count == 5, zip.allSatisfy(\.isASCIIDigit) else {
            throw IdentityError(field: .zipCode, problem: zip.isEmpty ? .empty : .invalidZipCode)
        }
        self.zipCode = zip

        let dateText = birthDate.trimmingCharacters(in: .whitespaces)
        guard !dateText.isEmpty else { throw IdentityError(field: .birthDate, problem: .empty) }
        guard let date = CalendarDate(dateText) else {
            throw IdentityError(field: .birthDate, problem: .invalidDate)
        }
        guard date < today, date >= Self.earliestBirthDate else {
            throw IdentityError(field: .birthDate, problem: .dateOutOfRange(latest: today))
        }
        self.birthDate = date
    }

    /// Decoding re-runs the validation against today's date.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(
            firstName: c.decode(String.self, forKey: .firstName),
            lastName: c.decode(String.self, forKey: .lastName),
            birthDate: c.decode(CalendarDate.self, forKey: .birthDate).description,
            birthPlace: c.decode(String.self, forKey: .birthPlace),
            address: c.decode(String.self, forKey: .address),
            zipCode: c.decode(String.self, forKey: .zipCode),
            city: c.decode(String.self, forKey: .city),
            today: LocalDateTime(Date(), in: .paris).date)
    }

    /// The values typed freely (the others are a date and digits): what a form's fonts must
    /// draw and its QR code folds.
    public static let textFields: [Field] = [.firstName, .lastName, .birthPlace, .address, .city]

    /// The value of a field as text, as the form's placeholder of the same name prints it.
    public func text(of field: Field) -> String {
        switch field {
        case .firstName: firstName
        case .lastName: lastName
        case .birthDate: birthDate.description
        case .birthPlace: birthPlace
        case .address: address
        case .zipCode: zipCode
        case .city: city
        }
    }

    /// First name then last name, as written after "Mme/M." on the form.
    public var fullName: String { "\(firstName) \(lastName)" }

    /// Address, zip code and city on one line, as written after "Demeurant".
    public var fullAddress: String { "\(address) \(zipCode) \(city)" }

    private static func text(_ raw: String, _ field: Field) throws(IdentityError) -> String {
        let value = raw.precomposedStringWithCanonicalMapping.trimmingCharacters(in: .whitespaces)
        guard !value.isEmpty else { throw IdentityError(field: field, problem: .empty) }
        if value.unicodeScalars.contains(where: Self.isForbidden) {
            throw IdentityError(field: field, problem: .controlCharacter)
        }
        let limit = maximumLengths[field] ?? 100
        guard value.count <= limit else {
            throw IdentityError(field: field, problem: .tooLong(limit: limit))
        }
        guard ASCIIFolding.fold(value).utf8.count <= maximumQRBytes(field) else {
            throw IdentityError(field: field, problem: .tooLongForQRCode(limit: maximumQRBytes(field)))
        }
        return value
    }

    /// Control and line-breaking characters would break the one-line-per-field QR payload.
    private static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator, .format, .unassigned, .privateUse, .surrogate:
            return true
        default:
            return false
        }
    }

    /// The fields of an identity, named as the form and the command line name them.
    public enum Field: String, Sendable, CaseIterable, Codable {
        case firstName, lastName, birthDate, birthPlace, address, zipCode, city

        /// The French name shown in error messages.
        public var label: String {
            switch self {
            case .firstName: "prénom"
            case .lastName: "nom"
            case .birthDate: "date de naissance"
            case .birthPlace: "lieu de naissance"
            case .address: "adresse"
            case .zipCode: "code postal"
            case .city: "ville"
            }
        }
    }
}

/// Why an identity field was refused; `description` is the French message for the user.
public struct IdentityError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Problem: Sendable, Equatable {
        case empty
        case tooLong(limit: Int)
        /// Too long once written in Latin letters for the QR code.
        case tooLongForQRCode(limit: Int)
        case controlCharacter
        case invalidZipCode
        case invalidDate
        case dateOutOfRange(latest: CalendarDate)
        /// A character no font of the form's document has (`Rendering`'s `ValueCheck`).
        case notDrawable(Unicode.Scalar, form: String)
        /// A value the form's QR code, in Latin letters, would leave empty: its first character
        /// without a Latin form.
        case emptyInQRCode(Unicode.Scalar, form: String)
    }

    public let field: Identity.Field
    public let problem: Problem

    public init(field: Identity.Field, problem: Problem) {
        self.field = field
        self.problem = problem
    }

    public var description: String {
        let name = field.label
        switch problem {
        case .empty:
            return "\(name) : champ vide ; une valeur est obligatoire."
        case .tooLong(let limit):
            return "\(name) : trop long ; \(limit) caractères au plus."
        case .tooLongForQRCode(let limit):
            return
                "\(name) : trop long une fois transcrit en lettres latines pour le QR code ; \(limit) lettres latines au plus."
        case .controlCharacter:
            return
                "\(name) : caractère de contrôle ou saut de ligne interdit ; du texte sur une seule ligne est attendu."
        case .invalidZipCode:
            return "\(name) : invalide ; 5 chiffres attendus (par exemple 75001)."
        case .invalidDate:
            return
                "\(name) : date invalide ; une date réelle au format JJ/MM/AAAA est attendue (par exemple 01/01/1970)."
        case .dateOutOfRange(let latest):
            return
                "\(name) : hors limites ; une date passée est attendue, à partir du \(Identity.earliestBirthDate) et avant le \(latest)."
        case .notDrawable(let character, let form):
            return
                "\(name) : \(VisibleText.named(character)) ne peut pas être écrit sur le formulaire \(form) : ses polices n’ont pas ce caractère, qui s’imprimerait comme un carré vide ; les lettres latines (accents compris), grecques et cyrilliques, les chiffres et la ponctuation courante sont acceptés, pas les idéogrammes ni la plupart des émojis."
        case .emptyInQRCode(let character, let form):
            return
                "\(name) : \(VisibleText.named(character)) n’a pas d’équivalent en lettres latines, et le QR code du formulaire \(form), qui n’écrit qu’en lettres latines, laisserait ce champ vide ; des lettres (accentuées, grecques, cyrilliques…) ou des chiffres sont attendus."
        }
    }
}

import AttestationKit
import FormSchema
import Foundation
import Testing

/// The example of an official form's facts (Tests/FormSchemaTests/Reference/FOLDER/
/// facts.json, copied from ../shared/reference/forms/): the person, instant, exit time and
/// reasons of the Ministry's generator, as an attestation of ours, for the tests that compare
/// our forms and pages with theirs.
public struct ReferenceExample: @unchecked Sendable {
    /// The ten official forms of 2020–2021 besides November's, by their folder's name (their id).
    public static let folders = [
        "couvre-feu-2020-10-17", "deplacement-2020-10-30", "couvre-feu-2020-12-15", "couvre-feu-2021-01-04",
        "couvre-feu-2021-01-25", "deplacement-2021-03-01", "deplacement-2021-03-17-couvre-feu",
        "deplacement-2021-03-17-week-end", "deplacement-2021-03-23-couvre-feu",
        "deplacement-2021-03-23-mesures-renforcees",
    ]

    public static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("FormSchemaTests/Reference")

    /// The whole facts.json of the folder.
    public let facts: [String: Any]
    /// The generator's QR payload for the example.
    public let payload: String
    /// When the generator made it, as its payload prints it: DD, MM, YYYY, HH, MM.
    public let created: (day: String, month: String, year: String, hour: String, minute: String)
    /// The exit date (DD/MM/YYYY) and time (HH:MM) it printed.
    public let exitDate: String
    public let exitTime: String
    /// Ours for the same person, instant, exit time and reasons.
    public let attestation: Attestation
    /// Our form of the same version.
    public let form: Form

    /// Letters and digits as words, a run of letters and a run of digits apart: pdftotext and
    /// the forms split "sanitaire1", "n°2020" and "l'épidémie" alike, so the words of the
    /// Ministry's blank and of ours can be counted against each other.
    public static func words(_ text: String) -> [String] {
        var words: [String] = []
        var current = ""
        var kind: Bool?
        for character in text {
            if character.isLetter || character.isNumber {
                if kind != nil, kind != character.isLetter {
                    words.append(current)
                    current = ""
                }
                current.append(character)
                kind = character.isLetter
            } else if !current.isEmpty {
                words.append(current)
                current = ""
                kind = nil
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    /// A value of facts.json (`"Fait à {city}"`, the generator's placeholder names) in a form's
    /// placeholders (`"Fait à {city}"`, `{firstname}` → `{firstName}`).
    public static func formValue(_ factsValue: String) -> String {
        let names = [
            "firstname": "firstName", "lastname": "lastName", "birthday": "birthDate", "placeofbirth": "birthPlace",
            "zipcode": "zipCode", "exit_date": "exitDate", "exit_time": "exitTime",
        ]
        return names.reduce(factsValue) { $0.replacingOccurrences(of: "{\($1.key)}", with: "{\($1.value)}") }
    }

    /// A value of facts.json as the generator printed it for the example: Camille Dupont, born
    /// on 01/01/1970 in Paris, 999 avenue de France 75001 Paris, the example's exit.
    public func printed(_ factsValue: String) -> String {
        let values = [
            "firstname": "Camille", "lastname": "Dupont", "birthday": "01/01/1970", "placeofbirth": "Paris",
            "address": "999 avenue de France", "zipcode": "75001", "city": "Paris", "exit_date": exitDate,
            "exit_time": exitTime,
        ]
        return values.reduce(factsValue) { $0.replacingOccurrences(of: "{\($1.key)}", with: $1.value) }
    }

    /// The number of pages of the Ministry's blank.
    public var blankPages: Int { (facts["blank"] as? [String: Any])?["pages"] as? Int ?? 1 }

    public static func facts(_ folder: String) throws -> [String: Any] {
        let data = try Data(contentsOf: directory.appendingPathComponent("\(folder)/facts.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    public init(folder: String, form: Form) throws {
        self.form = form
        facts = try Self.facts(folder)
        let qr = try #require(facts["qr"] as? [String: Any])
        payload = try #require((qr["payload"] as? [String: Any])?["example"] as? String)
        let made = try #require(payload.firstMatch(of: /Cree le: (\d\d)\/(\d\d)\/(\d{4}) a (\d\d)h(\d\d)/))
        created = (String(made.1), String(made.2), String(made.3), String(made.4), String(made.5))
        let exit = try #require(payload.firstMatch(of: /Sortie: (\d\d\/\d\d\/\d{4}) a (\d\d:\d\d)/))
        (exitDate, exitTime) = (String(exit.1), String(exit.2))
        let reasons = try #require(payload.firstMatch(of: /Motifs: ([a-z_, ]+)/)).1.split(separator: ", ").map(
            String.init)
        let paris = try #require(TimeZone(identifier: "Europe/Paris"))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = paris
        let now = try #require(
            calendar.date(
                from: DateComponents(
                    year: Int(created.year), month: Int(created.month), day: Int(created.day),
                    hour: Int(created.hour), minute: Int(created.minute))))
        // The person of every facts.json example.
        let identity = try Identity(
            firstName: "Camille", lastName: "Dupont", birthDate: "01/01/1970", birthPlace: "Paris",
            address: "999 avenue de France", zipCode: "75001", city: "Paris",
            today: try #require(CalendarDate(year: 2021, month: 12, day: 31)))
        attestation = try Attestation(
            identity: identity, form: form, reasonCodes: reasons,
            exit: try ExitTime.parse(offset: nil, at: exitTime), timeZone: paris, now: now)
    }
}

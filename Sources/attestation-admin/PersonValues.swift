import AttestationKit
import FormSchema
import Foundation
import LinkTokens
import Rendering

/// Where a value came from, so a refusal names it: an option (`--birth-date`) or a cell of a
/// CSV file (its column as the file titles it, and the value).
enum ValueOrigin {
    case options
    /// `cell(key)`: the column's title in the file and the cell's text, for an option's key.
    case csv(cell: (String) -> (column: String, value: String))

    /// `--birth-date : date de naissance : date invalide…` or
    /// `colonne « Date de naissance », valeur « 31/02/1980 » : date invalide…`.
    func message(_ key: String, _ problem: String) -> String {
        switch self {
        case .options:
            return "--\(key) : \(problem)"
        case .csv(let cell):
            let (column, value) = cell(key)
            return "colonne « \(column) », " + (value.isEmpty ? "vide" : "valeur « \(value) »") + " : \(problem)"
        }
    }

    /// An identity refused: a CSV column already names the field, an option does not.
    func message(_ key: String, _ error: IdentityError) -> String {
        guard case .csv = self else { return message(key, error.description) }
        let label = "\(error.field.label) : "
        let problem =
            error.description.hasPrefix(label) ? String(error.description.dropFirst(label.count)) : error.description
        return message(key, problem)
    }
}

/// One person's values as text, from options or a CSV row, checked into link contents.
struct PersonValues {
    var firstName, lastName, birthDate, birthPlace, address, zip, city: String?
    var reasons: [String]
    var form, context, expires, timeZone: String?
    var lockReasons: Bool?

    init(person: PersonOptions, reasons: [String]) {
        (firstName, lastName, birthDate, birthPlace) = (
            person.firstName, person.lastName, person.birthDate, person.birthPlace
        )
        (address, zip, city) = (person.address, person.zip, person.city)
        self.reasons = reasons
    }

    init(
        firstName: String?, lastName: String?, birthDate: String?, birthPlace: String?, address: String?, zip: String?,
        city: String?, reasons: [String], form: String?, context: String?, expires: String?, timeZone: String?,
        lockReasons: Bool?
    ) {
        (self.firstName, self.lastName, self.birthDate, self.birthPlace) = (firstName, lastName, birthDate, birthPlace)
        (self.address, self.zip, self.city) = (address, zip, city)
        self.reasons = reasons
        (self.form, self.context, self.expires, self.timeZone, self.lockReasons) = (
            form, context, expires, timeZone, lockReasons
        )
    }

    /// The contents of the link: pinned to `form` when one is given (here or as a default), else
    /// following `calendar`, checked against the version in force `now` and its contexts.
    func contents(
        catalog: FormCatalog, calendar: FormCalendar, defaults: LinkDefaults, now: Date, check: ValueCheck,
        origin: ValueOrigin = .options, warn: (String) -> Void = { _ in }
    ) throws -> LinkContents {
        var options = PersonOptions()
        (options.firstName, options.lastName, options.birthDate, options.birthPlace) = (
            firstName, lastName, birthDate, birthPlace
        )
        (options.address, options.zip, options.city) = (address, zip, city)
        let formID = form ?? defaults.form
        let context = context ?? defaults.context
        let chosen: Form
        var ordered: [String]
        if let formID {
            guard let pinned = catalog.form(id: formID) else {
                throw AdminError.data(
                    origin.message(
                        "form", "formulaire inconnu ; disponibles : \(catalog.forms.map(\.id).joined(separator: ", "))."
                    )
                )
            }
            if context != nil {
                throw AdminError.data(
                    origin.message(
                        "context",
                        "un lien à formulaire fixe (--form) imprime toujours ce formulaire ; le contexte ne s’applique qu’à un lien qui suit le calendrier."
                    ))
            }
            chosen = pinned
            ordered = chosen.reasons.map(\.code).filter(Set(reasons).contains)
        } else {
            let version = calendar.version(at: now)!
            let contexts = Set(calendar.versions.flatMap(\.contexts))
            if let context, !contexts.contains(context) {
                throw AdminError.data(
                    origin.message(
                        "context",
                        "contexte inconnu ; contextes du calendrier : \(contexts.sorted().joined(separator: ", "))."))
            }
            chosen = version.form(context: context) ?? version.defaultForm(at: now)
            // A code of any version of the calendar: the link carries it to the versions to come.
            let known = calendar.reasonCodes
            if let unknown = reasons.first(where: { !known.contains($0) }) {
                throw AdminError.data(
                    origin.message(
                        "reason",
                        "motif « \(unknown) » inconnu ; codes du formulaire en vigueur : "
                            + "\(chosen.reasons.map(\.code).joined(separator: ", ")) (et ceux des versions du calendrier : attestation-admin forms)."
                    ))
            }
            ordered = []
            for code in reasons where !ordered.contains(code) { ordered.append(code) }
        }
        let identity = try options.identity(today: LocalDateTime(now, in: .paris).date, origin: origin, form: chosen)

        try PersonOptions.check(identity, on: chosen, with: check, origin: origin)
        let zone = timeZone ?? defaults.timeZone
        if let zone, TimeZone(identifier: zone) == nil {
            throw AdminError.data(
                origin.message(
                    "time-zone",
                    "fuseau horaire inconnu ; un nom IANA est attendu, par exemple Europe/Paris ou America/Martinique.")
            )
        }
        // The same checks as an attestation made from the link, now rather than when it is opened
        // (a link that follows the calendar: in the version in force, where its reasons are).
        let carried =
            formID == nil ? calendar.carryOver(ordered, into: chosen) : CarriedReasons(codes: ordered, missing: [])
        do {
            if carried.missing.isEmpty {
                _ = try Attestation(identity: identity, form: chosen, reasonCodes: carried.codes, now: now)
            }
        } catch {
            var problem = error.description
            if case .csv = origin {
                problem += " Dans la cellule, séparez les motifs par des espaces, |, virgules ou points-virgules."
            }
            throw AdminError.data(origin.message("reason", problem))
        }
        var expiry: Date?
        if let text = expires ?? defaults.expires {
            do { expiry = try Expiry.parse(text, now: now) } catch {
                throw AdminError.data(origin.message("expires", error.message))
            }
        }
        if !carried.missing.isEmpty {
            let codes = carried.missing.map { "« \($0) »" }.joined(separator: ", ")
            warn(
                origin.message(
                    "reason",
                    "\(codes) : pas d’équivalent dans le formulaire en vigueur (\(chosen.id)) ; le lien est créé, "
                        + "et la page de la personne lui demandera de choisir ses motifs."))
        }
        return LinkContents(
            issuedAt: now, expiresAt: expiry, formID: formID, context: context, identity: identity, reasons: ordered,
            timeZone: zone == "Europe/Paris" ? nil : zone, lockReasons: lockReasons ?? defaults.lockReasons)
    }
}

/// Dates as people and spreadsheets write them: `01/02/1950`, `1/2/1950` (day first, as in
/// France) and `1950-02-01` (ISO 8601, as some exports write date cells), with a midnight time
/// some spreadsheets add to a date cell. A two-digit year is refused rather than guessed.
enum WrittenDate {
    static let accepted = "JJ/MM/AAAA, J/M/AAAA ou AAAA-MM-JJ (par exemple 01/02/1950, 1/2/1950 ou 1950-02-01)"

    static func parse(_ text: String) -> CalendarDate? {
        var value = text.trimmingCharacters(in: .whitespaces)
        for midnight in [" 00:00:00", " 00:00"] where value.hasSuffix(midnight) {
            value = String(value.dropLast(midnight.count))
        }
        let numbers: [Int]
        if let m = value.wholeMatch(of: #/(\d{1,2})/(\d{1,2})/(\d{4})/#) {
            numbers = [Int(m.3)!, Int(m.2)!, Int(m.1)!]
        } else if let m = value.wholeMatch(of: #/(\d{4})-(\d{2})-(\d{2})/#) {
            numbers = [Int(m.1)!, Int(m.2)!, Int(m.3)!]
        } else {
            return nil
        }
        return CalendarDate(year: numbers[0], month: numbers[1], day: numbers[2])
    }

    /// What is wrong with a text that is not a date, in words.
    static func problem(_ text: String) -> String {
        if text.wholeMatch(of: #/\s*\d{1,2}/\d{1,2}/\d{2}\s*/#) != nil {
            return
                "année à deux chiffres ; l’année s’écrit en entier : \(accepted). Dans le tableur, donnez aux cellules le format de date JJ/MM/AAAA."
        }
        return "date invalide ; une date réelle est attendue : \(accepted)."
    }
}

enum Expiry {
    struct Invalid: Error { let message: String }

    static let accepted =
        "un nombre de jours (90d ou 90j) ou un dernier jour de validité futur (2027-06-30 ou 30/06/2027)"

    /// `90d` or `90j` (days from now) or a last day, `2027-06-30` or `30/06/2027`: valid through
    /// that day, Paris time.
    static func parse(_ text: String, now: Date) throws(Invalid) -> Date {
        let value = text.trimmingCharacters(in: .whitespaces)
        if let last = value.last, "dj".contains(last), let days = Int(value.dropLast()) {
            guard (1...3650).contains(days) else {
                throw Invalid(message: "de 1 à 3650 jours ; \(accepted) est attendu.")
            }
            return now.addingTimeInterval(TimeInterval(days) * 86_400)
        }
        guard let day = WrittenDate.parse(value) else { throw Invalid(message: "\(accepted) est attendu.") }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .paris
        guard let start = calendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day)),
            let end = calendar.date(byAdding: .day, value: 1, to: start), end > now
        else {
            throw Invalid(message: "date passée ; \(accepted) est attendu.")
        }
        return end
    }
}

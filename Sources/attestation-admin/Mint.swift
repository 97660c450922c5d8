import ArgumentParser
import AttestationKit
import AttestationConfiguration
import Foundation
import LinkTokens
import Rendering
import SwiftCSV

struct Mint: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Mint one signed link per person, from options or a CSV file.",
        discussion: """
            The link opens the attestation PDF, dated when it is opened. Output (--format): the \
            URL (default), JSON (with the personal page's URL too), a QR code drawn in the \
            terminal to scan with a phone, or an HTML page of bookmarks with one QR code per link.

            CSV (--csv FILE): a header row, then one person per row; comma, semicolon or tab \
            separated. Columns: first_name, last_name, birth_date, birth_place, address, zip, city, \
            reasons (codes separated by spaces or |), and optionally form, expires, time_zone, \
            lock_reasons (oui/non). Empty optional cells take the command-line values. A bad row \
            is reported with its line number; the others are still minted, and the exit status \
            is 65 when any row failed. The output is written whole or not at all.

            Examples:
              attestation-admin mint --first-name Camille --last-name Dupont --birth-date 01/01/1970 \\
                --birth-place Lyon --address "999 avenue de France" --zip 75001 --city Paris \\
                --reason travail --expires 90d --format qr
              attestation-admin mint --csv personnel.csv --format html -o liens.html
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case url, json, qr, html
    }

    @OptionGroup var config: ConfigOptions
    @OptionGroup(title: "Identity") var person: PersonOptions

    @Option(name: .customLong("reason"), help: ArgumentHelp("A default reason code, repeatable.", valueName: "CODE"))
    var reasons: [String] = []

    @Option(help: ArgumentHelp("The form id (default: the latest official form).", valueName: "ID"))
    var form: String?

    @Option(help: ArgumentHelp("Expiry: a number of days (90d) or a last day (2021-06-30).", valueName: "WHEN"))
    var expires: String?

    @Option(name: .customLong("time-zone"), help: ArgumentHelp("IANA time zone of the person (default Europe/Paris).", valueName: "ZONE"))
    var timeZone: String?

    @Flag(name: .customLong("lock-reasons"), help: "The person cannot choose other reasons.")
    var lockReasons = false

    @Option(name: .customLong("base-url"), help: ArgumentHelp("The service's address (default: baseURL of the configuration).", valueName: "URL"))
    var baseURL: String?

    @Option(help: ArgumentHelp("Mint one link per row of this CSV file.", valueName: "FILE"))
    var csv: String?

    @Option(help: ArgumentHelp("Output format.", valueName: Format.allCases.map(\.rawValue).joined(separator: "|")))
    var format: Format = .url

    @Option(name: [.short, .customLong("output")], help: ArgumentHelp("Write to this file instead of the terminal.", valueName: "FILE"))
    var output: String?

    @Option(name: .customLong("key"), help: ArgumentHelp("Private key file (default: signingKey of the configuration).", valueName: "FILE"))
    var keyFile: String?

    func run() throws {
        let state = try config.state()
        let key = try config.signingKey(state.configuration, override: keyFile)
        let base = try LinkAddress(baseURL ?? state.configuration.baseURL)
        let now = Date()
        let defaults = LinkDefaults(form: form, expires: expires, timeZone: timeZone, lockReasons: lockReasons)

        var minted: [MintedLink] = []
        var failures: [String] = []
        if let csv {
            guard person.isEmpty, reasons.isEmpty else {
                throw AdminError.usage("--csv : les options d’identité et --reason ne se combinent pas avec un fichier CSV (mettez-les dans ses colonnes).")
            }
            for row in try PeopleFile(path: csv).rows {
                do {
                    let contents = try row.values.get().contents(
                        catalog: state.catalog, defaults: defaults, now: now, naming: PeopleFile.column)
                    minted.append(try MintedLink(contents: contents, key: key, base: base))
                } catch let error as AdminError {
                    failures.append("\(csv), ligne \(row.line) : \(error.message)")
                }
            }
        } else {
            let values = PersonValues(person: person, reasons: reasons)
            minted.append(try MintedLink(contents: try values.contents(catalog: state.catalog, defaults: defaults, now: now),
                                         key: key, base: base))
        }
        for failure in failures { FileHandle.standardError.write(Data("attestation-admin : \(failure)\n".utf8)) }
        guard !minted.isEmpty else { throw AdminError.data("aucun lien créé.") }

        let rendered = try MintOutput(links: minted, format: format).text
        if let output {
            try writeAtomically(Data(rendered.utf8), to: output)
        } else {
            print(rendered, terminator: "")
        }
        if !failures.isEmpty {
            throw AdminError.data("\(minted.count) lien(s) créé(s), \(failures.count) ligne(s) refusée(s).")
        }
    }
}

/// Where links point: `BASE/attestation.pdf?t=…` for the PDF, `BASE/?t=…` for the personal page.
struct LinkAddress {
    let base: String

    init(_ text: String) throws {
        guard let url = URL(string: text), ["http", "https"].contains(url.scheme ?? ""), url.host != nil,
              url.query == nil, url.fragment == nil else {
            throw AdminError.usage("--base-url : URL http(s) sans requête attendue, par exemple https://attestation.example.org.")
        }
        base = text.hasSuffix("/") ? String(text.dropLast()) : text
    }

    func pdf(_ token: String) -> String { "\(base)/attestation.pdf?t=\(token)" }
    func page(_ token: String) -> String { "\(base)/?t=\(token)" }
}

/// The command-line values every row shares unless it has its own.
struct LinkDefaults {
    let form: String?
    let expires: String?
    let timeZone: String?
    let lockReasons: Bool
}

/// One person's values as text, from options or a CSV row, checked into link contents.
struct PersonValues {
    var firstName, lastName, birthDate, birthPlace, address, zip, city: String?
    var reasons: [String]
    var form, expires, timeZone: String?
    var lockReasons: Bool?

    init(person: PersonOptions, reasons: [String]) {
        (firstName, lastName, birthDate, birthPlace) = (person.firstName, person.lastName, person.birthDate, person.birthPlace)
        (address, zip, city) = (person.address, person.zip, person.city)
        self.reasons = reasons
    }

    init(row: [String: String]) throws(AdminError) {
        func cell(_ name: String) -> String? {
            guard let value = row[name]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
            return value
        }
        (firstName, lastName, birthDate, birthPlace) = (cell("first_name"), cell("last_name"), cell("birth_date"), cell("birth_place"))
        (address, zip, city) = (cell("address"), cell("zip"), cell("city"))
        reasons = (cell("reasons") ?? "").split(whereSeparator: { $0 == " " || $0 == "|" }).map(String.init)
        (form, expires, timeZone) = (cell("form"), cell("expires"), cell("time_zone"))
        if let lock = cell("lock_reasons")?.lowercased() {
            switch lock {
            case "oui", "yes", "true", "1": lockReasons = true
            case "non", "no", "false", "0": lockReasons = false
            default: throw .data("lock_reasons : « oui » ou « non » attendu.")
            }
        }
    }

    /// - Parameter naming: how messages name a value: an option (`--birth-date`) or a CSV column.
    func contents(
        catalog: FormCatalog, defaults: LinkDefaults, now: Date, naming: (String) -> String = { "--\($0)" }
    ) throws -> LinkContents {
        var options = PersonOptions()
        (options.firstName, options.lastName, options.birthDate, options.birthPlace) = (firstName, lastName, birthDate, birthPlace)
        (options.address, options.zip, options.city) = (address, zip, city)
        let identity = try options.identity(today: LocalDateTime(now, in: .paris).date, naming: naming)

        let formID = form ?? defaults.form ?? catalog.defaultFormID
        guard let chosen = catalog.form(id: formID) else {
            throw AdminError.data("\(naming("form")) : formulaire inconnu ; disponibles : \(catalog.forms.map(\.id).joined(separator: ", ")).")
        }
        let zone = timeZone ?? defaults.timeZone
        if let zone, TimeZone(identifier: zone) == nil {
            throw AdminError.data("\(naming("time-zone")) : fuseau horaire inconnu ; un nom IANA est attendu, par exemple Europe/Paris ou America/Martinique.")
        }
        // The same checks as an attestation made from the link, now rather than when it is opened.
        do {
            _ = try Attestation(identity: identity, form: chosen, reasonCodes: reasons, now: now)
        } catch {
            throw AdminError.data("\(naming("reason")) : \(error.description)")
        }
        let expiry = try (expires ?? defaults.expires).map { try Expiry.parse($0, now: now, name: naming("expires")) }
        let ordered = chosen.reasons.map(\.code).filter(Set(reasons).contains)
        return LinkContents(issuedAt: now, expiresAt: expiry, formID: formID, identity: identity, reasons: ordered,
                            timeZone: zone == "Europe/Paris" ? nil : zone, lockReasons: lockReasons ?? defaults.lockReasons)
    }
}

enum Expiry {
    /// `90d` (days from now) or `2021-06-30` (valid through that day, Paris time).
    static func parse(_ text: String, now: Date, name: String = "--expires") throws -> Date {
        let accepted = "\(name) : un nombre de jours (90d) ou une date future AAAA-MM-JJ est attendu."
        if text.hasSuffix("d"), let days = Int(text.dropLast()), (1...3650).contains(days) {
            return now.addingTimeInterval(TimeInterval(days) * 86_400)
        }
        let parts = text.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3, text.count == 10, let day = CalendarDate(year: parts[0], month: parts[1], day: parts[2]) else {
            throw AdminError.data(accepted)
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .paris
        guard let start = calendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day)),
              let end = calendar.date(byAdding: .day, value: 1, to: start), end > now else {
            throw AdminError.data(accepted)
        }
        return end
    }
}

/// A minted link and what the outputs show of it.
struct MintedLink: Encodable {
    let id: String
    let url: String
    let pageURL: String
    let name: String
    let expiresAt: String?

    init(contents: LinkContents, key: SigningKey, base: LinkAddress) throws {
        let token: String
        do { token = try LinkToken.sign(contents, with: key) } catch {
            throw error == .signature ? AdminError.software(error.description) : AdminError.data(error.description)
        }
        id = contents.id.description
        url = base.pdf(token)
        pageURL = base.page(token)
        name = contents.identity.fullName
        expiresAt = contents.expiresAt.map { ISO8601DateFormatter().string(from: $0) }
    }
}

/// The rows of a people CSV file, with their line numbers (the header is line 1).
struct PeopleFile {
    static let required = ["first_name", "last_name", "birth_date", "birth_place", "address", "zip", "city", "reasons"]
    static let optional = ["form", "expires", "time_zone", "lock_reasons"]

    /// The column holding what an option holds on the command line.
    static func column(_ option: String) -> String {
        option == "reason" ? "reasons" : option.replacingOccurrences(of: "-", with: "_")
    }

    let rows: [(line: Int, values: Result<PersonValues, AdminError>)]

    init(path: String) throws {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw AdminError.data("\(path) : fichier introuvable ou illisible (UTF-8 attendu).")
        }
        let table: CSV<Named>
        do { table = try CSV<Named>(string: text.replacingOccurrences(of: "\r\n", with: "\n")) } catch {
            throw AdminError.data("\(path) : CSV illisible (\(error)).")
        }
        let header = table.header.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        let unknown = header.filter { !(Self.required + Self.optional).contains($0) }
        let missing = Self.required.filter { !header.contains($0) }
        guard unknown.isEmpty, missing.isEmpty else {
            throw AdminError.data("\(path), ligne 1 : colonnes \(unknown.isEmpty ? "manquantes : \(missing.joined(separator: ", "))" : "inconnues : \(unknown.joined(separator: ", "))") ; attendues : \(Self.required.joined(separator: ", ")) et facultatives : \(Self.optional.joined(separator: ", ")).")
        }
        var rows: [(Int, Result<PersonValues, AdminError>)] = []
        for (index, raw) in table.rows.enumerated() {
            let row = Dictionary(uniqueKeysWithValues: raw.map { ($0.key.trimmingCharacters(in: .whitespaces).lowercased(), $0.value) })
            if row.values.allSatisfy({ $0.trimmingCharacters(in: .whitespaces).isEmpty }) { continue }
            rows.append((index + 2, Result { () throws(AdminError) in try PersonValues(row: row) }))
        }
        self.rows = rows
    }
}

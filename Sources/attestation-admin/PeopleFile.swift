import AttestationKit
import Foundation
import SwiftCSV

/// The people of a CSV file as a French office worker saves it from LibreOffice or Excel:
/// French or English column titles (case, accents, spaces and punctuation ignored), UTF-8 with
/// or without BOM, UTF-16 with BOM (Excel's "Unicode text"), or Windows-1252 (both programs'
/// "CSV" on a French Windows); comma, semicolon or tab separated; a zip code whose leading zero
/// the spreadsheet ate; reasons separated by spaces, `|`, commas or semicolons inside the cell.
/// Rows keep their line numbers in the file (the titles are line 1).
struct PeopleFile {
    struct Row {
        let line: Int
        let values: Result<PersonValues, AdminError>
        /// How messages name this row's cells.
        let origin: ValueOrigin
        /// What was corrected and should be checked (a zip code padded back), with its place.
        let warnings: [String]
    }

    let rows: [Row]
    /// How the file was read, when the administrator should know (its encoding).
    let notes: [String]

    /// - Parameter needsReasons: whether the reasons column must be there; a paper attestation
    ///   leaves the reasons to be ticked by hand, so its file may have none.
    init(path: String, needsReasons: Bool = true) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw AdminError.data("\(path) : fichier introuvable ou illisible.")
        }
        let (text, encodingNote) = try Self.decode(data, path: path)
        notes = encodingNote.map { ["\(path) : \($0)"] } ?? []
        // SwiftCSV ends a row at "\n" only; "\r\n" is a single Character to Swift.
        let unixText = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        let table: CSV<Enumerated>
        do { table = try CSV<Enumerated>(string: unixText) } catch {
            throw AdminError.data(
                "\(path) : CSV illisible (\(error)) ; une ligne de titres puis une personne par ligne sont attendues.")
        }
        let columns = try Self.columns(
            table.header, path: path, rows: table.rows,
            required: needsReasons ? Column.required : Column.required.filter { $0 != .reasons })

        var rows: [Row] = []
        // A quoted cell may hold line breaks: the next row starts that many lines further.
        var line = 2 + table.header.reduce(0) { $0 + $1.count(of: "\n") }
        for cells in table.rows {
            defer { line += 1 + cells.reduce(0) { $0 + $1.count(of: "\n") } }
            if cells.allSatisfy({ $0.trimmingCharacters(in: .whitespaces).isEmpty }) { continue }
            var warnings: [String] = []
            let values = Result { () throws(AdminError) -> PersonValues in
                try Self.person(cells, columns: columns, warn: { warnings.append("\(path), ligne \(line), \($0)") })
            }
            rows.append(
                Row(line: line, values: values, origin: Self.origin(cells, columns: columns), warnings: warnings))
        }
        self.rows = rows
    }

    /// How a message names a row's cell for an option's key (`birth-date`).
    static func origin(_ cells: [String], columns: [Column: (index: Int, title: String)]) -> ValueOrigin {
        .csv { key in
            guard let column = Column(option: key), let place = columns[column] else { return (key, "") }
            return (
                place.title, place.index < cells.count ? cells[place.index].trimmingCharacters(in: .whitespaces) : ""
            )
        }
    }

    private static func person(
        _ cells: [String], columns: [Column: (index: Int, title: String)], warn: (String) -> Void
    ) throws(AdminError) -> PersonValues {
        func cell(_ column: Column) -> String? {
            guard let index = columns[column]?.index, index < cells.count else { return nil }
            let value = cells[index].trimmingCharacters(in: .whitespaces)
            return value.isEmpty ? nil : value
        }
        var zip = cell(.zip)
        if let four = zip, four.count == 4, four.allSatisfy({ $0.isASCII && $0.isNumber }) {
            zip = "0" + four
            warn(
                "colonne « \(columns[.zip]!.title) » : code postal « \(four) » complété en « 0\(four) » (le tableur avait retiré "
                    + "le zéro initial) ; vérifiez-le, et donnez à cette colonne le format Texte dans le tableur.")
        }
        let origin = Self.origin(cells, columns: columns)
        var lock: Bool?
        if let text = cell(.lockReasons) {
            switch text.folded {
            case "oui", "o", "yes", "y", "true", "vrai", "1", "x": lock = true
            case "non", "n", "no", "false", "faux", "0": lock = false
            default: throw .data(origin.message("lock-reasons", "« oui » ou « non » attendu."))
            }
        }
        // Codes are lowercase ASCII: `Santé` in a cell is `sante`.
        let reasons = (cell(.reasons) ?? "").split(whereSeparator: { " |,;\t".contains($0) }).map { String($0).folded }
        return PersonValues(
            firstName: cell(.firstName), lastName: cell(.lastName), birthDate: cell(.birthDate),
            birthPlace: cell(.birthPlace),
            address: cell(.address), zip: zip, city: cell(.city), reasons: reasons, form: cell(.form),
            context: cell(.context), expires: cell(.expires),
            timeZone: cell(.timeZone), lockReasons: lock)
    }

    // MARK: Columns

    /// A column of the file, known by several titles.
    enum Column: String, CaseIterable {
        case firstName = "first_name"
        case lastName = "last_name"
        case birthDate = "birth_date"
        case birthPlace = "birth_place"
        case address, zip, city, reasons
        case form, context, expires
        case timeZone = "time_zone"
        case lockReasons = "lock_reasons"

        static let required: [Column] = [
            .firstName, .lastName, .birthDate, .birthPlace, .address, .zip, .city, .reasons,
        ]

        /// The French title a spreadsheet would use.
        var french: String {
            switch self {
            case .firstName: "prénom"
            case .lastName: "nom"
            case .birthDate: "date de naissance"
            case .birthPlace: "lieu de naissance"
            case .address: "adresse"
            case .zip: "code postal"
            case .city: "ville"
            case .reasons: "motifs"
            case .form: "formulaire"
            case .context: "contexte"
            case .expires: "expiration"
            case .timeZone: "fuseau horaire"
            case .lockReasons: "motifs imposés"
            }
        }

        /// Titles as compared: lowercase, without accents, spaces or punctuation.
        var titles: Set<String> {
            let others: [String] =
                switch self {
                case .firstName: ["firstname", "prenom", "prenoms", "givenname"]
                case .lastName: ["lastname", "nom", "nomdefamille", "surname", "familyname"]
                case .birthDate: ["birthdate", "datedenaissance", "datenaissance", "dateofbirth", "nele", "neele"]
                case .birthPlace: ["birthplace", "lieudenaissance", "lieunaissance", "placeofbirth", "nea", "neea"]
                case .address: ["address", "adresse", "street"]
                case .zip: ["zip", "zipcode", "postalcode", "postcode", "codepostal", "cp"]
                case .city: ["city", "ville", "commune", "town"]
                case .reasons: ["reasons", "reason", "motifs", "motif"]
                case .form: ["form", "formulaire"]
                case .context: ["context", "contexte"]
                case .expires: ["expires", "expiry", "expiration", "expire", "expirele", "validite"]
                case .timeZone: ["timezone", "fuseau", "fuseauhoraire", "tz"]
                case .lockReasons: ["lockreasons", "motifsimposes", "motifsverrouilles"]
                }
            return Set(others + [rawValue.titleKey])
        }

        /// The option holding the same value on the command line (`birth-date`), and back.
        var option: String {
            switch self {
            case .reasons: "reason"
            default: rawValue.replacingOccurrences(of: "_", with: "-")
            }
        }

        init?(option: String) {
            guard let column = Column.allCases.first(where: { $0.option == option }) else { return nil }
            self = column
        }

        init?(title: String) {
            let key = title.titleKey
            guard let column = Column.allCases.first(where: { $0.titles.contains(key) }) else { return nil }
            self = column
        }
    }

    static func acceptedColumns(required: [Column]) -> String {
        let optional = Column.allCases.filter { !required.contains($0) }
        return """
            colonnes attendues, en français ou en anglais (majuscules, accents et espaces indifférents) : \
            \(required.map { "\($0.french) (\($0.rawValue))" }.joined(separator: ", ")) ; \
            facultatives : \(optional.map { "\($0.french) (\($0.rawValue))" }.joined(separator: ", ")).
            """
    }

    private static func columns(
        _ header: [String], path: String, rows: [[String]], required: [Column]
    ) throws -> [Column: (index: Int, title: String)] {
        let acceptedColumns = acceptedColumns(required: required)
        var found: [Column: (index: Int, title: String)] = [:]
        var unknown: [String] = []
        for (index, raw) in header.enumerated() {
            let title = raw.trimmingCharacters(in: .whitespaces)
            if title.isEmpty {
                // A trailing separator gives an untitled column; it may stay if it holds nothing.
                if rows.contains(where: { index < $0.count && !$0[index].trimmingCharacters(in: .whitespaces).isEmpty })
                {
                    throw AdminError.data(
                        "\(path), ligne 1 : la colonne \(index + 1) n’a pas de titre mais contient des valeurs ; \(acceptedColumns)"
                    )
                }
                continue
            }
            guard let column = Column(title: title) else {
                unknown.append(title)
                continue
            }
            if let previous = found[column] {
                throw AdminError.data(
                    "\(path), ligne 1 : colonnes « \(previous.title) » et « \(title) » en double (la même valeur : \(column.french)) ; gardez-en une."
                )
            }
            found[column] = (index, title)
        }
        let missing = required.filter { found[$0] == nil }
        guard unknown.isEmpty, missing.isEmpty else {
            var problems: [String] = []
            if !unknown.isEmpty {
                problems.append("colonne(s) inconnue(s) : \(unknown.map { "« \($0) »" }.joined(separator: ", "))")
            }
            if !missing.isEmpty {
                problems.append("colonne(s) manquante(s) : \(missing.map(\.french).joined(separator: ", "))")
            }
            throw AdminError.data("\(path), ligne 1 : \(problems.joined(separator: " ; ")) ; \(acceptedColumns)")
        }
        return found
    }

    // MARK: Encodings

    static let saveAsUTF8 = """
        enregistrez-le en UTF-8 : dans LibreOffice Calc, Fichier > Enregistrer sous, type « Texte CSV », \
        cochez « Éditer les paramètres du filtre » puis choisissez le jeu de caractères « Unicode (UTF-8) » ; \
        dans Excel, Fichier > Enregistrer sous, type « CSV UTF-8 (délimité par des virgules) ».
        """

    /// The text, and a note when it was not UTF-8. Written here because Foundation's guess,
    /// `String(contentsOfFile:usedEncoding:)`, refuses the Windows-1252 file LibreOffice saves
    /// (checked on this machine: "The file isn’t in the correct format"). Windows-1252 is the
    /// only other encoding both spreadsheets write by default on a French system, and bytes
    /// that are not UTF-8 are almost never anything else there; its five unassigned bytes, or a
    /// NUL, mean another encoding: refused, with how to save as UTF-8.
    static func decode(_ data: Data, path: String) throws -> (String, String?) {
        let bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            guard let text = String(validating: bytes.dropFirst(3), as: UTF8.self) else {
                throw AdminError.data("\(path) : marqué UTF-8 (BOM) mais ne l’est pas ; \(saveAsUTF8)")
            }
            return (text, nil)
        }
        for (bom, encoding, name) in [
            ([UInt8(0xFF), 0xFE], String.Encoding.utf16LittleEndian, "UTF-16"),
            ([0xFE, 0xFF], .utf16BigEndian, "UTF-16"),
        ] where bytes.starts(with: bom) {
            guard let text = String(data: Data(bytes.dropFirst(2)), encoding: encoding) else {
                throw AdminError.data("\(path) : marqué \(name) mais illisible ; \(saveAsUTF8)")
            }
            return (text, "lu en \(name).")
        }
        guard !bytes.contains(0) else {
            throw AdminError.data("\(path) : fichier binaire ou dans un codage inconnu (octet nul) ; \(saveAsUTF8)")
        }
        if let text = String(validating: bytes, as: UTF8.self) { return (text, nil) }
        let unassigned: Set<UInt8> = [0x81, 0x8D, 0x8F, 0x90, 0x9D]
        guard !bytes.contains(where: unassigned.contains), let text = String(data: data, encoding: .windowsCP1252)
        else {
            throw AdminError.data("\(path) : ni UTF-8 ni Windows-1252 ; \(saveAsUTF8)")
        }
        return (
            text,
            "pas en UTF-8 : lu en Windows-1252 (le « CSV » par défaut d’Excel et de LibreOffice sous Windows) ; "
                + "vérifiez les accents dans la sortie, ou \(saveAsUTF8)"
        )
    }
}

extension String {
    /// Lowercase, without accents (`Santé` → `sante`).
    var folded: String { folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).lowercased() }

    /// A column title as compared: folded, letters and digits only (`Date de naissance` → `datedenaissance`).
    var titleKey: String {
        String(folded.unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) }.map(Character.init))
    }

    func count(of character: Character) -> Int { reduce(0) { $1 == character ? $0 + 1 : $0 } }
}

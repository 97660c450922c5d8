import Foundation
import LinkTokens

/// What was minted, for the administrator: `links.jsonl` beside the configuration, one JSON
/// object a line (id, names, form, reasons, expiry, when minted; never the token, so the file
/// cannot make attestations), readable by its owner only. `links` lists it, `revoke --name`
/// finds a link's id through it. It stays on the administrator's machine: the server never
/// reads it.
struct LinkRegister {
    struct Entry: Codable, Equatable {
        let id: String
        let firstName: String
        let lastName: String
        /// The pinned form; nil for a link that follows the calendar.
        let form: String?
        let reasons: [String]
        let lockReasons: Bool
        /// The link's time zone: its dates are shown there.
        let timeZone: String
        let expiresAt: Date?
        let mintedAt: Date
        let keyID: String

        var fullName: String { "\(firstName) \(lastName)" }

        private enum CodingKeys: String, CodingKey {
            case id, firstName, lastName, form, reasons, lockReasons, timeZone, expiresAt, mintedAt, keyID
        }

        /// Every key on every line: `"form": null` says the link follows the calendar.
        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(id, forKey: .id)
            try c.encode(firstName, forKey: .firstName)
            try c.encode(lastName, forKey: .lastName)
            try c.encode(form, forKey: .form)
            try c.encode(reasons, forKey: .reasons)
            try c.encode(lockReasons, forKey: .lockReasons)
            try c.encode(timeZone, forKey: .timeZone)
            try c.encodeIfPresent(expiresAt, forKey: .expiresAt)
            try c.encode(mintedAt, forKey: .mintedAt)
            try c.encode(keyID, forKey: .keyID)
        }

        init(contents: LinkContents, keyID: String) {
            id = contents.id.description
            (firstName, lastName) = (contents.identity.firstName, contents.identity.lastName)
            form = contents.formID
            reasons = contents.reasons
            lockReasons = contents.lockReasons
            timeZone = contents.timeZone ?? "Europe/Paris"
            expiresAt = contents.expiresAt
            mintedAt = contents.issuedAt
            self.keyID = keyID
        }

        /// Whether `query` names this person: case, accents and spaces aside, first name then
        /// last name or the reverse.
        func isNamed(_ query: String) -> Bool {
            let wanted = query.nameKey
            return wanted == fullName.nameKey || wanted == "\(lastName) \(firstName)".nameKey
        }

        /// Whether `query` is part of the name, case and accents aside.
        func nameContains(_ query: String) -> Bool {
            let wanted = query.nameKey
            return wanted.isEmpty || fullName.nameKey.contains(wanted)
                || "\(lastName) \(firstName)".nameKey.contains(wanted)
        }
    }

    static let fileName = "links.jsonl"

    let file: URL

    /// The register of the configuration in `configurationFile`: beside it.
    init(configurationFile: URL) {
        file = configurationFile.deletingLastPathComponent().appendingPathComponent(Self.fileName)
    }

    /// Appends the entries in one write to the end of the file (`O_APPEND`, under a lock, then
    /// `fsync`): entries already there are never rewritten, so a crash can at worst leave the
    /// last line incomplete, which `read` reports and skips, and the next append starts on a
    /// line of its own.
    func append(_ entries: [Entry]) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        var bytes: [UInt8] = []
        for entry in entries {
            bytes += try encoder.encode(entry)
            bytes.append(UInt8(ascii: "\n"))
        }
        let cannotWrite = AdminError.cannotCreate(
            "impossible d’écrire le registre des liens \(file.path) ; aucun lien n’a été remis (vérifiez les droits du dossier de la configuration)."
        )
        // Read and write: the last byte is read to know whether the previous append ended its line.
        let descriptor = open(file.path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw cannotWrite }
        defer { close(descriptor) }
        guard flock(descriptor, LOCK_EX) == 0 else { throw cannotWrite }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw cannotWrite }
        // A register copied with looser permissions is made private again: it names people.
        if status.st_mode & 0o077 != 0 { _ = fchmod(descriptor, 0o600) }
        if status.st_size > 0 {
            var last: UInt8 = 0
            if pread(descriptor, &last, 1, status.st_size - 1) == 1, last != UInt8(ascii: "\n") {
                bytes.insert(UInt8(ascii: "\n"), at: 0)
            }
        }
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw cannotWrite }
            written += count
        }
        guard fsync(descriptor) == 0 else { throw cannotWrite }
    }

    /// The entries in order, and the lines that could not be read (`ligne 3 : …`).
    func read() throws -> (entries: [Entry], problems: [String]) {
        guard FileManager.default.fileExists(atPath: file.path) else { return ([], []) }
        guard let data = FileManager.default.contents(atPath: file.path) else {
            throw AdminError.data("\(file.path) : registre des liens illisible (permissions ?).")
        }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        var entries: [Entry] = []
        var problems: [String] = []
        let lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        for (index, line) in lines.enumerated() where !line.isEmpty {
            if index == lines.count - 1 {
                problems.append(
                    "\(file.path), ligne \(index + 1) : dernière ligne incomplète (écriture interrompue), ignorée.")
            } else if let entry = try? decoder.decode(Entry.self, from: Data(line)) {
                entries.append(entry)
            } else {
                problems.append("\(file.path), ligne \(index + 1) : entrée illisible, ignorée.")
            }
        }
        return (entries, problems)
    }
}

extension String {
    /// A name as compared: folded, words separated by single spaces.
    var nameKey: String { folded.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ") }
}

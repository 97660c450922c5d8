import Foundation

/// The ids of revoked links: a plain text file, one id per line, `#` starting a comment.
public struct RevocationList: Sendable {
    public let ids: Set<LinkID>

    public static let empty = RevocationList(ids: [])

    public init(ids: Set<LinkID>) { self.ids = ids }

    /// Parses the file; a line that is neither blank, a comment nor an id is an error naming it.
    public init(parsing text: String) throws(RevocationListError) {
        var ids = Set<LinkID>()
        // "\r\n" is one Character in Swift: split on any line break, not on "\n".
        for (index, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty else { continue }
            guard let id = LinkID(trimmed) else { throw RevocationListError(line: index + 1) }
            ids.insert(id)
        }
        self.ids = ids
    }

    public func contains(_ id: LinkID) -> Bool { ids.contains(id) }

    /// The line to append to the file for `id`.
    public static func line(for id: LinkID, comment: String? = nil) -> String {
        comment.map { "\(id)  # \($0)\n" } ?? "\(id)\n"
    }
}

public struct RevocationListError: Error, Sendable, Equatable, CustomStringConvertible {
    public let line: Int

    public var description: String {
        "ligne \(line) : identifiant de lien invalide ; 16 caractères A-Z a-z 0-9 - _ par ligne attendus (# pour un commentaire)."
    }
}

import Foundation

/// The ids of revoked links: a plain text file, one id per line, `#` starting a comment.
public struct RevocationList: Sendable {
    public let ids: Set<LinkID>

    public static let empty = RevocationList(ids: [])

    /// The largest file read: about 480,000 ids without comments, 170,000 with a short one each.
    /// A list is read whole at each reload, so a runaway file must not stall or bloat the server.
    public static let maxFileBytes = 8 << 20

    public init(ids: Set<LinkID>) { self.ids = ids }

    /// Parses the file; a line that is neither blank, a comment nor an id is an error naming it.
    public init(parsing text: String) throws(RevocationListError) {
        try self.init(parsing: Array(text.utf8))
    }

    /// Parses the file's bytes. Lines end with LF, CRLF or CR; comments may hold any bytes.
    public init(parsing bytes: [UInt8]) throws(RevocationListError) {
        var ids = Set<LinkID>()
        var line = 1
        var index = 0
        let count = bytes.count
        while index < count {
            var end = index
            while end < count, bytes[end] != 0x0A, bytes[end] != 0x0D { end += 1 }
            var content = index
            var contentEnd = end
            if let hash = bytes[index..<end].firstIndex(of: UInt8(ascii: "#")) { contentEnd = hash }
            while content < contentEnd, Self.isSpace(bytes[content]) { content += 1 }
            while contentEnd > content, Self.isSpace(bytes[contentEnd - 1]) { contentEnd -= 1 }
            if content < contentEnd {
                guard let id = LinkID(text: bytes[content..<contentEnd]) else { throw RevocationListError(line: line) }
                ids.insert(id)
            }
            // CRLF is one line end; a lone CR (old Mac editors) is one too.
            if end < count, bytes[end] == 0x0D, end + 1 < count, bytes[end + 1] == 0x0A { end += 1 }
            index = end + 1
            line += 1
        }
        self.ids = ids
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0B || byte == 0x0C }

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

import Foundation
import Testing

@testable import LinkTokens

@Suite("Revocation list and link ids")
struct RevocationListTests {
    static let a = LinkID("AAAAAAAAAAAAAAAA")!
    static let b = LinkID("abcdefghij-_0123")!
    static let c = LinkID("ZZZZZZZZZZZZZZZZ")!

    @Test func idsOnePerLine() throws {
        let list = try RevocationList(parsing: "\(Self.a)\n\(Self.b)\n")
        #expect(list.ids == [Self.a, Self.b])
        #expect(list.contains(Self.a))
        #expect(!list.contains(Self.c))
    }

    @Test func commentsBlankLinesAndSpaces() throws {
        let text = """
            # Liens révoqués — un identifiant par ligne

            \(Self.a)
              \(Self.b)   # perdu le 12/11
            \t
            #\(Self.c)
            """
        let list = try RevocationList(parsing: text)
        #expect(list.ids == [Self.a, Self.b], "the commented-out id stays valid")
    }

    @Test func withoutFinalNewline() throws {
        #expect(try RevocationList(parsing: "\(Self.a)").ids == [Self.a])
        #expect(try RevocationList(parsing: "").ids.isEmpty)
        #expect(try RevocationList(parsing: "\n\n# rien\n").ids.isEmpty)
    }

    @Test func appendedLinesParseBack() throws {
        let text = RevocationList.line(for: Self.a) + RevocationList.line(for: Self.b, comment: "départ de l’équipe")
        #expect(text == "\(Self.a)\n\(Self.b)  # départ de l’équipe\n")
        #expect(try RevocationList(parsing: text).ids == [Self.a, Self.b])
    }

    /// A list edited on Windows: CRLF line ends.
    @Test func crlfLineEnds() throws {
        let list = try RevocationList(parsing: "\(Self.a)\r\n\(Self.b)\r\n")
        #expect(list.ids == [Self.a, Self.b])
    }

    /// A list edited on Windows with a comment header: the revoked ids must still be revoked.
    @Test func crlfLineEndsAfterAComment() throws {
        let list = try RevocationList(parsing: "# révoqués\r\n\(Self.a)\r\n\(Self.b)  # perdu\r\n")
        #expect(list.contains(Self.a))
        #expect(list.contains(Self.b))
    }

    @Test func crlfInvalidLineIsNumbered() {
        #expect(throws: RevocationListError(line: 2)) {
            try RevocationList(parsing: "\(Self.a)\r\nnot-an-id\r\n\(Self.b)\r\n")
        }
    }

    @Test(arguments: [
        ("oops", 1), ("\(a)\noops", 2), ("# c\n\n\(a)\nAAAAAAAAAAAAAAA\n", 4), ("\(a)\n\(b)\n\n\n\(a) \(b)\n", 5),
        ("\(a)\nAAAAAAAAAAAAAAAAA", 2), ("AAAAAAAAAAAAAAA=", 1), ("AAAAAAAA+AAAAAAA", 1), ("AAAAAAAAAAAAAAAA,", 1),
        ("\n\n\n\n\n\n\n\n\n\nxx # dix", 11),
    ])
    func invalidLineThrowsWithItsNumber(text: String, line: Int) {
        #expect(throws: RevocationListError(line: line)) { try RevocationList(parsing: text) }
        let error = RevocationListError(line: line)
        #expect(error.description.hasPrefix("ligne \(line) :"))
    }

    // MARK: LinkID

    @Test func descriptionIsSixteenURLSafeCharactersAndParsesBack() {
        for _ in 0..<200 {
            let id = LinkID.random()
            #expect(id.bytes.count == 12)
            #expect(id.description.count == 16)
            #expect(id.description.allSatisfy { base64URLAlphabet.contains($0) })
            #expect(LinkID(id.description) == id)
        }
    }

    @Test func randomIDsDiffer() {
        let ids = (0..<10_000).map { _ in LinkID.random() }
        #expect(Set(ids).count == ids.count)
        // 96 random bits: every byte value shows up somewhere among 120 000 bytes.
        #expect(Set(ids.flatMap(\.bytes)).count == 256)
    }

    @Test(arguments: [
        "", "AAAAAAAAAAAAAAA", "AAAAAAAAAAAAAAAAA", "AAAAAAAAAAAAAAA=", "AAAAAAAA+AAAAAAA",
        "AAAAAAAA/AAAAAAA", " AAAAAAAAAAAAAAA", "AAAAAAAAAAAAAAAé", "AAAAAAAAAAAAAA\u{301}A",
    ])
    func invalidLinkIDTextIsRefused(text: String) {
        #expect(LinkID(text) == nil)
    }

    @Test func linkIDBytesMustBeTwelve() {
        #expect(LinkID(bytes: Array(repeating: 0, count: 11)) == nil)
        #expect(LinkID(bytes: Array(repeating: 0, count: 13)) == nil)
        #expect(LinkID(bytes: Array(repeating: 0, count: 12))?.description == "AAAAAAAAAAAAAAAA")
        #expect(LinkID(bytes: Array(repeating: 0xFF, count: 12))?.description == "________________")
    }
}

import Foundation
import Testing

@testable import LinkTokens

@Suite("Revocation list, read as bytes")
struct RevocationListBytesTests {
    /// The list's own decoder of ids agrees with the token codec on every 16-character text.
    @Test func idsDecodeAsTheTokenCodecDoes() {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_=+/ .")
        for _ in 0..<5_000 {
            let text = String((0..<16).map { _ in alphabet.randomElement()! })
            #expect(LinkID(text)?.bytes == Base64URL.decode(text), "\(text)")
        }
        for _ in 0..<1_000 {
            let id = LinkID.random()
            #expect(LinkID(id.description) == id)
        }
    }

    /// Comments are the administrator's free text, in whatever encoding their editor saved.
    @Test func commentsMayHoldAnyBytes() throws {
        let id = LinkID.random()
        let bytes = Array("# H".utf8) + [0xE9, 0xFF] + Array("lène\n\(id)  # d".utf8) + [0xE9] + Array("part\r".utf8)
        #expect(try RevocationList(parsing: bytes).ids == [id])
    }

    /// Old Mac editors end lines with a lone CR: each is a line of its own.
    @Test func aLoneCarriageReturnEndsALine() throws {
        let a = LinkID.random()
        let b = LinkID.random()
        #expect(try RevocationList(parsing: "\(a)\r\(b)\r").ids == [a, b])
        #expect(throws: RevocationListError(line: 3)) { try RevocationList(parsing: "\(a)\r\r\(b)x\r") }
    }
}

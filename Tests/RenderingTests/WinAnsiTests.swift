import AttestationKit
import FormSchema
import Foundation
import Testing

@testable import Rendering

@Suite("WinAnsi")
struct WinAnsiTests {
    @Test("Windows-1252 bytes of French and typographic characters")
    func encode() {
        #expect(WinAnsi.encode("é") == [0xE9])
        #expect(WinAnsi.encode("’") == [0x92])
        #expect(WinAnsi.encode("œ") == [0x9C])
        #expect(WinAnsi.encode("Œ") == [0x8C])
        #expect(WinAnsi.encode("€") == [0x80])
        #expect(WinAnsi.encode("–") == [0x96])
        #expect(WinAnsi.encode("«ÿ»") == [0xAB, 0xFF, 0xBB])
        #expect(WinAnsi.encode("Né(e) le :") == [0x4E, 0xE9, 0x28, 0x65, 0x29, 0x20, 0x6C, 0x65, 0x20, 0x3A])
        #expect(WinAnsi.encode("") == [])
    }

    @Test("characters outside Windows-1252 have no encoding")
    func outside() {
        #expect(WinAnsi.encode("Ł") == nil)
        #expect(WinAnsi.encode("Łukasz") == nil)
        #expect(WinAnsi.encode("Nguyễn") == nil)
        #expect(WinAnsi.encode("\u{81}") == nil, "0x81 is undefined in Windows-1252")
        #expect(WinAnsi.encode("a\nb") == nil, "control characters are not text")
        #expect(WinAnsi.encode("🙂") == nil)
    }
}

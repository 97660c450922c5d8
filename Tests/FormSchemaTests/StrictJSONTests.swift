import AttestationKit
import Foundation
import TestSupport
import Testing

@testable import FormSchema

@Suite("Strict JSON")
struct StrictJSONTests {
    /// Why StrictJSON reads the syntax itself: Foundation's parser on Linux takes these.
    @Test(arguments: ["[1,]", #"{"a": 1,}"#, #"{"a": 1, "a": 2}"#])
    func foundationAcceptsWhatStrictJSONRefuses(text: String) throws {
        #expect((try? JSONSerialization.jsonObject(with: Data(text.utf8))) != nil)
        #expect(throws: StrictJSON.Failure.self) { try StrictJSON.parse(Data(text.utf8)) }
    }

    func failure(_ text: String) -> StrictJSON.Failure? {
        do {
            _ = try StrictJSON.parse(Data(text.utf8))
            Issue.record("accepted: \(text)")
            return nil
        } catch {
            return error
        }
    }

    @Test func aTrailingCommaInAnArrayIsNamedWithItsLineAndColumn() throws {
        let error = try #require(failure("{\n  \"lines\": [\n    \"a\",\n  ]\n}"))
        #expect(error.line == 4)
        #expect(error.column == 3)
        #expect(error.path == "lines")
        #expect(error.message.contains("virgule en trop avant « ] »"))
    }

    @Test func aTrailingCommaInAnObjectIsRefused() throws {
        let error = try #require(failure("{\"page\": {\"width\": 595,\n \"height\": 842, }}"))
        #expect(error.path == "page")
        #expect((error.line, error.column) == (2, 17))
        #expect(error.message.contains("« } »"))
    }

    @Test func aKeyTwiceIsRefusedAtItsSecondPlace() throws {
        let error = try #require(failure("{\"id\": \"a\",\n\"id\": \"b\"}"))
        #expect(error.path == "id")
        #expect((error.line, error.column) == (2, 1))
        #expect(error.message.contains("en double"))
    }

    /// Columns count characters, not bytes: "é" is one.
    @Test func columnsCountCharacters() throws {
        let error = try #require(failure("{\"é\": tru}"))
        #expect((error.line, error.column) == (1, 7))
    }

    @Test(arguments: [
        ("{\"a\": 01}", "zéro en tête"),
        ("// note\n{}", "commentaire"),
        ("{\"a\": \"x\ny\"}", "saut de ligne dans un texte"),
        ("{\"a\": \"\\ud800\"}", "demi-caractère"),
        ("{\"a\": \"\\q\"}", "échappement"),
        ("{'a': 1}", "guillemets droits"),
        ("{\"a\": True}", "true, false ou null"),
        ("{} {}", "un seul objet"),
        ("", "document vide"),
        ("{\"a\": [1, 2}", "« , » ou « ] »"),
    ])
    func aSyntaxErrorSaysWhatIsAccepted(text: String, expected: String) throws {
        let error = try #require(failure(text))
        #expect(error.message.contains(expected), "\(error.message)")
        #expect(error.line != nil && error.column != nil)
    }

    @Test func bytesThatAreNotUTF8AreRefused() throws {
        let error = #expect(throws: StrictJSON.Failure.self) {
            try StrictJSON.parse(Data([0x7B, 0x22, 0xE9, 0x22, 0x3A, 0x31, 0x7D]))
        }
        #expect(try #require(error).message.contains("UTF-8"))
    }

    @Test func aByteOrderMarkIsSkipped() throws {
        let document = try StrictJSON.parse(
            Data([0xEF, 0xBB, 0xBF] + Array("{\"a\": [1, 2.5e3, true, null, \"\\u00e9\\ud83d\\ude00\"]}".utf8)))
        #expect(document.value["a"] == .array([.number("1"), .number("2.5e3"), .bool(true), .null, .string("é😀")]))
    }

    @Test func nestingDeeperThanTheLimitIsRefusedWithoutExhaustingTheStack() throws {
        let error = try #require(failure(String(repeating: "[", count: 10_000)))
        #expect(error.message.contains("imbrication"))
    }

    /// Decoding errors say the expected type in French, never a Swift type name.
    @Test func typeErrorsNameNoSwiftType() throws {
        struct Thing: Codable {
            let list: [Int]
            let object: [String: Int]
        }
        for text in [#"{"list": 3, "object": {}}"#, #"{"list": [], "object": 3}"#, #"{"list": [1e400], "object": {}}"#]
        {
            do {
                _ = try StrictJSON.decode(Thing.self, from: Data(text.utf8))
                Issue.record("accepted: \(text)")
            } catch {
                for swift in ["Array", "Dictionary", "Int", "Swift", "Cannot", "expected"] {
                    #expect(!error.message.contains(swift), "\(error.message)")
                }
            }
        }
    }
}

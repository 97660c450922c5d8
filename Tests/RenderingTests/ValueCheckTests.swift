import AttestationKit
import FormSchema
import TestSupport
import Testing

@testable import Rendering

/// `ValueCheck`: what `mint` refuses is exactly what the renderer would draw as an empty box, or
/// leave empty in the QR code, form by form.
@Suite("Values a form can write")
struct ValueCheckTests {
    static let forms = FormCatalog.builtIn.forms

    /// DejaVu Sans has every character of Windows-1252: a value with one character outside it
    /// is drawn whole with DejaVu Sans, and loses none of the others.
    @Test func everyWindows1252CharacterIsDrawnByEitherFont() throws {
        let check = ValueCheck()
        // The soft hyphen is a format character, refused by Identity itself.
        let characters = (0x21...0xFF).compactMap { WinAnsiText.decode(UInt8($0)) }.filter { $0 != "\u{AD}" }
        #expect(characters.count == 216)
        for form in Self.forms {
            for start in stride(from: 0, to: characters.count, by: 45) {
                let chunk = String(String.UnicodeScalarView(characters[start..<min(start + 45, characters.count)]))
                // After A: the form's standard font. After Ł: the whole value in DejaVu Sans.
                for prefix in ["A", "Ł"] {
                    let identity = try Fixture.identity(first: prefix + chunk)
                    #expect(try check.problem(with: identity, on: form) == nil, "\(form.id): \(prefix + chunk)")
                }
            }
        }
    }

    @Test func aCharacterNoFontHasIsNamedWithItsField() throws {
        let check = ValueCheck()
        for form in Self.forms {
            let problem = try check.problem(with: try Fixture.identity(city: "Pékin 北京"), on: form)
            #expect(problem == IdentityError(field: .city, problem: .notDrawable("北", form: form.id)), "\(form.id)")
            #expect(problem?.description.hasPrefix("ville : « 北 » (U+5317) ne peut pas être écrit") == true)
        }
    }

    @Test func aValueTheQRCodeWouldLeaveEmptyIsNamed() throws {
        let check = ValueCheck()
        for form in Self.forms {
            let problem = try check.problem(with: try Fixture.identity(first: "😀 ☺"), on: form)
            #expect(problem == IdentityError(field: .firstName, problem: .emptyInQRCode("😀", form: form.id)))
            #expect(try check.problem(with: try Fixture.identity(first: "Zoé 😀"), on: form) == nil, "not empty")
        }
    }

    /// The Unicode font is read only when a value needs it; missing then, it is an error.
    @Test func theUnicodeFontIsReadOnlyWhenNeeded() throws {
        let check = ValueCheck(unicodeFontPath: "/nonexistent/font.ttf")
        let form = FormCatalog.builtIn.defaultForm
        #expect(try check.problem(with: try Fixture.identity(first: "Éloïse"), on: form) == nil)
        #expect(throws: RenderingError.unicodeFont(path: "/nonexistent/font.ttf")) {
            try check.problem(with: try Fixture.identity(first: "Łukasz"), on: form)
        }
    }
}

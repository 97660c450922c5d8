import Foundation
import Testing

@testable import FormSchema

/// A form holds its fonts and pictures (Luciole's four files, the logos: about a megabyte), and
/// Swift Testing reflects, at every depth, each value an expectation sees: the error caught by
/// `#expect(throws:)`, whether the check passes or not. Three tests catching an error that names
/// a drawn form of 2021 took 85 s of CPU (debug) writing those bytes out as text, 83 % of
/// ConfigurationTests under the address sanitizer (perf). A form, its fonts and its pictures
/// reflect as what names them.
@Suite struct FormReflectionTests {
    static let drawn = FormCatalog.builtIn.form(id: "deplacement-2021-06-10")!

    @Test func aFormReflectsAsItsIdAndNameNotItsFontsAndPictures() throws {
        let form = Self.drawn
        try #require(!form.fonts.isEmpty && !form.images.isEmpty)
        #expect(Mirror(reflecting: form).children.map(\.label) == ["id", "name"])
        #expect(String(reflecting: form) == "Form(deplacement-2021-06-10)")
        // What Swift Testing and `dump` write of a value holding one.
        let held = String(reflecting: [form, form])
        #expect(held.count < 100, "\(held.prefix(200))")
    }

    @Test func aFontOrPictureReflectsAsItsFileNotItsBytes() throws {
        let font = try #require(Self.drawn.fonts.first)
        let image = try #require(Self.drawn.images.first)
        #expect(String(reflecting: font) == "FontFile(\(font.name), \(font.fileName), \(font.bytes.count) octets)")
        #expect(Mirror(reflecting: font).children.map(\.label) == ["name", "fileName"])
        #expect(String(reflecting: image).count < 100)
        #expect(!Mirror(reflecting: image).children.contains { $0.label == "bytes" })
    }
}

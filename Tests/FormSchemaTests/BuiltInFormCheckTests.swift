import Foundation
import Testing

@testable import FormSchema

/// The built-in documents are decoded without the checks of a file written by hand at each
/// process's start (`FormCatalog.decodeForms`, `checked`): here, once, they pass them all.
@Suite struct BuiltInFormCheckTests {
    @Test("every built-in document passes the checks an added form gets, and builds the same forms")
    func everyBuiltInDocumentPassesTheChecksOfAnAddedForm() throws {
        let catalog = FormCatalog.builtIn
        var checked: [Form] = []
        for document in FormCatalog.builtInDocuments {
            do {
                checked += try FormCatalog.decodeForms(
                    Data(document.bytes), source: document.source, files: .builtIn, checked: true)
            } catch {
                Issue.record("\(document.source): \(error)")
            }
        }
        #expect(checked.map(\.id).sorted() == (catalog.forms + catalog.pendingForms).map(\.id).sorted())
        for form in checked {
            #expect(catalog.anyForm(id: form.id) == form, "\(form.id)")
        }
    }

    /// A built-in document changed three ways (its title run off the page, a key misspelt, a
    /// comma after a last element): each is refused when checked, and as an added copy.
    @Test(
        "a built-in document is not checked at start, an added copy is",
        arguments: [
            (#""x": 42,"#, #""x": 442,"#, "title"),
            (#""title": {"#, #""title": {"lable": 1, "#, "title.lable"),
            (#""x": 42,"#, #""x": 42,,"#, ""),
        ])
    func onlyBuiltInDocumentsSkipTheChecks(original: String, changed: String, path: String) throws {
        let document = try #require(FormCatalog.builtInDocuments.first)
        var json = try #require(String(bytes: document.bytes, encoding: .utf8))
        let title = try #require(json.range(of: #""title": {"#))
        let place = try #require(json.range(of: original, range: title.lowerBound..<json.endIndex))
        json.replaceSubrange(place, with: changed)
        let bytes = Data(json.utf8)
        let error = #expect(throws: FormError.self) {
            try FormCatalog.decodeForms(bytes, source: document.source, files: .builtIn, checked: true)
        }
        #expect(error?.path.hasPrefix(path) == true, "\(String(describing: error))")
        #expect(throws: FormError.self) { try FormCatalog.decodeForms(bytes, source: "copie.json") }
        if path != "" {
            // Valid JSON: unchecked, it decodes (a comma too many is not JSON at all).
            #expect(throws: Never.self) {
                try FormCatalog.decodeForms(bytes, source: document.source, files: .builtIn)
            }
        }
    }
}

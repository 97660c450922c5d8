import Foundation
import Testing

@testable import FormSchema

/// The built-in documents are built without the layout checks at each process's start
/// (`FormBuilder.checksLayout`): here, once, they pass them.
@Suite struct BuiltInLayoutTests {
    @Test("every built-in document passes the layout checks an added form gets, and builds the same forms")
    func everyBuiltInDocumentPassesTheLayoutChecks() throws {
        let catalog = FormCatalog.builtIn
        var checked: [Form] = []
        for document in FormCatalog.builtInDocuments {
            do {
                checked += try FormCatalog.decodeForms(
                    Data(document.bytes), source: document.source, files: .builtIn, checksLayout: true)
            } catch {
                Issue.record("\(document.source): \(error)")
            }
        }
        #expect(checked.map(\.id).sorted() == (catalog.forms + catalog.pendingForms).map(\.id).sorted())
        for form in checked {
            #expect(catalog.anyForm(id: form.id) == form, "\(form.id)")
        }
    }

    @Test("a built-in document's layout is not checked at start, an added copy's is")
    func onlyBuiltInDocumentsSkipTheLayoutChecks() throws {
        let document = try #require(FormCatalog.builtInDocuments.first)
        // The title moved right by 400 points: its lines run off the page, which the layout
        // checks refuse.
        var json = try #require(String(bytes: document.bytes, encoding: .utf8))
        let title = try #require(json.range(of: #""title": {"#))
        let x = try #require(json.range(of: #""x": 42,"#, range: title.upperBound..<json.endIndex))
        json.replaceSubrange(x, with: #""x": 442,"#)
        let bytes = Data(json.utf8)
        #expect(throws: FormError.self) {
            try FormCatalog.decodeForms(bytes, source: document.source, files: .builtIn, checksLayout: true)
        }
        #expect(throws: FormError.self) { try FormCatalog.decodeForms(bytes, source: "copie.json") }
        #expect(throws: Never.self) { try FormCatalog.decodeForms(bytes, source: document.source, files: .builtIn) }
    }
}

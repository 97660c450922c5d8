import AttestationKit
import FormSchema
import Foundation
import TestSupport
import Testing

@testable import Rendering

@Suite("Form layout")
struct FormLayoutTests {
    /// A built-in form as JSON, changed by `edit`, decoded and checked as an added form would be.
    private func editedForm(_ formID: String, _ edit: (inout [String: Any]) throws -> Void) throws -> Form {
        let data = try JSONEncoder().encode(try Fixture.form(formID))
        var json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        try edit(&json)
        let edited = try JSONSerialization.data(withJSONObject: json)
        return try FormCatalog.decodeForm(edited, source: "\(formID)-edited.json")
    }

    @Test("the built-in forms re-encoded unchanged lay out without error", arguments: builtInFormIDs)
    func unchangedForm(formID: String) throws {
        let form = try editedForm(formID) { _ in }
        #expect(form == (try Fixture.form(formID)))
        #expect(throws: Never.self) { _ = try AttestationRenderer(forms: [form]) }
    }

    /// Issue 17: such a form passed `forms` and `mint`, then failed at every render; it is now
    /// refused when loaded, naming the reason (the renderer keeps its own check).
    @Test("reasons 3 points apart are refused when the form is loaded", arguments: builtInFormIDs)
    func overlappingReasons(formID: String) throws {
        let error = #expect(throws: FormError.self) {
            _ = try editedForm(formID) { json in
                var reasons = try #require(json["reasons"] as? [[String: Any]])
                let y = try #require(reasons[2]["y"] as? Double)
                reasons[3]["y"] = y - 3
                json["reasons"] = reasons
            }
        }
        let formError = try #require(error)
        #expect(formError.path == "reasons[3].y")
        #expect(formError.message.contains("famille"), "the message names the reason: \(formError.message)")
        // The built-in forms alone are fine.
        #expect(throws: Never.self) { _ = try Fixture.renderer() }
    }
}

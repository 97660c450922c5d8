import AttestationKit
import FormSchema
import Foundation
import TestSupport
import Testing

@testable import Rendering

/// A renderer lays out an added form when it is made (fail closed), a built-in one on its first
/// use (`FormLayoutOnFirstUse`): the 16 built-in forms were most of a server start's cost.
@Suite struct LayoutOnFirstUseTests {
    @Test func aBuiltInFormIsLaidOutOnItsFirstUseAndAnAddedOneWhenTheRendererIsMade() throws {
        var json = try builtInJSONObject(Fixture.form1128ID)
        json["id"] = "copie-ajoutee"
        json["inForce"] = nil
        let added = try FormCatalog.decodeForm(try jsonData(json), source: "copie.json")
        let renderer = try AttestationRenderer(forms: FormCatalog.builtIn.forms + [added])
        let laidOut = { (id: String) in renderer.layouts[id]?.isLaidOut }

        #expect(laidOut("copie-ajoutee") == true)
        for form in FormCatalog.builtIn.forms { #expect(laidOut(form.id) == false, "\(form.id)") }

        let pdf = try renderer.pdf(Fixture.attestation(try Fixture.camille(), formID: Fixture.form1128ID))
        #expect(pdf.starts(with: Array("%PDF-".utf8)))
        #expect(laidOut(Fixture.form1128ID) == true)
        #expect(laidOut(Fixture.form1102ID) == false)
    }

    @Test func preparingLaysOutTheFormsNamedAndNoOther() throws {
        let renderer = try AttestationRenderer(forms: FormCatalog.builtIn.forms)
        try renderer.prepareLayouts(of: [Fixture.form1102ID, "pas-un-formulaire"])
        #expect(renderer.layouts[Fixture.form1102ID]?.isLaidOut == true)
        #expect(renderer.layouts[Fixture.form1128ID]?.isLaidOut == false)
    }

    @Test func threadsAskingForTheSameLayoutAtOnceGetOneLayout() async throws {
        let renderer = try AttestationRenderer(forms: FormCatalog.builtIn.forms)
        let attestation = try Fixture.attestation(try Fixture.camille(), formID: Fixture.form1102ID)
        let documents = try await withThrowingTaskGroup(of: [UInt8].self) { group in
            for _ in 0..<8 { group.addTask { try renderer.pdf(attestation) } }
            return try await group.reduce(into: [[UInt8]]()) { $0.append($1) }
        }
        #expect(documents.count == 8)
        #expect(Set(documents).count == 1, "the same attestation gave different bytes")
    }
}

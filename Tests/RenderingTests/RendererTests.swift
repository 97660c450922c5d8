import AttestationKit
import FormSchema
import Foundation
import TestSupport
import Testing

@testable import Rendering

@Suite("AttestationRenderer")
struct RendererTests {
    @Test("the same attestation gives the same bytes, also rendered from many threads at once")
    func deterministicAndThreadSafe() async throws {
        let renderer = try Fixture.renderer()
        var attestations: [Attestation] = []
        for formID in builtInFormIDs {
            attestations.append(try Fixture.attestation(try Fixture.camille(), formID: formID))
            attestations.append(
                try Fixture.attestation(try Fixture.identity(first: "Łukasz", last: "Wałęsa"), formID: formID))
        }
        let expected = try attestations.map { try renderer.pdf($0) }
        #expect(
            try attestations.map { try renderer.pdf($0) } == expected, "two renderings of the same attestation differ")
        #expect(Set(expected).count == expected.count, "different attestations gave the same PDF")

        let results = try await withThrowingTaskGroup(of: (Int, [UInt8]).self) { group in
            for _ in 0..<8 {
                for (index, attestation) in attestations.enumerated() {
                    group.addTask { (index, try renderer.pdf(attestation)) }
                }
            }
            var all: [(Int, [UInt8])] = []
            for try await result in group { all.append(result) }
            return all
        }
        #expect(results.count == 8 * attestations.count)
        for (index, bytes) in results {
            #expect(
                bytes == expected[index],
                "a concurrent rendering of attestation \(index) differs (\(bytes.count) bytes vs \(expected[index].count))"
            )
        }
    }

    @Test("the Unicode font is needed only for values outside Windows-1252")
    func missingUnicodeFont() throws {
        let path = "/nonexistent/fonts/NoSuchFont.ttf"
        let renderer = try AttestationRenderer(forms: FormCatalog.builtIn.forms, unicodeFontPath: path)
        for formID in builtInFormIDs {
            let latin1 = try Fixture.attestation(try Fixture.latin1Person(), formID: formID)
            #expect(throws: Never.self) { _ = try renderer.pdf(latin1) }
            let polish = try Fixture.attestation(try Fixture.identity(first: "Łukasz", last: "Wałęsa"), formID: formID)
            #expect(throws: RenderingError.unicodeFont(path: path)) { _ = try renderer.pdf(polish) }
        }
        #expect(AttestationRenderer.defaultUnicodeFontPath.hasSuffix("DejaVuSans.ttf"))
        #expect(
            FileManager.default.fileExists(atPath: AttestationRenderer.defaultUnicodeFontPath),
            "the default Unicode font is missing: apt-get install fonts-dejavu-core")
    }

    /// An attestation holds its form's rules, not its layout: the renderer draws only the forms
    /// it was made with.
    @Test("an attestation of a form the renderer was not given is refused, naming the form")
    func formNotPrepared() throws {
        let renderer = try AttestationRenderer(forms: [])
        let attestation = try Fixture.attestation(try Fixture.camille(), formID: builtInFormIDs[0])
        #expect(throws: RenderingError.formNotGiven(builtInFormIDs[0])) { try renderer.pdf(attestation) }
        #expect(RenderingError.formNotGiven(builtInFormIDs[0]).description.contains(builtInFormIDs[0]))
    }
}

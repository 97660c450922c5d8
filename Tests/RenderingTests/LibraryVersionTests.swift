import AttestationKit
import FormSchema
import Foundation
import Testing

@testable import Rendering

@Suite("Library versions")
struct LibraryVersionTests {
    @Test("the loaded HarfBuzz says its version")
    func harfBuzzVersion() {
        let version = AttestationRenderer.libraryVersions["harfbuzz"] ?? ""
        #expect(version.wholeMatch(of: /[0-9]+(\.[0-9]+)+/) != nil, "\(version)")
    }
}

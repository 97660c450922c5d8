import TestSupport
import Testing

@testable import Rendering

@Suite("HaruVersion")
struct HaruVersionTests {
    @Test("a libharu other than the release whose private structures Rendering uses is refused, naming both")
    func anotherReleaseIsRefused() throws {
        for other in ["2.4.0", "2.3.0RC2", "2.2.1", ""] {
            #expect(throws: RenderingError.unsupportedLibharu(loaded: other, checked: "2.3.0")) {
                try HaruVersion.check(loaded: other)
            }
        }
        let message = RenderingError.unsupportedLibharu(loaded: "2.4.0", checked: "2.3.0").description
        #expect(message.contains("2.4.0") && message.contains("libharu 2.3.0") && message.contains("libhpdf-2.3.0"))
    }

    @Test("the libharu of Debian 12 and 13 loaded here is the one checked, so a renderer starts")
    func theLoadedReleaseIsAccepted() throws {
        #expect(HaruVersion.loaded == "2.3.0")
        try AttestationRenderer.checkLibraries()
        _ = try Fixture.renderer()
    }
}

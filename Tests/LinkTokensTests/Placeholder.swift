import Foundation
import Testing
@testable import LinkTokens

@Test func probe() throws {
    print("PROBE split", "a\r\nb".split(separator: "\n", omittingEmptySubsequences: false).count)
    let id = LinkID.random()
    print("PROBE crlf", Result { try RevocationList(parsing: "\(id)\r\n\(LinkID.random())\r\n") })
    print("PROBE crlf-comment", Result { try RevocationList(parsing: "# comment\r\n\(id)\r\n").contains(id) })
    let deva = "क्षि"
    print("PROBE deva", deva.count, deva.utf8.count)
    let z = "e\u{301}\u{302}\u{303}\u{304}"
    print("PROBE zalgo", z.count, z.utf8.count, z.precomposedStringWithCanonicalMapping.count)
}

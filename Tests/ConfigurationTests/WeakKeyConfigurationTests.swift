import AttestationConfiguration
import Foundation
import LinkTokens
import TestSupport
import Testing

/// A configuration that trusts a public key of small order is refused at load, naming the key's
/// entry and id: before, trusting the identity point accepted every forged link (issue 38).
@Suite struct WeakKeyConfigurationTests {
    @Test(arguments: [
        "AQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",  // the identity
        "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",  // y = 0, order 4
        "7f///////////////////////////////////////38=",  // y = p: 0 written non-canonically
    ])
    func aConfigurationTrustingAKeyOfSmallOrderIsRefusedNamingIt(weak: String) throws {
        let fixture = try ServiceFixture()
        defer { fixture.remove() }
        let good = LinkFixture.key.verificationKey.base64
        try fixture.writeConfiguration(
            #"{"baseURL":"https://a.example","keys":[{"id":"k","publicKey":"\#(good)"},{"id":"faible","publicKey":"\#(weak)"}],"revocationList":"revoked.txt"}"#
        )
        #expect(
            throws: ConfigurationError(
                source: fixture.configurationFile.path, path: "keys[1]",
                message: KeyError.weakPublicKey(id: "faible").description)
        ) { try fixture.load() }
    }
}

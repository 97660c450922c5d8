import AttestationConfiguration
import AttestationKit
import FormSchema
import Foundation
import LinkTokens
import TestSupport
import Testing

/// A configuration directory on disk: config.json, a revocation list, one key.
struct ServiceFixture {
    let directory: URL
    let configurationFile: URL
    let revocationFile: URL

    init(
        keys: [SigningKey] = [LinkFixture.key], revocations: String = "# aucun\n",
        offsetBounds: OffsetBounds? = OffsetBounds(minimum: -60, maximum: 120)
    ) throws {
        directory = try temporaryDirectory()
        configurationFile = directory.appendingPathComponent("config.json")
        revocationFile = directory.appendingPathComponent("revoked.txt")
        let configuration = Configuration(
            baseURL: "https://attestation.example.org",
            keys: keys.map { .init(id: $0.id, publicKey: $0.verificationKey.base64) }, signingKey: nil,
            revocationList: "revoked.txt", formsDirectory: nil, offsetBounds: offsetBounds)
        try configuration.fileContents.write(to: configurationFile)
        try Data(revocations.utf8).write(to: revocationFile)
    }

    func load() throws -> ServiceState { try ServiceState.load(configurationFile: configurationFile) }

    func writeConfiguration(_ json: String) throws { try Data(json.utf8).write(to: configurationFile) }

    func remove() { try? FileManager.default.removeItem(at: directory) }
}

@Suite("Links turned into attestations")
struct ServiceStateTests {
    static let now = LinkFixture.now

    @Test func loadsTheConfiguration() throws {
        let revoked = LinkID.random()
        let fixture = try ServiceFixture(revocations: "# révoqués\n\(revoked)  # perdu\n")
        defer { fixture.remove() }
        let state = try fixture.load()
        #expect(state.keys.keys == [LinkFixture.keyID: LinkFixture.key.verificationKey])
        #expect(state.revoked.ids == [revoked])
        #expect(state.bounds == OffsetBounds(minimum: -60, maximum: 120))
        #expect(state.catalog.forms.map(\.id) == FormCatalog.builtIn.forms.map(\.id))
        #expect(state.configuration.baseURL == "https://attestation.example.org")
        #expect(state.resolve("revoked.txt").standardizedFileURL == fixture.revocationFile.standardizedFileURL)
    }

    @Test func missingBoundsAreTheStandardOnes() throws {
        let fixture = try ServiceFixture(offsetBounds: nil)
        defer { fixture.remove() }
        #expect(try fixture.load().bounds == .standard)
    }

    /// Fail closed: a list deleted by mistake (or a symbolic link left dangling by a config
    /// tool) would otherwise bring every revoked link back.
    @Test func aMissingRevocationListIsAnError() throws {
        let fixture = try ServiceFixture()
        defer { fixture.remove() }
        try FileManager.default.removeItem(at: fixture.revocationFile)
        let error = try #require(throws: ConfigurationError.self) { try fixture.load() }
        #expect(error.source == fixture.revocationFile.path)
        #expect(error.message.contains("introuvable"), "\(error)")
        #expect(error.message.contains("# aucune révocation"), "says how to write an empty list: \(error)")

        try FileManager.default.createSymbolicLink(
            atPath: fixture.revocationFile.path, withDestinationPath: "nulle-part.txt")
        #expect(throws: ConfigurationError.self, "a dangling symbolic link") { try fixture.load() }
    }

    /// A zero-byte list is what a truncated write leaves: refused; a comment alone is an empty list.
    @Test func anEmptyRevocationFileIsAnErrorButACommentAloneIsAnEmptyList() throws {
        let fixture = try ServiceFixture(revocations: "")
        defer { fixture.remove() }
        let error = try #require(throws: ConfigurationError.self) { try fixture.load() }
        #expect(error.source == fixture.revocationFile.path)
        #expect(error.message.contains("vide"), "\(error)")
        try Data("# aucune révocation\n".utf8).write(to: fixture.revocationFile)
        #expect(try fixture.load().revoked.ids.isEmpty)
    }

    /// The list is read whole at each reload: a runaway file is refused without being read.
    @Test func aRevocationListOverItsSizeLimitIsRefused() throws {
        let fixture = try ServiceFixture()
        defer { fixture.remove() }
        // 300 MB, sparse: nothing is written, so only a reader that reads it all would pay.
        let handle = try FileHandle(forWritingTo: fixture.revocationFile)
        try handle.truncate(atOffset: 300 << 20)
        try handle.close()
        let error = try #require(throws: ConfigurationError.self) { try fixture.load() }
        #expect(error.message.contains("trop grande"), "\(error)")
        #expect(error.message.contains("8 Mio"), "names the limit: \(error)")
    }

    /// A FIFO would block the reader forever.
    @Test func aRevocationListThatIsNotARegularFileIsRefused() throws {
        let fixture = try ServiceFixture()
        defer { fixture.remove() }
        try FileManager.default.removeItem(at: fixture.revocationFile)
        #expect(mkfifo(fixture.revocationFile.path, 0o600) == 0)
        let error = try #require(throws: ConfigurationError.self) { try fixture.load() }
        #expect(error.message.contains("fichier ordinaire"), "\(error)")
    }

    /// A configuration whose keys were emptied would refuse every link.
    @Test func aConfigurationWithoutKeysIsAnError() throws {
        let fixture = try ServiceFixture()
        defer { fixture.remove() }
        try fixture.writeConfiguration(#"{"baseURL":"https://a.example","keys":[],"revocationList":"revoked.txt"}"#)
        let error = try #require(throws: ConfigurationError.self) { try fixture.load() }
        #expect(error.path == "keys")
        #expect(error.message.contains("aucune clé"), "\(error)")
    }

    @Test func missingConfigurationIsAnError() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("config.json")
        let error = try #require(throws: ConfigurationError.self) { try ServiceState.load(configurationFile: file) }
        #expect(error.source == file.path)
        #expect(error.path == "")
    }

    @Test func unknownKeysInConfigurationNameTheirJSONPath() throws {
        let fixture = try ServiceFixture()
        defer { fixture.remove() }
        let publicKey = LinkFixture.key.verificationKey.base64
        let cases: [(String, String)] = [
            (#"{"baseURL":"https://a.example","keys":[],"revocationList":"r.txt","colour":"bleu"}"#, "colour"),
            (
                #"{"baseURL":"https://a.example","keys":[{"id":"k","publicKey":"\#(publicKey)","comment":"x"}],"revocationList":"r.txt"}"#,
                "keys[0].comment"
            ),
            (
                #"{"baseURL":"https://a.example","keys":[],"revocationList":"r.txt","offsetBounds":{"minimum":-5,"maximum":5,"step":1}}"#,
                "offsetBounds.step"
            ),
            (#"{"baseURL":"https://a.example","keys":[],"revocationlist":"r.txt"}"#, "revocationList"),
        ]
        for (json, path) in cases {
            try fixture.writeConfiguration(json)
            let error = try #require(throws: ConfigurationError.self) { try fixture.load() }
            #expect(error.path == path, "\(json)")
            #expect(error.source == fixture.configurationFile.path)
            #expect(error.description.contains(path))
        }
    }

    @Test func badKeysInConfigurationNameTheirEntry() throws {
        let fixture = try ServiceFixture()
        defer { fixture.remove() }
        let publicKey = LinkFixture.key.verificationKey.base64
        try fixture.writeConfiguration(
            #"{"baseURL":"https://a.example","keys":[{"id":"k","publicKey":"\#(publicKey)"},{"id":"j","publicKey":"AAAA"}],"revocationList":"r.txt"}"#
        )
        #expect(
            throws: ConfigurationError(
                source: fixture.configurationFile.path, path: "keys[1]",
                message: KeyError.invalidPublicKey(id: "j").description)
        ) { try fixture.load() }
        try fixture.writeConfiguration(
            #"{"baseURL":"https://a.example","keys":[{"id":"k","publicKey":"\#(publicKey)"},{"id":"k","publicKey":"\#(publicKey)"}],"revocationList":"r.txt"}"#
        )
        #expect(
            throws: ConfigurationError(
                source: fixture.configurationFile.path, path: "keys",
                message: KeyError.duplicateKeyID("k").description)
        ) { try fixture.load() }
    }

    @Test func badRevocationLineNamesTheFile() throws {
        let fixture = try ServiceFixture(revocations: "# révoqués\n\(LinkID.random())\nnot an id\n")
        defer { fixture.remove() }
        let error = try #require(throws: ConfigurationError.self) { try fixture.load() }
        #expect(error.source == fixture.revocationFile.path)
        #expect(error.message.contains("ligne 3"))
        #expect(error.description.contains("revoked.txt"))
    }

    @Test func revocationListWithCRLFRevokes() throws {
        let contents = LinkFixture.contents()
        let fixture = try ServiceFixture(revocations: "# révoqués\r\n\(contents.id)\r\n")
        defer { fixture.remove() }
        let state = try fixture.load()
        let token = try LinkFixture.token(contents)
        #expect(throws: LinkRequestError.link(.revoked(contents, keyID: LinkFixture.keyID))) {
            try state.attestation(for: LinkRequest(token: token), now: Self.now)
        }
    }

    @Test func validLinkGivesAnAttestation() throws {
        let fixture = try ServiceFixture()
        defer { fixture.remove() }
        let state = try fixture.load()
        let contents = LinkFixture.contents(reasons: ["travail", "enfants"])
        let attestation = try state.attestation(
            for: LinkRequest(token: try LinkFixture.token(contents), offset: "-20"), now: Self.now)
        #expect(attestation.identity == LinkFixture.camille)
        #expect(attestation.form.id == LinkFixture.defaultFormID)
        #expect(attestation.reasons.map(\.code) == ["travail", "enfants"])
        #expect(attestation.created == Self.now)
        #expect(attestation.exit == Self.now.addingTimeInterval(-20 * 60))
        #expect(attestation.timeZone.identifier == "Europe/Paris")
        #expect(attestation.exitLocal.time == "08:55", "09:15 in Paris, 20 minutes earlier")
    }

    @Test func noOffsetMeansNowAndAtIsAWallClockTime() throws {
        let fixture = try ServiceFixture()
        defer { fixture.remove() }
        let state = try fixture.load()
        let token = try LinkFixture.token()
        #expect(try state.attestation(for: LinkRequest(token: token), now: Self.now).exit == Self.now)
        #expect(
            try state.attestation(for: LinkRequest(token: token, offset: "+15"), now: Self.now).exit
                == Self.now.addingTimeInterval(15 * 60))
        let at = try state.attestation(for: LinkRequest(token: token, at: "09:45"), now: Self.now)
        #expect(at.exitLocal.time == "09:45")
        #expect(at.exit == instant("2020-11-28T08:45:00Z"))
        #expect(throws: LinkRequestError.self) {
            try state.attestation(for: LinkRequest(token: token, offset: "-5", at: "09:00"), now: Self.now)
        }
    }

    @Test func linkZoneIsUsed() throws {
        let fixture = try ServiceFixture()
        defer { fixture.remove() }
        let token = try LinkFixture.token(LinkFixture.contents(timeZone: "America/Martinique"))
        let attestation = try fixture.load().attestation(for: LinkRequest(token: token, offset: "-20"), now: Self.now)
        #expect(attestation.timeZone.identifier == "America/Martinique")
        #expect(attestation.exitLocal.time == "03:55")
    }

    @Test func reasonsParameterReplacesTheLinksReasons() throws {
        let fixture = try ServiceFixture()
        defer { fixture.remove() }
        let state = try fixture.load()
        let token = try LinkFixture.token(LinkFixture.contents(reasons: ["travail"]))
        let attestation = try state.attestation(for: LinkRequest(token: token, reasons: "sante,famille"), now: Self.now)
        #expect(attestation.reasons.map(\.code) == ["sante", "famille"])
        let spaced = try state.attestation(for: LinkRequest(token: token, reasons: " famille , sante "), now: Self.now)
        #expect(spaced.reasons.map(\.code) == ["sante", "famille"], "in the form's order")
        // Stray commas are slips, not reasons.
        for slipped in ["sante,", ",sante", "sante,,famille", " sante , "] {
            let attestation = try state.attestation(for: LinkRequest(token: token, reasons: slipped), now: Self.now)
            #expect(attestation.reasons.map(\.code).contains("sante"), "reasons=\(slipped)")
            #expect(!attestation.reasons.map(\.code).contains("travail"), "reasons=\(slipped)")
        }
        for bad in ["", ",", " , ", "voyage", "sante,voyage"] {
            #expect(throws: LinkRequestError.self, "reasons=\(bad)") {
                try state.attestation(for: LinkRequest(token: token, reasons: bad), now: Self.now)
            }
        }
    }

    @Test func lockedLinkRefusesTheReasonsParameter() throws {
        let fixture = try ServiceFixture()
        defer { fixture.remove() }
        let state = try fixture.load()
        let token = try LinkFixture.token(LinkFixture.contents(reasons: ["travail"], lockReasons: true))
        #expect(throws: LinkRequestError.reasonsLocked) {
            try state.attestation(for: LinkRequest(token: token, reasons: "sante,famille"), now: Self.now)
        }
        #expect(throws: LinkRequestError.reasonsLocked) {
            try state.attestation(for: LinkRequest(token: token, reasons: "travail"), now: Self.now)
        }
        let attestation = try state.attestation(for: LinkRequest(token: token, offset: "-20"), now: Self.now)
        #expect(attestation.reasons.map(\.code) == ["travail"])
    }

    @Test(arguments: ["-61", "121", "-1000", "+1440"])
    func offsetOutOfTheConfiguredBoundsNamesThem(offset: String) throws {
        let fixture = try ServiceFixture()
        defer { fixture.remove() }
        let state = try fixture.load()
        let token = try LinkFixture.token()
        let error = try #require(throws: LinkRequestError.self) {
            try state.attestation(for: LinkRequest(token: token, offset: offset), now: Self.now)
        }
        guard case .parameter(let message) = error else {
            Issue.record("expected .parameter, got \(error)")
            return
        }
        #expect(message.contains("-60"), "\(message)")
        #expect(message.contains("+120"), "\(message)")
        #expect(message == error.description)
    }

    @Test(arguments: ["abc", "", "-", "1.5", "--20", "20 ", "1234567"])
    func malformedOffsetIsAParameterError(offset: String) throws {
        let fixture = try ServiceFixture()
        defer { fixture.remove() }
        let state = try fixture.load()
        let error = try #require(throws: LinkRequestError.self) {
            try state.attestation(for: LinkRequest(token: try LinkFixture.token(), offset: offset), now: Self.now)
        }
        guard case .parameter(let message) = error else {
            Issue.record("expected .parameter, got \(error)")
            return
        }
        #expect(message.contains("offset"))
    }

    @Test func boundsOfTheConfigurationAreAccepted() throws {
        let fixture = try ServiceFixture()
        defer { fixture.remove() }
        let state = try fixture.load()
        let token = try LinkFixture.token()
        #expect(
            try state.attestation(for: LinkRequest(token: token, offset: "-60"), now: Self.now).exit
                == Self.now.addingTimeInterval(-3600))
        #expect(
            try state.attestation(for: LinkRequest(token: token, offset: "120"), now: Self.now).exit
                == Self.now.addingTimeInterval(7200))
    }

    @Test func linkFailuresAreReported() throws {
        let fixture = try ServiceFixture()
        defer { fixture.remove() }
        let state = try fixture.load()
        let expired = LinkFixture.contents(expiresAt: instant("2020-11-28T00:00:00Z"))
        #expect(throws: LinkRequestError.link(.expired(expired, keyID: LinkFixture.keyID))) {
            try state.attestation(for: LinkRequest(token: try LinkFixture.token(expired)), now: Self.now)
        }
        #expect(throws: LinkRequestError.link(.malformed)) {
            try state.attestation(for: LinkRequest(token: "not-a-token"), now: Self.now)
        }
        let stranger = try SigningKey.generate(id: "stranger")
        #expect(throws: LinkRequestError.link(.unknownKey("stranger"))) {
            try state.attestation(for: LinkRequest(token: try LinkFixture.token(key: stranger)), now: Self.now)
        }
        let impostor = try SigningKey.generate(id: LinkFixture.keyID)
        #expect(throws: LinkRequestError.link(.badSignature)) {
            try state.attestation(for: LinkRequest(token: try LinkFixture.token(key: impostor)), now: Self.now)
        }
    }

    @Test func unknownFormAndZoneAreReported() throws {
        let fixture = try ServiceFixture()
        defer { fixture.remove() }
        let state = try fixture.load()
        let unknownForm = try LinkFixture.token(LinkFixture.contents(formID: "deplacement-2021-04-03"))
        #expect(throws: LinkRequestError.unknownForm("deplacement-2021-04-03")) {
            try state.attestation(for: LinkRequest(token: unknownForm), now: Self.now)
        }
        let unknownZone = try LinkFixture.token(LinkFixture.contents(timeZone: "Mars/Olympus_Mons"))
        #expect(throws: LinkRequestError.unknownTimeZone("Mars/Olympus_Mons")) {
            try state.attestation(for: LinkRequest(token: unknownZone), now: Self.now)
        }
        let badReason = try LinkFixture.token(LinkFixture.contents(reasons: ["achats"]))  // only on the 02/11 form
        #expect(throws: LinkRequestError.self) {
            try state.attestation(for: LinkRequest(token: badReason), now: Self.now)
        }
    }

    @Test func removingTheKeyFromTheConfigurationEndsItsLinks() throws {
        let old = try SigningKey.generate(id: "old")
        let new = try SigningKey.generate(id: "new")
        let both = try ServiceFixture(keys: [old, new])
        defer { both.remove() }
        let token = try LinkFixture.token(key: old)
        #expect(throws: Never.self) { try both.load().attestation(for: LinkRequest(token: token), now: Self.now) }
        let onlyNew = try ServiceFixture(keys: [new])
        defer { onlyNew.remove() }
        #expect(throws: LinkRequestError.link(.unknownKey("old"))) {
            try onlyNew.load().attestation(for: LinkRequest(token: token), now: Self.now)
        }
    }

    // MARK: Token from a link

    @Test func tokenFromAFullLink() throws {
        let token = try LinkFixture.token()
        #expect(
            LinkRequest.token(fromLinkOrToken: "https://attestation.example.org/attestation.pdf?t=\(token)") == token)
        #expect(LinkRequest.token(fromLinkOrToken: "https://attestation.example.org/?t=\(token)&offset=-20") == token)
        #expect(LinkRequest.token(fromLinkOrToken: "https://attestation.example.org/?offset=-20&t=\(token)") == token)
        #expect(LinkRequest.token(fromLinkOrToken: "  https://attestation.example.org/?t=\(token)\n") == token)
        #expect(LinkRequest.token(fromLinkOrToken: "/attestation.pdf?t=\(token)") == token)
    }

    @Test func bareTokenIsUnchanged() throws {
        let token = try LinkFixture.token()
        #expect(LinkRequest.token(fromLinkOrToken: token) == token)
        #expect(LinkRequest.token(fromLinkOrToken: " \(token)\n") == token)
        #expect(LinkRequest.token(fromLinkOrToken: "abc-_") == "abc-_")
    }

    @Test func linkWithoutTokenIsGivenBackAsIs() {
        let link = "https://attestation.example.org/?offset=-20"
        #expect(LinkRequest.token(fromLinkOrToken: link) == link)
        let verification = LinkToken.verify(LinkRequest.token(fromLinkOrToken: link), keys: LinkFixture.ring)
        #expect(verification == .malformed)
    }

    @Test func requestErrorMessagesAreFrenchAndDistinct() throws {
        let contents = LinkFixture.contents()
        let errors: [LinkRequestError] = [
            .link(.malformed), .link(.unsupportedVersion(2)), .link(.unknownKey("k")), .link(.badSignature),
            .link(.expired(contents, keyID: "k")), .link(.revoked(contents, keyID: "k")), .reasonsLocked,
            .unknownForm("f"), .unknownTimeZone("z"),
        ]
        let messages = errors.map(\.description)
        #expect(Set(messages).count == errors.count)
        #expect(LinkRequestError.link(.unsupportedVersion(2)).description.contains("(2)"))
        let token = try LinkFixture.token(contents)
        for message in messages {
            #expect(!message.contains("Dupont"), "no personal data in \(message)")
            #expect(!message.contains(token))
        }
    }

    @Test func failureMessagesNeverHoldTheTokenNorTheKeyID() throws {
        let token = try LinkFixture.token()
        let failures: [LinkVerification] = [
            .malformed, .unsupportedVersion(2), .unknownKey("secret-key"), .badSignature,
            .expired(LinkFixture.contents(), keyID: "secret-key"),
            .revoked(LinkFixture.contents(), keyID: "secret-key"),
        ]
        var messages = Set<String>()
        for failure in failures {
            let message = LinkRequestError.link(failure).description
            #expect(!message.contains(token))
            #expect(!message.contains("secret-key"))
            #expect(!message.contains("Dupont"))
            messages.insert(message)
        }
        #expect(messages.count == failures.count, "each failure its own message")
    }
}

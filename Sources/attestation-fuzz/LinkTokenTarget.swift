import AttestationConfiguration
import AttestationKit
import AttestationService
import Foundation
import LinkTokens
import Rendering

/// `link-token`: the link decoder. The first byte of the input chooses what the rest is:
///
/// - `t`: a token as a link carries it, checked by `LinkToken.verify` as the server does;
/// - `p`: the bytes of a payload (everything before the signature), which the fuzzer signs with
///   the fixture's key before verifying: every decoding step after the signature is reached;
/// - `r`: a revocation list file;
/// - `b`: text for the base64url codec and link ids, and bytes to encode;
/// - anything else: the whole input is a token, as with `t`.
enum LinkTokenTarget {
    static func run(_ input: [UInt8]) {
        guard let mode = input.first else { return }
        let rest = Array(input.dropFirst())
        switch mode {
        case UInt8(ascii: "t"): checkToken(String(decoding: rest, as: UTF8.self))
        case UInt8(ascii: "p"): checkPayload(rest)
        case UInt8(ascii: "r"): checkRevocationList(String(decoding: rest, as: UTF8.self))
        case UInt8(ascii: "b"): checkBase64(rest)
        default: checkToken(String(decoding: input, as: UTF8.self))
        }
    }

    /// Signs the payload with the fixture's key, as only an administrator could, then verifies it.
    static func checkPayload(_ payload: [UInt8]) {
        let token = sign(payload, with: Fixture.key)
        guard token.utf8.count <= LinkToken.maximumLength else {
            require(
                LinkToken.verify(token, keys: Fixture.ring, now: Fixture.now) == .malformed,
                "un lien de plus de \(LinkToken.maximumLength) caractères doit être refusé avant tout décodage")
            return
        }
        checkToken(token, namesFuzzKey: namesKey(payload, Fixture.key.id))
    }

    static func sign(_ payload: [UInt8], with key: SigningKey) -> String {
        Base64URL.encode(payload + Fixture.signature(of: payload, by: key.id))
    }

    /// Whether the payload starts with version 1 and the id of `keyID`, in the format's own encoding.
    static func namesKey(_ payload: [UInt8], _ keyID: String) -> Bool {
        let id = Array(keyID.utf8)
        return payload.count >= 2 + id.count && payload[0] == LinkToken.version && payload[1] == UInt8(id.count)
            && Array(payload[2..<2 + id.count]) == id
    }

    static func checkToken(_ token: String, namesFuzzKey: Bool = false) {
        let result = LinkToken.verify(token, keys: Fixture.ring, revoked: Fixture.revoked, now: Fixture.now)
        if namesFuzzKey {
            // The fuzzer signed it with the key it names: the signature must hold.
            require(result != .badSignature, "signature valide refusée")
            if case .unknownKey = result { require(false, "clé du trousseau déclarée inconnue") }
        }
        guard let (contents, keyID) = contents(of: result) else {
            checkRefusal(result, token: token)
            return
        }
        require(keyID == Fixture.key.id || keyID == Fixture.otherKey.id, "identifiant de clé inattendu")
        // The outcome follows from the contents, in the documented order: revocation first.
        switch result {
        case .revoked: require(Fixture.revoked.contains(contents.id), "révoqué sans être dans la liste")
        case .expired:
            require(!Fixture.revoked.contains(contents.id), "révoqué rendu comme expiré")
            require((contents.expiresAt ?? .distantFuture) <= Fixture.now, "expiré avant son échéance")
        default:
            require(!Fixture.revoked.contains(contents.id), "lien révoqué accepté")
            require((contents.expiresAt ?? .distantFuture) > Fixture.now, "lien expiré accepté")
        }
        checkResigning(contents, keyID: keyID, result: result, token: token)
        if case .valid = result { checkAttestation(token: token, contents: contents) }
    }

    /// The identity strings as the payload writes them (first name, last name, birth place,
    /// address, city), read with the format's layout and no checks: the decoder has accepted
    /// the payload already.
    static func rawIdentityStrings(_ payload: [UInt8]) -> [String]? {
        var index = 0
        func byte() -> UInt8? {
            guard index < payload.count else { return nil }
            defer { index += 1 }
            return payload[index]
        }
        func varint() -> Int? {
            var value = 0
            for shift in stride(from: 0, to: 63, by: 7) {
                guard let next = byte() else { return nil }
                value |= Int(next & 0x7F) << shift
                if next & 0x80 == 0 { return value }
            }
            return nil
        }
        func string() -> String? {
            guard let count = varint(), count <= payload.count - index else { return nil }
            defer { index += count }
            return String(decoding: payload[index..<index + count], as: UTF8.self)
        }
        guard byte() != nil, string() != nil else { return nil }
        index += 12  // link id
        guard varint() != nil, let flags = byte() else { return nil }
        if flags & 1 != 0 { guard varint() != nil else { return nil } }
        guard string() != nil, let first = string(), let last = string(), varint() != nil,
            let place = string(), let address = string(), varint() != nil, let city = string()
        else { return nil }
        return [first, last, place, address, city]
    }

    /// What a decoded link holds can be signed again, and that token verifies to the same
    /// contents: minting and verifying agree on every value the decoder accepts.
    static func checkResigning(_ contents: LinkContents, keyID: String, result: LinkVerification, token: String) {
        let key = Fixture.keys[keyID]!
        let again: String
        do { again = try LinkToken.sign(contents, with: key) } catch {
            require(false, "contenu accepté à la vérification mais refusé à la signature : \(error)")
            return
        }
        let second = LinkToken.verify(again, keys: Fixture.ring, revoked: Fixture.revoked, now: Fixture.now)
        require(second == result, "signé de nouveau, le lien ne se relit pas à l’identique")
        require((try? LinkToken.sign(contents, with: key)) == again, "deux signatures du même contenu diffèrent")
        // One token per contents: only the identity's normalization (NFC, spaces trimmed) may
        // make the token signed again differ from the one read.
        if again != token {
            let person = contents.identity
            // Bytes, not Strings: Swift compares strings up to canonical equivalence.
            let normalized = [person.firstName, person.lastName, person.birthPlace, person.address, person.city].map {
                Array($0.utf8)
            }
            let raw = Base64URL.decode(token).flatMap { rawIdentityStrings(Array($0.dropLast(64))) }?.map {
                Array($0.utf8)
            }
            require(raw != nil && raw != normalized, "deux jetons différents pour le même contenu")
        }
    }

    /// A valid link gives an attestation or a French refusal, and what it gives can be drawn.
    static func checkAttestation(token: String, contents: LinkContents) {
        let state = Fixture.state
        let attestation: Attestation
        do {
            attestation = try state.attestation(for: LinkRequest(token: token), now: Fixture.now)
        } catch {
            require(!error.description.isEmpty && !holds(error.description, token), "refus vide ou répétant le lien")
            switch error {
            case .unknownForm:
                require(
                    contents.formID.map { state.catalog.form(id: $0) == nil } == true,
                    "formulaire installé déclaré absent")
            case .unknownTimeZone(let zone): require(TimeZone(identifier: zone) == nil, "fuseau connu déclaré inconnu")
            case .linkReasons:
                let forms =
                    contents.formID.map { [state.catalog.form(id: $0)].compactMap { $0 } } ?? state.catalog.forms
                require(
                    contents.reasons.isEmpty
                        || contents.reasons.contains { code in forms.allSatisfy { $0.reason(code: code) == nil } },
                    "motifs du lien déclarés hors du formulaire à tort")
            case .reasonsNotInForm(let missing, let form, _, _, _):
                require(
                    contents.formID == nil && !missing.isEmpty && missing.allSatisfy { form.reason(code: $0) == nil },
                    "motifs déclarés absents du formulaire en vigueur à tort")
            case .parameter: break
            case .link, .reasonsLocked, .unknownContext, .contextOfPinnedLink, .emptyCalendar:
                require(false, "refus inattendu pour un lien valide sans paramètre : \(error)")
            }
            return
        }
        require(attestation.identity == contents.identity, "l’attestation ne reprend pas l’identité du lien")
        if contents.formID != nil {
            require(
                Set(attestation.reasons.map(\.code)) == Set(contents.reasons),
                "motifs de l’attestation différents du lien")
        }
        let renderer = Fixture.service.snapshot.renderer
        do {
            let pdf = try renderer.pdf(attestation)
            require(pdf.starts(with: Array("%PDF-".utf8)), "PDF sans en-tête")
            let png = try renderer.qrPNG(attestation, size: AttestationRenderer.pngSizes.lowerBound)
            require(png.starts(with: [0x89, 0x50, 0x4E, 0x47]), "PNG sans signature")
        } catch {
            require(false, "lien valide impossible à dessiner : \(error)")
        }
    }

    static func checkRefusal(_ result: LinkVerification, token: String) {
        let message = LinkRequestError.link(result).description
        require(!message.isEmpty, "refus sans message")
        require(token.count < 8 || !holds(message, token), "le refus répète le lien")
    }

    static func contents(of result: LinkVerification) -> (LinkContents, String)? {
        switch result {
        case .valid(let contents, let keyID), .expired(let contents, let keyID), .revoked(let contents, let keyID):
            return (contents, keyID)
        case .malformed, .unsupportedVersion, .unknownKey, .badSignature:
            return nil
        }
    }

    // MARK: Revocation list

    static func checkRevocationList(_ text: String) {
        let list: RevocationList
        do {
            list = try RevocationList(parsing: text)
        } catch {
            let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).count
            require((1...max(lines, 1)).contains(error.line), "numéro de ligne hors du fichier")
            require(!error.description.isEmpty, "erreur sans message")
            return
        }
        // The file `revoke` writes, with or without comments, reads back to the same ids.
        let written = list.ids.map { RevocationList.line(for: $0) }.joined()
        let commented = list.ids.map { RevocationList.line(for: $0, comment: "révoqué # le 28/11") }.joined()
        for file in [written, commented] {
            require((try? RevocationList(parsing: file))?.ids == list.ids, "liste réécrite illisible ou différente")
        }
    }

    // MARK: Base64url and link ids

    static func checkBase64(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        if let decoded = Base64URL.decode(text) {
            require(Base64URL.encode(decoded) == text, "deux textes base64url pour les mêmes octets")
        }
        let encoded = Base64URL.encode(bytes)
        require(encoded.utf8.count == (bytes.count * 4 + 2) / 3, "longueur base64url inattendue")
        require(!encoded.contains(where: { "+/=".contains($0) }), "caractère hors de l’alphabet base64url")
        require(Base64URL.decode(encoded) == bytes, "base64url ne se relit pas")
        if let id = LinkID(text) {
            require(id.description == text, "identifiant de lien relu différemment")
            require(
                LinkID(RevocationList.line(for: id).trimmingCharacters(in: .newlines)) == id,
                "ligne de révocation illisible")
        }
    }
}

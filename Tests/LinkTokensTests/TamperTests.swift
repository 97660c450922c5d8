import AttestationKit
import Foundation
import TestSupport
import Testing

@testable import LinkTokens

/// No altered token is ever accepted, and nothing of its payload is ever given back.
@Suite("Altered tokens")
struct TamperTests {
    /// A link with every optional field, so that every part of the format is covered.
    static func fullToken() throws -> String {
        try LinkFixture.token(
            LinkFixture.contents(
                reasons: ["travail", "sante"], expiresAt: instant("2021-01-31T12:00:00Z"), timeZone: "Indian/Reunion",
                lockReasons: true))
    }

    static func verify(_ token: String) -> LinkVerification {
        LinkToken.verify(token, keys: LinkFixture.ring, now: LinkFixture.now)
    }

    @Test func theUntouchedTokensAreValid() throws {
        #expect(Self.verify(try Self.fullToken()).isValid)
        #expect(Self.verify(try LinkFixture.token()).isValid)
    }

    @Test(arguments: [UInt8(0x01), 0x80, 0xFF, 0x10, 0x40])
    func everyByteChangedIsRefused(mask: UInt8) throws {
        for token in [try Self.fullToken(), try LinkFixture.token()] {
            let bytes = try tokenBytes(token)
            var outcomes: [String: Int] = [:]
            for position in bytes.indices {
                var altered = bytes
                altered[position] ^= mask
                let result = Self.verify(Base64URL.encode(altered))
                #expect(result.isRejectedBeforeContents, "byte \(position) ^ \(mask) gave \(result)")
                outcomes["\(result)".prefix(while: { $0 != "(" }).description, default: 0] += 1
            }
            // The signature covers everything after the key id: most changes are bad signatures.
            #expect(outcomes["badSignature", default: 0] >= bytes.count - 13, "\(outcomes)")
        }
    }

    @Test func everyByteChangedInTheSignatureIsABadSignature() throws {
        let bytes = try tokenBytes(try Self.fullToken())
        for position in (bytes.count - 64)..<bytes.count {
            for mask: UInt8 in [0x01, 0x80, 0xFF] {
                var altered = bytes
                altered[position] ^= mask
                #expect(Self.verify(Base64URL.encode(altered)) == .badSignature, "signature byte \(position)")
            }
        }
    }

    @Test func theVersionAndKeyIDBytesHaveTheirOwnFailures() throws {
        let bytes = try tokenBytes(try LinkFixture.token())
        var version = bytes
        version[0] = 2
        #expect(Self.verify(Base64URL.encode(version)) == .unsupportedVersion(2))
        var keyID = bytes
        keyID[2] = UInt8(ascii: "C")  // "cle-2020-11" → "Cle-2020-11"
        #expect(Self.verify(Base64URL.encode(keyID)) == .unknownKey("Cle-2020-11"))
        var keyLength = bytes
        keyLength[1] = 0x80  // an unfinished varint length
        #expect(Self.verify(Base64URL.encode(keyLength)) != .badSignature)
        #expect(Self.verify(Base64URL.encode(keyLength)).isRejectedBeforeContents)
    }

    /// Each character replaced by the six characters one bit away from it, and by its complement:
    /// every bit of every character of the token is flipped once.
    @Test func everySingleCharacterChangeIsRefused() throws {
        let token = Array(try Self.fullToken())
        var checked = 0
        for position in token.indices {
            let value = try #require(base64URLAlphabet.firstIndex(of: token[position]))
            for mask in [1, 2, 4, 8, 16, 32, 63] {
                var altered = token
                altered[position] = base64URLAlphabet[value ^ mask]
                #expect(altered != token)
                let result = Self.verify(String(altered))
                #expect(result.isRejectedBeforeContents, "character \(position) → \(altered[position]) gave \(result)")
                checked += 1
            }
        }
        #expect(checked == token.count * 7)
    }

    /// Every other character of the alphabet, at a few positions spread over the token.
    @Test func everyReplacementCharacterIsRefused() throws {
        let token = Array(try Self.fullToken())
        for position in [0, 1, 2, 10, token.count / 2, token.count - 86, token.count - 2, token.count - 1] {
            for replacement in base64URLAlphabet where replacement != token[position] {
                var altered = token
                altered[position] = replacement
                let result = Self.verify(String(altered))
                #expect(result.isRejectedBeforeContents, "character \(position) → \(replacement) gave \(result)")
            }
        }
    }

    @Test func everyTruncationIsRefused() throws {
        let token = try Self.fullToken()
        for length in 0..<token.count {
            let result = Self.verify(String(token.prefix(length)))
            #expect(result.isRejectedBeforeContents, "prefix of \(length) gave \(result)")
            let tail = Self.verify(String(token.suffix(length)))
            #expect(tail.isRejectedBeforeContents, "suffix of \(length) gave \(tail)")
        }
    }

    @Test func everyDroppedCharacterIsRefused() throws {
        let token = Array(try Self.fullToken())
        for position in token.indices {
            var altered = token
            altered.remove(at: position)
            #expect(Self.verify(String(altered)).isRejectedBeforeContents, "without character \(position)")
        }
    }

    @Test func concatenationsAreRefused() throws {
        let token = try Self.fullToken()
        let other = try LinkFixture.token()
        for text in [
            token + token, token + "A", "A" + token, token + "AA", token + "AAAA", "AAAA" + token,
            token + other, token.dropLast(4) + "AAAA",
        ] {
            let result = Self.verify(text)
            #expect(result.isRejectedBeforeContents, "\(result)")
        }
    }

    @Test func extraBytesAfterTheSignatureAreRefused() throws {
        let bytes = try tokenBytes(try Self.fullToken())
        for extra in [[UInt8(0)], [0, 0, 0], Array(bytes.suffix(64))] {
            #expect(Self.verify(Base64URL.encode(bytes + extra)).isRejectedBeforeContents)
        }
    }

    @Test func nonCanonicalBase64IsMalformed() throws {
        let token = try Self.fullToken()
        let bytes = try tokenBytes(token)
        let padded = Data(bytes).base64EncodedString()
        var malformed = [
            token + "=", token + "==", token + "===", " " + token, token + " ", token + "\n",
            "\t" + token, token + "\r\n", "\u{00A0}" + token, token + "\u{200B}",
            String(token.prefix(10)) + " " + String(token.dropFirst(10)),
            String(token.prefix(10)) + "=" + String(token.dropFirst(10)),
            String(token.prefix(10)) + "%2D" + String(token.dropFirst(10)),
        ]
        if padded.hasSuffix("=") { malformed.append(Data(bytes).base64EncodedString()) }
        let standard = Data(bytes).base64EncodedString().replacingOccurrences(of: "=", with: "")
        if standard != token { malformed.append(standard) }
        for position in stride(from: 0, to: token.count, by: 7) {
            for replacement in ["+", "/", "=", ".", "~", "é", " "] {
                var characters = Array(token)
                characters[position] = Character(replacement)
                malformed.append(String(characters))
            }
        }
        for text in malformed {
            #expect(Self.verify(text) == .malformed, "\(text.debugDescription)")
        }
    }

    /// The standard alphabet (`+`, `/`) instead of the URL-safe one is refused, even where it
    /// would decode to the very same bytes.
    @Test func standardAlphabetIsMalformed() throws {
        var found = false
        for _ in 0..<50 {
            let token = try LinkFixture.token()
            guard token.contains("-") || token.contains("_") else { continue }
            found = true
            let standard = token.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            #expect(Self.verify(standard) == .malformed)
            break
        }
        #expect(found, "no token with - or _ in 50 draws")
    }

    @Test func unusedLowBitsMustBeZero() throws {
        // A payload whose length is not a multiple of 3 leaves unused bits in the last character.
        var token: String?
        for _ in 0..<30 {
            let candidate = try LinkFixture.token()
            if try tokenBytes(candidate).count % 3 != 0 {
                token = candidate
                break
            }
        }
        let text = try #require(token)
        let last = try #require(base64URLAlphabet.firstIndex(of: text.last!))
        let unusedBits = try tokenBytes(text).count % 3 == 1 ? 4 : 2
        #expect(last % (1 << unusedBits) == 0)
        let sibling = String(text.dropLast()) + String(base64URLAlphabet[last + 1])
        #expect(Base64URL.decode(sibling) == nil)
        #expect(Self.verify(sibling) == .malformed, "same bytes, other spelling")
    }

    @Test func emptyAndOverlongStringsAreMalformed() throws {
        #expect(Self.verify("") == .malformed)
        #expect(Self.verify("A") == .malformed)
        #expect(Self.verify(String(repeating: "A", count: LinkToken.maximumLength + 1)) == .malformed)
        #expect(Self.verify(String(repeating: "A", count: 100_000)) == .malformed)
        let token = try Self.fullToken()
        #expect(Self.verify(token + String(repeating: "A", count: 2049 - token.count)) == .malformed)
    }

    @Test func base64URLDecoding() {
        #expect(Base64URL.decode("") == [])
        #expect(Base64URL.decode("AA") == [0])
        #expect(Base64URL.decode("AAA") == [0, 0])
        #expect(Base64URL.decode("AAAA") == [0, 0, 0])
        #expect(Base64URL.decode("A") == nil, "impossible length")
        #expect(Base64URL.decode("AAAAA") == nil)
        #expect(Base64URL.decode("AB") == nil, "unused bits set")
        #expect(Base64URL.decode("AA==") == nil)
        #expect(Base64URL.decode("-_8") == [0xFB, 0xFF])
        #expect(Base64URL.decode("+/8") == nil)
        #expect(Base64URL.encode([0xFB, 0xFF]) == "-_8")
        #expect(Base64URL.encode([]) == "")
        for length in 0..<40 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 251) }
            #expect(Base64URL.decode(Base64URL.encode(bytes)) == bytes)
        }
    }
}

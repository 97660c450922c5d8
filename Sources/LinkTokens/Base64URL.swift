import Foundation

/// Base64 with the URL-safe alphabet (`-` and `_`) and no padding (RFC 4648 §5): a token
/// survives URLs, bookmarks and Shortcuts without any escaping.
///
/// `package`, not internal: the fuzzer (attestation-fuzz) checks the codec on its own, and it
/// is built optimized, where `@testable import` is not available.
package enum Base64URL {
    // Foundation's codec on the standard alphabet, with the two letters swapped byte by byte
    // (string replacement went through NSString, a measurable part of each request).
    package static func encode(_ bytes: [UInt8]) -> String {
        let standard = Data(bytes).base64EncodedData()
        return String(decoding: standard.compactMap(urlSafe), as: UTF8.self)
    }

    /// nil for any character outside the URL-safe alphabet, padding included, or an impossible length.
    package static func decode(_ text: String) -> [UInt8]? {
        guard text.utf8.allSatisfy({ isAlphabet($0) }), text.utf8.count % 4 != 1 else { return nil }
        var standard = Data(
            text.utf8.map {
                $0 == UInt8(ascii: "-") ? UInt8(ascii: "+") : $0 == UInt8(ascii: "_") ? UInt8(ascii: "/") : $0
            })
        standard.append(contentsOf: repeatElement(UInt8(ascii: "="), count: (4 - standard.count % 4) % 4))
        guard let data = Data(base64Encoded: standard) else { return nil }
        let bytes = [UInt8](data)
        // Only the canonical encoding: unused low bits of the last character must be zero,
        // so no two strings are the same token.
        guard encode(bytes) == text else { return nil }
        return bytes
    }

    private static func urlSafe(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "+"): return UInt8(ascii: "-")
        case UInt8(ascii: "/"): return UInt8(ascii: "_")
        case UInt8(ascii: "="): return nil
        default: return byte
        }
    }

    private static func isAlphabet(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
            return true
        default:
            return false
        }
    }
}

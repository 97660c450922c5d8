/// The shapes of the names and numbers a form's document holds (reason codes, ids, file names,
/// `2020-12-15T20:00`, `#rrggbb`), checked byte by byte.
///
/// Written by hand instead of regex literals: a literal is compiled again each time its
/// expression runs (`Regex` is not `Sendable`, so it cannot be kept in a static), and those
/// compilations were 8.5 % of the CPU of an `attestation-admin mint` (perf, debug build), which
/// decodes the 16 built-in forms at its start; the suites start it hundreds of times.
struct NamePattern: Sendable {
    /// The characters allowed first, then after it, and the longest name in characters.
    let first: ASCIISet
    let rest: ASCIISet
    let maxLength: Int

    /// A reason's code: `[a-z][a-z0-9_]{0,31}`.
    static let reasonCode = NamePattern(first: "a-z", rest: "a-z0-9_", maxLength: 32)
    /// A form's id: `[a-z0-9][a-z0-9-]{0,63}`.
    static let formID = NamePattern(first: "a-z0-9", rest: "a-z0-9-", maxLength: 64)
    /// A context's id: `[a-z0-9][a-z0-9-]{0,31}`.
    static let contextID = NamePattern(first: "a-z0-9", rest: "a-z0-9-", maxLength: 32)
    /// A font's name: `[A-Za-z0-9][A-Za-z0-9-]{0,62}`.
    static let fontName = NamePattern(first: "A-Za-z0-9", rest: "A-Za-z0-9-", maxLength: 63)
    /// A file's name before its extension: `[A-Za-z0-9_][A-Za-z0-9._-]{0,127}`.
    static let fileStem = NamePattern(first: "A-Za-z0-9_", rest: "A-Za-z0-9._-", maxLength: 128)

    func matches(_ text: some StringProtocol) -> Bool { matches(bytes: text.utf8) }

    func matches(bytes: some Collection<UInt8>) -> Bool {
        guard let head = bytes.first, bytes.count <= maxLength, first.contains(head) else { return false }
        return bytes.dropFirst().allSatisfy(rest.contains)
    }

    /// Whether `text` names a file beside the form: a stem, a dot and one of `extensions`.
    static func isFileName(_ text: String, extensions: [String]) -> Bool {
        let bytes = Array(text.utf8)
        return extensions.contains { ext in
            let suffix = Array(".\(ext)".utf8)
            return bytes.count > suffix.count && bytes.suffix(suffix.count).elementsEqual(suffix)
                && fileStem.matches(bytes: bytes.dropLast(suffix.count))
        }
    }

    /// The value of `bytes` when they are all ASCII digits, else nil.
    static func number(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard !bytes.isEmpty, bytes.allSatisfy(ASCIISet.digits.contains) else { return nil }
        return bytes.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    }

    /// Whether `bytes` has `separator` at each of `positions` and nothing else there.
    static func has(_ bytes: [UInt8], _ separator: Character, at positions: Int...) -> Bool {
        let byte = separator.asciiValue
        return positions.allSatisfy { $0 < bytes.count && bytes[$0] == byte }
    }
}

/// A set of ASCII characters, written as in a regex's brackets: `"a-z0-9_"`.
struct ASCIISet: Sendable, ExpressibleByStringLiteral {
    private var bits: (UInt64, UInt64) = (0, 0)

    static let digits: ASCIISet = "0-9"
    static let hexDigits: ASCIISet = "0-9a-fA-F"

    init(stringLiteral spec: String) {
        let bytes = Array(spec.utf8)
        var index = 0
        while index < bytes.count {
            if index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: "-") {
                for byte in bytes[index]...bytes[index + 2] { insert(byte) }
                index += 3
            } else {
                insert(bytes[index])
                index += 1
            }
        }
    }

    private mutating func insert(_ byte: UInt8) {
        precondition(byte < 128, "ASCII only")
        if byte < 64 { bits.0 |= 1 << UInt64(byte) } else { bits.1 |= 1 << UInt64(byte - 64) }
    }

    func contains(_ byte: UInt8) -> Bool {
        byte < 64 ? bits.0 & (1 << UInt64(byte)) != 0 : byte < 128 && bits.1 & (1 << UInt64(byte - 64)) != 0
    }
}

/// The random identifier of a link (96 bits), which the revocation list names.
public struct LinkID: Sendable, Hashable, CustomStringConvertible {
    public static let byteCount = 12

    public let bytes: [UInt8]

    init?(bytes: [UInt8]) {
        guard bytes.count == Self.byteCount else { return nil }
        self.bytes = bytes
    }

    /// A fresh identifier from the system's random generator.
    public static func random() -> LinkID {
        var generator = SystemRandomNumberGenerator()
        return LinkID(bytes: (0..<byteCount).map { _ in UInt8.random(in: .min ... .max, using: &generator) })!
    }

    /// Parses the 16-character form `description` prints.
    public init?(_ text: String) {
        self.init(text: ArraySlice(text.utf8))
    }

    /// Parses the 16 characters of `description` given as bytes: 96 bits, exactly 16 base64url
    /// digits, so every such text is canonical. Decoded here, without Foundation's codec, because
    /// a revocation list has up to half a million of them to read at each reload.
    init?(text: ArraySlice<UInt8>) {
        guard text.count == 16 else { return nil }
        var bytes = [UInt8](repeating: 0, count: Self.byteCount)
        var accumulator: UInt32 = 0
        for (index, character) in text.enumerated() {
            guard let digit = Self.base64URLDigit(character) else { return nil }
            accumulator = accumulator << 6 | UInt32(digit)
            // Every four digits are three bytes.
            if index % 4 == 3 {
                let offset = index / 4 * 3
                bytes[offset] = UInt8(truncatingIfNeeded: accumulator >> 16)
                bytes[offset + 1] = UInt8(truncatingIfNeeded: accumulator >> 8)
                bytes[offset + 2] = UInt8(truncatingIfNeeded: accumulator)
                accumulator = 0
            }
        }
        self.init(bytes: bytes)
    }

    private static func base64URLDigit(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): character - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): character - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"): 62
        case UInt8(ascii: "_"): 63
        default: nil
        }
    }

    /// 16 URL-safe characters.
    public var description: String { Base64URL.encode(bytes) }
}

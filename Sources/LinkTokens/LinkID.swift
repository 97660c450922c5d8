/// The random identifier of a link (96 bits), which the revocation list names.
public struct LinkID: Sendable, Hashable, CustomStringConvertible {
    public static let byteCount = 12

    /// The 96 bits, inline: a revocation list holds up to half a million ids, and an array per id
    /// (a heap allocation each) made a full list take seconds to load and several times the memory.
    private let high: UInt64
    private let low: UInt32

    /// The 12 bytes, in order.
    public var bytes: [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: high >> (56 - 8 * UInt64($0))) }
            + (0..<4).map { UInt8(truncatingIfNeeded: low >> (24 - 8 * UInt32($0))) }
    }

    init?(bytes: [UInt8]) {
        guard bytes.count == Self.byteCount else { return nil }
        high = bytes[0..<8].reduce(0) { $0 << 8 | UInt64($1) }
        low = bytes[8..<12].reduce(0) { $0 << 8 | UInt32($1) }
    }

    private init(high: UInt64, low: UInt32) {
        self.high = high
        self.low = low
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
        var high: UInt64 = 0
        var low: UInt32 = 0
        for (index, character) in text.enumerated() {
            guard let digit = Self.base64URLDigit(character) else { return nil }
            // 16 digits of 6 bits: the first 10 and 4 bits of the 11th make the high 64 bits.
            if index < 10 {
                high = high << 6 | UInt64(digit)
            } else if index == 10 {
                high = high << 4 | UInt64(digit >> 2)
                low = UInt32(digit & 0b11)
            } else {
                low = low << 6 | UInt32(digit)
            }
        }
        self.init(high: high, low: low)
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

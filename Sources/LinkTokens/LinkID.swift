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
        guard text.utf8.count == 16, let bytes = Base64URL.decode(text) else { return nil }
        self.init(bytes: bytes)
    }

    /// 16 URL-safe characters.
    public var description: String { Base64URL.encode(bytes) }
}

/// The bytes of a token: unsigned LEB128 integers and length-prefixed UTF-8 strings.
struct ByteWriter {
    private(set) var bytes: [UInt8] = []

    mutating func byte(_ value: UInt8) { bytes.append(value) }

    mutating func raw(_ value: [UInt8]) { bytes.append(contentsOf: value) }

    mutating func varint(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(rest & 0x7F) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    mutating func string(_ value: String) {
        varint(UInt64(value.utf8.count))
        bytes.append(contentsOf: value.utf8)
    }
}

/// Reads what `ByteWriter` wrote; every read fails cleanly (nil) on truncated or odd input.
struct ByteReader {
    private let bytes: ArraySlice<UInt8>
    private var index: Int

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        index = bytes.startIndex
    }

    var isAtEnd: Bool { index == bytes.endIndex }
    var position: Int { index }

    mutating func byte() -> UInt8? {
        guard index < bytes.endIndex else { return nil }
        defer { index += 1 }
        return bytes[index]
    }

    mutating func raw(_ count: Int) -> [UInt8]? {
        guard count >= 0, bytes.endIndex - index >= count else { return nil }
        defer { index += count }
        return Array(bytes[index..<index + count])
    }

    /// At most 9 bytes (63 bits), and only the shortest encoding, so each value has one form.
    mutating func varint() -> UInt64? {
        var value: UInt64 = 0
        for shift in stride(from: 0, to: 63, by: 7) {
            guard let byte = byte() else { return nil }
            value |= UInt64(byte & 0x7F) << UInt64(shift)
            if byte & 0x80 == 0 {
                if byte == 0 && shift > 0 { return nil }
                return value
            }
        }
        return nil
    }

    mutating func string(maxBytes: Int = LinkToken.maximumStringBytes) -> String? {
        guard let count = varint(), count <= UInt64(maxBytes), let raw = raw(Int(count)) else { return nil }
        return String(validating: raw, as: UTF8.self)
    }
}

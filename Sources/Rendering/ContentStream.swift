import CHaru

/// PDF content-stream operators written as bytes. The fixed part of a form is built once with
/// it; a request appends its few operators and hands the bytes to the page in one call, instead
/// of one libharu call (with libharu's slow number formatting) per operator.
struct ContentStream: Sendable {
    private(set) var bytes: [UInt8] = []

    mutating func append(_ text: String) { bytes.append(contentsOf: text.utf8) }

    mutating func append(_ other: ContentStream) { bytes.append(contentsOf: other.bytes) }

    /// Turns the rest of the line from `offset` into a comment: a template's line a page
    /// restores by writing back its first byte.
    mutating func commentOut(at offset: Int) { bytes[offset] = UInt8(ascii: "%") }

    /// A number with at most two decimals, the precision of the form's positions.
    mutating func number(_ value: Double) {
        var hundredths = Int((value * 100).rounded())
        if hundredths < 0 {
            bytes.append(UInt8(ascii: "-"))
            hundredths = -hundredths
        }
        integer(hundredths / 100)
        let fraction = hundredths % 100
        guard fraction != 0 else { return }
        bytes.append(UInt8(ascii: "."))
        bytes.append(UInt8(ascii: "0") + UInt8(fraction / 10))
        if fraction % 10 != 0 { bytes.append(UInt8(ascii: "0") + UInt8(fraction % 10)) }
    }

    mutating func integer(_ value: Int) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var rest = value.magnitude
        // Digits come out last first: write them into a small buffer, then append in order.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var count = 0
            repeat {
                digits[19 - count] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
                count += 1
            } while rest > 0
            bytes.append(contentsOf: digits[(20 - count)...])
        }
    }

    /// Numbers separated by spaces, then the operator and a line break: `1 2 3 4 re`.
    mutating func op(_ numbers: Double..., name: String) {
        for value in numbers {
            number(value)
            bytes.append(0x20)
        }
        append(name)
        bytes.append(0x0A)
    }

    /// A literal string: `(text)`, with the three characters PDF escapes.
    mutating func string(_ text: [UInt8]) {
        bytes.append(UInt8(ascii: "("))
        for byte in text {
            if byte == UInt8(ascii: "(") || byte == UInt8(ascii: ")") || byte == UInt8(ascii: "\\") {
                bytes.append(UInt8(ascii: "\\"))
            }
            bytes.append(byte)
        }
        bytes.append(UInt8(ascii: ")"))
    }

    /// A literal string escaped as libharu's text operators escape it (HPDF_NEEDS_ESCAPE,
    /// hpdf_utils.h): every byte outside printable ASCII and every delimiter as `\ooo`. The
    /// offline template finds and rewrites dates written so (`OfflineTemplate.pdfText`).
    mutating func escapedString(_ text: [UInt8]) {
        bytes.append(UInt8(ascii: "("))
        for byte in text {
            switch byte {
            case 0x20...0x7E where !Self.escaped.contains(byte):
                bytes.append(byte)
            default:
                bytes += [
                    UInt8(ascii: "\\"), UInt8(ascii: "0") + byte >> 6, UInt8(ascii: "0") + (byte >> 3) & 7,
                    UInt8(ascii: "0") + byte & 7,
                ]
            }
        }
        bytes.append(UInt8(ascii: ")"))
    }

    private static let escaped = Set("\\%#/()<>[]{}".utf8)

    /// Four hexadecimal digits.
    mutating func hex(_ value: UInt16) {
        for shift in [12, 8, 4, 0] {
            let digit = UInt8(truncatingIfNeeded: value >> UInt16(shift)) & 0xF
            bytes.append(digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "A") + digit - 10)
        }
    }

    /// Two-byte codes as a hexadecimal string: `<00010002>`.
    mutating func hexString(_ codes: [UInt16]) {
        bytes.append(UInt8(ascii: "<"))
        for code in codes { hex(code) }
        bytes.append(UInt8(ascii: ">"))
    }
}

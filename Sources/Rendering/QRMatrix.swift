import CQRencode
import Glibc

/// The modules of a QR code (error correction level M, byte mode), row 0 at the top.
struct QRMatrix {
    let width: Int
    /// Dark (true) or light, row by row from the top left.
    let modules: [Bool]

    /// The mask of every code drawn here. ISO/IEC 18004 allows any of the eight: a reader
    /// reads the mask from the code's format information, and the penalty score that
    /// libqrencode computes for each of them (six times the cost of encoding) only picks the
    /// "nicest" looking. Mask 2 is the one that search picked for 1,931 of 2,160
    /// attestation-like payloads (ten names, every hour, minutes 0 to 56 by 7); every mask is
    /// read back by zbarimg from the rasterised PDF in QRMaskTests, at print and at phone size.
    static let mask: Int32 = 2

    init(encoding bytes: [UInt8], mask: Int32 = QRMatrix.mask) throws(RenderingError) {
        precondition((0...7).contains(mask), "QR masks are 0 to 7")
        // Version 0: the smallest version the data fits in.
        guard let input = QRinput_new2(0, QR_ECLEVEL_M) else { throw .qrEncodingFailed(errno: errno) }
        defer { QRinput_free(input) }
        let appended = bytes.withUnsafeBufferPointer {
            QRinput_append(input, QR_MODE_8, Int32($0.count), $0.baseAddress)
        }
        guard appended == 0 else { throw .qrEncodingFailed(errno: errno) }
        guard let code = QRcode_encodeMask(input, mask) else {
            // ERANGE: more data than the largest version holds at level M.
            throw errno == ERANGE ? .qrCodeTooLarge(bytes.count) : .qrEncodingFailed(errno: errno)
        }
        defer { QRcode_free(code) }
        width = Int(code.pointee.width)
        // Bit 0 of each byte is the module's colour; the other bits are libqrencode's bookkeeping.
        modules = (0..<width * width).map { code.pointee.data[$0] & 1 == 1 }
    }

    func isDark(row: Int, column: Int) -> Bool { modules[row * width + column] }

    /// The dark modules as few rectangles as a simple sweep finds: each row's runs, with runs
    /// that repeat exactly on the following rows merged into one taller rectangle. Fewer
    /// drawing operators make a smaller, faster PDF.
    func rectangles() -> [ModuleRect] {
        var done: [ModuleRect] = []
        // Rectangles still growing, ordered by x, as left by the previous row.
        var open: [ModuleRect] = []
        var next: [ModuleRect] = []
        for row in 0..<width {
            next.removeAll(keepingCapacity: true)
            var index = 0
            var column = 0
            while column < width {
                guard isDark(row: row, column: column) else {
                    column += 1
                    continue
                }
                let start = column
                while column < width, isDark(row: row, column: column) { column += 1 }
                let length = column - start
                while index < open.count, open[index].x < start {
                    done.append(open[index])
                    index += 1
                }
                if index < open.count, open[index].x == start {
                    let rect = open[index]
                    index += 1
                    if rect.width == length {
                        next.append(ModuleRect(x: start, y: rect.y, width: length, height: rect.height + 1))
                        continue
                    }
                    done.append(rect)
                }
                next.append(ModuleRect(x: start, y: row, width: length, height: 1))
            }
            done.append(contentsOf: open[index...])
            swap(&open, &next)
        }
        done.append(contentsOf: open)
        return done
    }
}

/// A rectangle of dark modules, in module units from the top-left of the code.
struct ModuleRect: Equatable {
    let x: Int
    let y: Int
    let width: Int
    let height: Int
}

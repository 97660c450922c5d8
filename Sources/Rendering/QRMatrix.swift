import CQRencode

/// The modules of a QR code (error correction level M, byte mode), row 0 at the top.
struct QRMatrix {
    let width: Int
    private let dark: [Bool]

    init(encoding bytes: [UInt8]) throws(RenderingError) {
        guard let code = bytes.withUnsafeBufferPointer({
            QRcode_encodeData(Int32($0.count), $0.baseAddress, 0, QR_ECLEVEL_M)
        }) else {
            throw .qrCodeTooLarge(bytes.count)
        }
        defer { QRcode_free(code) }
        width = Int(code.pointee.width)
        // Bit 0 of each byte is the module's colour; the other bits are libqrencode's bookkeeping.
        dark = (0..<width * width).map { code.pointee.data[$0] & 1 == 1 }
    }

    func isDark(row: Int, column: Int) -> Bool { dark[row * width + column] }

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
                guard isDark(row: row, column: column) else { column += 1; continue }
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

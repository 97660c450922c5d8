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
        var open: [Run: ModuleRect] = [:]
        for row in 0..<width {
            var seen = Set<Run>()
            var column = 0
            while column < width {
                guard isDark(row: row, column: column) else { column += 1; continue }
                let start = column
                while column < width, isDark(row: row, column: column) { column += 1 }
                let run = Run(start: start, length: column - start)
                seen.insert(run)
                if let rect = open[run] {
                    open[run] = ModuleRect(x: rect.x, y: rect.y, width: rect.width, height: rect.height + 1)
                } else {
                    open[run] = ModuleRect(x: start, y: row, width: run.length, height: 1)
                }
            }
            for (run, rect) in open where !seen.contains(run) {
                done.append(rect)
                open[run] = nil
            }
        }
        done.append(contentsOf: open.values)
        return done.sorted { ($0.y, $0.x) < ($1.y, $1.x) }
    }

    private struct Run: Hashable {
        let start: Int
        let length: Int
    }
}

/// A rectangle of dark modules, in module units from the top-left of the code.
struct ModuleRect: Equatable {
    let x: Int
    let y: Int
    let width: Int
    let height: Int
}

/// A QR code (level M) of any text, drawn for a terminal or as SVG: how an administrator hands a
/// link to a phone. The attestation's own codes are drawn by `AttestationRenderer`.
public struct QRCodeDrawing: Sendable {
    private let matrix: QRMatrix

    public init(text: String) throws(RenderingError) {
        matrix = try QRMatrix(encoding: Array(text.utf8))
    }

    /// Modules on a side, without the quiet zone.
    public var modules: Int { matrix.width }

    /// Two rows of modules per line of text with half blocks, dark on a light background
    /// (inverted video would scan badly on dark terminals), and a 2-module quiet zone.
    public func terminalText() -> String {
        let quiet = 2
        let side = matrix.width + 2 * quiet
        func dark(_ row: Int, _ column: Int) -> Bool {
            let (r, c) = (row - quiet, column - quiet)
            return (0..<matrix.width).contains(r) && (0..<matrix.width).contains(c) && matrix.isDark(row: r, column: c)
        }
        // Light modules are printed as full blocks (the paper), dark ones as spaces.
        var text = ""
        for row in stride(from: 0, to: side, by: 2) {
            for column in 0..<side {
                switch (dark(row, column), row + 1 < side ? dark(row + 1, column) : false) {
                case (false, false): text += "█"
                case (true, false): text += "▄"
                case (false, true): text += "▀"
                case (true, true): text += " "
                }
            }
            text += "\n"
        }
        return text
    }

    /// A standalone SVG, `size` pixels wide, with a 4-module quiet zone, modules merged into rectangles.
    public func svg(size: Int = 200) -> String {
        let side = matrix.width + 8
        var path = ""
        for rect in matrix.rectangles() {
            path += "M\(rect.x + 4) \(rect.y + 4)h\(rect.width)v\(rect.height)h-\(rect.width)z"
        }
        return """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(side) \(side)" width="\(size)" height="\(size)" \
            shape-rendering="crispEdges" role="img"><rect width="\(side)" height="\(side)" fill="#fff"/>\
            <path fill="#000" d="\(path)"/></svg>
            """
    }
}

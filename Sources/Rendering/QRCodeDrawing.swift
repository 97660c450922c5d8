/// A QR code (level M) of any text, its modules for a terminal or drawn as SVG: how an administrator hands a
/// link to a phone. The attestation's own codes are drawn by `AttestationRenderer`.
public struct QRCodeDrawing: Sendable {
    private let matrix: QRMatrix

    public init(text: String) throws(RenderingError) {
        matrix = try QRMatrix(encoding: Array(text.utf8))
    }

    /// Modules on a side, without the quiet zone.
    public var modules: Int { matrix.width }

    /// Whether a module is dark, row 0 at the top, without the quiet zone: for drawings made
    /// elsewhere (the admin CLI's terminal code, in colours of its choice).
    public func isDark(row: Int, column: Int) -> Bool { matrix.isDark(row: row, column: column) }

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

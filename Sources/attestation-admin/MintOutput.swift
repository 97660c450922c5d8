import Foundation
import Rendering

/// The minted links in the chosen format.
struct MintOutput {
    let links: [MintedLink]
    let format: Mint.Format

    var text: String {
        get throws {
            switch format {
            case .url:
                return links.map { $0.url + "\n" }.joined()
            case .json:
                return try prettyJSON(links) + "\n"
            case .qr:
                return try links.map { link in
                    "\(link.name) — scannez avec le téléphone :\n\(try Self.qr(link.url).terminalText())\(link.url)\n\n"
                }.joined()
            case .html:
                return try html()
            }
        }
    }

    private static func qr(_ text: String) throws -> QRCodeDrawing {
        do { return try QRCodeDrawing(text: text) } catch { throw AdminError.software(error.description) }
    }

    /// A self-contained page: no script, no request to any other site.
    private func html() throws -> String {
        let items = try links.map { link in
            """
                <li>
                  <h2>\(escape(link.name))</h2>
                  \(try Self.qr(link.url).svg(size: 220))
                  <p><a href="\(escape(link.url))">Attestation (PDF)</a> · <a href="\(escape(link.pageURL))">Page personnelle</a>\
            \(link.expiresAt.map { " · expire le \(escape($0))" } ?? "")</p>
                </li>
            """
        }.joined(separator: "\n")
        return """
            <!DOCTYPE html>
            <html lang="fr">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="referrer" content="no-referrer">
            <title>Liens d’attestation</title>
            <style>
              body { font-family: system-ui, sans-serif; margin: 1rem; }
              ul { list-style: none; padding: 0; display: grid; gap: 1.5rem; grid-template-columns: repeat(auto-fill, minmax(260px, 1fr)); }
              li { border: 1px solid #888; border-radius: .5rem; padding: 1rem; break-inside: avoid; }
              h2 { font-size: 1.1rem; margin: 0 0 .5rem; }
            </style>
            </head>
            <body>
            <h1>Liens d’attestation</h1>
            <p>Chaque lien est personnel : scannez le QR code avec le téléphone de la personne, puis ajoutez-le aux favoris ou à l’écran d’accueil. Ne partagez pas cette page.</p>
            <ul>
            \(items)
            </ul>
            </body>
            </html>

            """
    }

    private func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}

import Foundation
import HTTPServer

/// The refusals of the attestation routes as a browser shows them: a French page (the embedded
/// template `Resources/erreur.html`) saying what happened and what to do, with a link to the
/// person's page when the link itself holds, and the administrator's contact when the
/// configuration gives one. Bookmarks and Shortcuts open these routes directly, on a phone:
/// a line of plain text there is tiny and says nothing of what to do. Scripts, which do not ask
/// for `text/html`, keep the plain text.
enum ErrorPage {
    static let template = String(decoding: EmbeddedFiles.required("Resources/erreur.html"), as: UTF8.self)

    /// Whether the client asked for a page: browsers send `Accept: text/html,…` when they
    /// navigate; curl, scripts and the Shortcuts app's "Get contents" do not.
    static func wanted(by request: HTTPRequest) -> Bool {
        request.header("Accept")?.lowercased().contains("text/html") ?? false
    }

    /// - Parameters:
    ///   - personalPage: the person's page (`/?t=…`), when the token verified.
    ///   - contact: the configuration's `contact`.
    static func response(
        _ error: RouteError, personalPage: String?, contact: String?,
        extraHeaders: [(name: String, value: String)] = []
    ) -> HTTPResponse {
        let (title, advice) = wording(error, personalPage: personalPage != nil)
        let message = error.message.prefix(1).uppercased() + error.message.dropFirst()
        var page = template
        page = block("page", in: page, keep: personalPage != nil)
        page = block("contact", in: page, keep: contact != nil)
        for (name, value) in [
            ("titre", title), ("message", message), ("conseil", advice), ("page", personalPage ?? ""),
            ("contact", contact ?? ""), ("statut", String(error.status)),
        ] {
            page = page.replacingOccurrences(of: "{{\(name)}}", with: escaped(value))
        }
        return HTTPResponse(
            status: error.status,
            headers: Routes.pageHeaders + [("Cache-Control", "no-store")] + extraHeaders
                + [("Content-Type", "text/html; charset=utf-8")],
            body: Array(page.utf8))
    }

    /// The heading and what to do, by status.
    static func wording(_ error: RouteError, personalPage: Bool) -> (title: String, advice: String) {
        switch error.status {
        case 400:
            return (
                "Demande incorrecte",
                personalPage
                    ? "Votre lien est valable, mais un paramètre ajouté ne l’est pas. Ouvrez votre page personnelle pour choisir l’heure de sortie et les motifs : elle donne le bon lien."
                    : "Rouvrez le lien tel que votre administrateur l’a envoyé, sans rien y ajouter ni couper."
            )
        case 403:
            return (
                "Lien non valable",
                "Le lien est incomplet ou a été modifié. Rouvrez-le tel que votre administrateur l’a envoyé, en entier ; s’il ne fonctionne toujours pas, demandez-lui un nouveau lien."
            )
        case 410:
            return (
                "Lien expiré ou révoqué",
                "Ce lien ne donne plus d’attestation. Demandez un nouveau lien à votre administrateur ; l’ancien ne reviendra pas."
            )
        case 503:
            return ("Service en cours de redémarrage", "Réessayez dans un instant.")
        case 500...:
            return (
                "Attestation impossible pour l’instant",
                "Le service a un problème que seul votre administrateur peut régler : prévenez-le. Réessayez plus tard."
            )
        default:
            return ("Attestation impossible", "Rouvrez le lien tel que votre administrateur l’a envoyé.")
        }
    }

    /// The template's optional part `<!--name-->…<!--/name-->`: kept without its markers, or removed.
    private static func block(_ name: String, in page: String, keep: Bool) -> String {
        guard let start = page.range(of: "<!--\(name)-->"),
            let end = page.range(of: "<!--/\(name)-->", range: start.upperBound..<page.endIndex)
        else {
            return page
        }
        var result = page
        if keep {
            result.replaceSubrange(end, with: "")
            result.replaceSubrange(start, with: "")
        } else {
            result.replaceSubrange(start.lowerBound..<end.upperBound, with: "")
        }
        return result
    }

    static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }
}

import AttestationConfiguration
import AttestationKit
import HTTPServer
import LinkTokens

/// A request refused: its status, the French message shown to the person, and a short English
/// reason for the operators' log. Neither holds the token nor personal data. A value of the
/// request the message names (`motif « … » inconnu`) has its invisible characters written out
/// (`U+0000`, `VisibleText`): the text, JSON and page of a refusal never carry a NUL, a line
/// break or a terminal's escape back.
struct RouteError: Error, Sendable {
    let status: Int
    let message: String
    /// `link_revoked`, `bad_parameter`…: logged with the request.
    let reason: String
    /// The pinned form of a verified link that this server does not have: `/healthz` names it.
    var missingForm: String? = nil

    static func badParameter(_ message: String) -> RouteError {
        RouteError(status: 400, message: message, reason: "bad_parameter")
    }

    init(status: Int, message: String, reason: String) {
        self.status = status
        self.message = VisibleText.escaped(message)
        self.reason = reason
    }

    /// The status DESIGN.md gives each way a link can fail.
    init(_ error: LinkRequestError) {
        message = VisibleText.escaped(error.description)
        (status, reason) =
            switch error {
            case .link(.malformed): (403, "link_malformed")
            case .link(.unsupportedVersion): (403, "link_unsupported_version")
            case .link(.unknownKey): (403, "link_unknown_key")
            case .link(.badSignature): (403, "link_bad_signature")
            case .link(.expired): (410, "link_expired")
            case .link(.revoked): (410, "link_revoked")
            case .link(.valid): (400, "bad_parameter")
            case .reasonsLocked: (400, "reasons_locked")
            case .parameter: (400, "bad_parameter")
            // The link is sound; its form was removed from formsDirectory: unavailable here until
            // it comes back, not a fault of the server (a 500 while /healthz said ok, issue 38).
            case .unknownForm: (503, "form_not_installed")
            case .unknownTimeZone: (500, "time_zone_unknown")
            case .linkReasons: (500, "link_reasons_not_in_form")
            // The link is sound and the server too: the rules changed under it, the person chooses.
            case .reasonsNotInForm: (409, "reasons_not_in_form_in_force")
            case .unknownContext, .contextOfPinnedLink: (400, "bad_parameter")
            case .emptyCalendar: (500, "calendar_empty")
            }
        if case .unknownForm(let id) = error { missingForm = id }
    }
}

/// Query strings are read strictly: a misspelt `ofset=-20` must not silently give an
/// attestation for now.
enum QueryParameters {
    /// The values by name, each given at most once and only among `accepted`; an empty value
    /// counts as absent.
    static func parse(_ items: [QueryItem], accepted: [String]) throws(RouteError) -> [String: String] {
        var values: [String: String] = [:]
        var seen: Set<String> = []
        for item in items {
            // `&&`, a leading or trailing `&`: nothing was given there.
            if item.name.isEmpty, item.value?.isEmpty ?? true { continue }
            guard accepted.contains(item.name) else {
                let shown =
                    !item.name.isEmpty && item.name.count <= 30
                        && item.name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" })
                    ? " " + VisibleText.quoted(item.name) : ""
                throw .badParameter(
                    accepted.isEmpty
                        ? "paramètre\(shown) inconnu ; cette adresse n’en accepte aucun."
                        : "paramètre\(shown) inconnu ; paramètres acceptés : \(accepted.joined(separator: ", ")).")
            }
            guard seen.insert(item.name).inserted else {
                throw .badParameter("paramètre \(item.name) donné plusieurs fois ; une seule valeur est acceptée.")
            }
            if let value = item.value, !value.isEmpty { values[item.name] = value }
        }
        return values
    }

    /// The token, required.
    static func token(in values: [String: String]) throws(RouteError) -> String {
        guard let token = values["t"] else {
            throw .badParameter("paramètre t manquant : ouvrez le lien complet reçu de votre administrateur.")
        }
        return token
    }
}

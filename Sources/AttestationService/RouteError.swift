import AttestationConfiguration
import HTTPServer
import LinkTokens

/// A request refused: its status and the French message shown to the person. The message
/// never holds the token nor personal data, so it can be logged too.
struct RouteError: Error, Sendable {
    let status: Int
    let message: String

    static func badParameter(_ message: String) -> RouteError { RouteError(status: 400, message: message) }

    init(status: Int, message: String) {
        self.status = status
        self.message = message
    }

    /// The status DESIGN.md gives each way a link can fail.
    init(_ error: LinkRequestError) {
        self.message = error.description
        switch error {
        case .link(.malformed), .link(.unsupportedVersion), .link(.unknownKey), .link(.badSignature):
            status = 403
        case .link(.expired), .link(.revoked):
            status = 410
        case .link(.valid), .reasonsLocked, .parameter:
            status = 400
        case .unknownForm, .unknownTimeZone:
            status = 500
        }
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
            guard accepted.contains(item.name) else {
                let shown = item.name.count <= 30 && item.name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" })
                    ? " « \(item.name) »" : ""
                throw .badParameter(accepted.isEmpty
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

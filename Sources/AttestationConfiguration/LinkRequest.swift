import AttestationKit
import Foundation
import LinkTokens

/// A link opened with its parameters: the token and the optional `offset`, `at`, `reasons`.
public struct LinkRequest: Sendable {
    public var token: String
    public var offset: String?
    public var at: String?
    /// Comma-separated reason codes replacing the link's own, unless the link locks them.
    public var reasons: String?

    public init(token: String, offset: String? = nil, at: String? = nil, reasons: String? = nil) {
        self.token = token
        self.offset = offset
        self.at = at
        self.reasons = reasons
    }

    /// The token of a link (`…?t=TOKEN`), or the text itself when it is a bare token.
    public static func token(fromLinkOrToken text: String) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.contains("?") || trimmed.contains("://"),
              let components = URLComponents(string: trimmed),
              let token = components.queryItems?.first(where: { $0.name == "t" })?.value else { return trimmed }
        return token
    }
}

extension ServiceState {
    /// Verifies the link and builds the attestation it asks for, created `now`.
    public func attestation(for request: LinkRequest, now: Date = Date()) throws(LinkRequestError) -> Attestation {
        let contents: LinkContents
        switch LinkToken.verify(request.token, keys: keys, revoked: revoked, now: now) {
        case .valid(let valid, _): contents = valid
        case let failure: throw .link(failure)
        }
        guard let form = catalog.form(id: contents.formID) else { throw .unknownForm(contents.formID) }
        let zone = try contents.timeZone.map { (identifier) throws(LinkRequestError) -> TimeZone in
            guard let zone = TimeZone(identifier: identifier) else { throw .unknownTimeZone(identifier) }
            return zone
        } ?? .paris

        var reasons = contents.reasons
        if let requested = request.reasons {
            guard !contents.lockReasons else { throw .reasonsLocked }
            reasons = requested.split(separator: ",", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
        }
        let exit: ExitTime
        do { exit = try ExitTime.parse(offset: request.offset, at: request.at) } catch { throw .parameter(error.description) }
        do {
            return try Attestation(identity: contents.identity, form: form, reasonCodes: reasons, exit: exit,
                                   timeZone: zone, now: now, bounds: bounds)
        } catch {
            throw .parameter(error.description)
        }
    }
}

/// Why a link could not give an attestation; `description` is the French message, safe to
/// show and to log (it never holds the token nor personal data).
public enum LinkRequestError: Error, Sendable, Equatable, CustomStringConvertible {
    case link(LinkVerification)
    case reasonsLocked
    case unknownForm(String)
    case unknownTimeZone(String)
    case parameter(String)

    public var description: String {
        switch self {
        case .link(.malformed):
            return "lien invalide : ce n’est pas un lien d’attestation complet ; vérifiez qu’il a été copié en entier."
        case .link(.unsupportedVersion(let version)):
            return "lien d’une version inconnue (\(version)) ; ce serveur lit la version \(LinkToken.version)."
        case .link(.unknownKey):
            return "lien signé par une clé inconnue de ce serveur (retirée ou jamais installée) ; demandez un nouveau lien."
        case .link(.badSignature):
            return "lien altéré : sa signature ne correspond pas ; demandez un nouveau lien à votre administrateur."
        case .link(.expired):
            return "lien expiré ; demandez un nouveau lien à votre administrateur."
        case .link(.revoked):
            return "lien révoqué ; demandez un nouveau lien à votre administrateur."
        case .link(.valid):
            return "lien valide."
        case .reasonsLocked:
            return "ce lien impose ses motifs ; le paramètre reasons n’est pas accepté."
        case .unknownForm(let id):
            return "le formulaire \(id) de ce lien n’est pas installé sur ce serveur."
        case .unknownTimeZone(let zone):
            return "le fuseau horaire \(zone) de ce lien est inconnu de ce serveur."
        case .parameter(let message):
            return message
        }
    }
}

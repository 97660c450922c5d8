import AttestationKit
import FormSchema
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
            let token = components.queryItems?.first(where: { $0.name == "t" })?.value
        else { return trimmed }
        return token
    }
}

/// A link whose signature holds and which this server can serve: its form is installed, its time
/// zone known, its own reasons belong to its form.
public struct VerifiedLink: Sendable {
    public let contents: LinkContents
    public let form: Form
    public let timeZone: TimeZone
}

extension ServiceState {
    /// Verifies the link and checks that everything it names is here, so the personal page and
    /// the documents agree: a link refused by one is refused by the other, for the same reason.
    public func verify(token: String, now: Date = Date()) throws(LinkRequestError) -> VerifiedLink {
        let contents: LinkContents
        switch LinkToken.verify(token, keys: keys, revoked: revoked, now: now) {
        case .valid(let valid, _): contents = valid
        case let failure: throw .link(failure)
        }
        guard let form = catalog.form(id: contents.formID) else { throw .unknownForm(contents.formID) }
        let zone =
            try contents.timeZone.map { (identifier) throws(LinkRequestError) -> TimeZone in
                guard let zone = TimeZone(identifier: identifier) else { throw .unknownTimeZone(identifier) }
                return zone
            } ?? .paris
        guard !contents.reasons.isEmpty, contents.reasons.allSatisfy({ form.reason(code: $0) != nil }) else {
            throw .linkReasons(formID: form.id)
        }
        return VerifiedLink(contents: contents, form: form, timeZone: zone)
    }

    /// Verifies the link and builds the attestation it asks for, created `now`.
    public func attestation(for request: LinkRequest, now: Date = Date()) throws(LinkRequestError) -> Attestation {
        let link = try verify(token: request.token, now: now)
        let contents = link.contents
        var reasons = contents.reasons
        if let requested = request.reasons {
            guard !contents.lockReasons else { throw .reasonsLocked }
            // Empty entries (`a,,b`, a trailing comma) are slips, not reasons.
            reasons = requested.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
                !$0.isEmpty
            }
        }
        let exit: ExitTime
        do { exit = try ExitTime.parse(offset: request.offset, at: request.at) } catch {
            throw .parameter(error.description)
        }
        do {
            return try Attestation(
                identity: contents.identity, form: link.form, reasonCodes: reasons, exit: exit,
                timeZone: link.timeZone, now: now, bounds: bounds)
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
    /// The link's own reasons are none, or not of its form (a form changed since it was minted).
    case linkReasons(formID: String)
    case parameter(String)

    public var description: String {
        switch self {
        case .link(.malformed):
            return "lien invalide : ce n’est pas un lien d’attestation complet ; vérifiez qu’il a été copié en entier."
        case .link(.unsupportedVersion(let version)):
            return "lien d’une version inconnue (\(version)) ; ce serveur lit la version \(LinkToken.version)."
        case .link(.unknownKey):
            return
                "lien signé par une clé inconnue de ce serveur (retirée ou jamais installée) ; demandez un nouveau lien."
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
        case .linkReasons(let formID):
            return "les motifs de ce lien ne sont pas ceux du formulaire \(formID) installé sur ce serveur ; "
                + "demandez un nouveau lien à votre administrateur."
        case .parameter(let message):
            return message
        }
    }
}

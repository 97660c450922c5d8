import AttestationKit
import FormSchema
import Foundation
import LinkTokens

/// A link opened with its parameters: the token and the optional `offset`, `at`, `reasons`,
/// `context`.
public struct LinkRequest: Sendable {
    public var token: String
    public var offset: String?
    public var at: String?
    /// Comma-separated reason codes replacing the link's own, unless the link locks them.
    public var reasons: String?
    /// The context of the version in force (`couvre-feu`, `week-end`) instead of the link's own.
    public var context: String?

    public init(
        token: String, offset: String? = nil, at: String? = nil, reasons: String? = nil, context: String? = nil
    ) {
        self.token = token
        self.offset = offset
        self.at = at
        self.reasons = reasons
        self.context = context
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

/// A link whose signature holds and which this server can serve: its pinned form is installed,
/// its time zone known, its own reasons belong to its form (or to the calendar's forms).
public struct VerifiedLink: Sendable {
    public let contents: LinkContents
    /// The form the link names; nil for a link that follows the calendar.
    public let pinnedForm: Form?
    public let timeZone: TimeZone

    public var followsCalendar: Bool { pinnedForm == nil }
}

/// The form a link prints at an exit instant: its own, or the calendar's version in force.
public struct FormInForce: Sendable {
    public let form: Form
    /// The version in force, for a link that follows the calendar.
    public let version: FormCalendar.Version?
    /// The next change of version after the instant, if one is scheduled.
    public let next: FormCalendar.Version?
    /// The link's default reasons as `form` names them, and those it has no counterpart for.
    public let reasons: CarriedReasons
    /// When some are missing: the other contexts of the version that have them all.
    public var contextsWithReasons: [InForce] = []
    /// When the instant is past the end of the calendar (`FormCalendar.end`): since when no
    /// attestation is asked; the last version is still printed.
    public var ended: Date? = nil
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
        let zone =
            try contents.timeZone.map { (identifier) throws(LinkRequestError) -> TimeZone in
                guard let zone = TimeZone(identifier: identifier) else { throw .unknownTimeZone(identifier) }
                return zone
            } ?? .paris
        guard let formID = contents.formID else {
            let known = Set((catalog.forms + catalog.pendingForms).flatMap(\.printedReasons).map(\.code))
            guard !contents.reasons.isEmpty, contents.reasons.allSatisfy(known.contains) else {
                throw .linkReasons(formID: nil)
            }
            return VerifiedLink(contents: contents, pinnedForm: nil, timeZone: zone)
        }
        guard let form = catalog.form(id: formID) else { throw .unknownForm(formID) }
        guard !contents.reasons.isEmpty, contents.reasons.allSatisfy({ form.reason(code: $0) != nil }) else {
            throw .linkReasons(formID: form.id)
        }
        return VerifiedLink(contents: contents, pinnedForm: form, timeZone: zone)
    }

    /// The form `link` prints for an exit at `instant`: its pinned form, or the version in force
    /// then in `context` (the request's, else the one whose hours cover `instant`: the link's
    /// default where they do, `FormCalendar.Version.defaultForm`).
    public func form(
        for link: VerifiedLink, at instant: Date, context: String? = nil
    ) throws(LinkRequestError) -> FormInForce {
        let contents = link.contents
        if let form = link.pinnedForm {
            guard context == nil else { throw .contextOfPinnedLink(formID: form.id) }
            return FormInForce(
                form: form, version: nil, next: nil, reasons: CarriedReasons(codes: contents.reasons, missing: []))
        }
        guard let version = calendar.version(at: instant) else { throw .emptyCalendar }
        let form: Form
        if let context {
            // Only a context of the version in force: one of another version (`journee` on 20
            // March 2021) answered 200 with the curfew form, a document that did not cover the
            // person who asked for the daytime one (issue 38). Fail closed, say which exist.
            guard let chosen = version.form(context: context) else {
                throw .unknownContext(context, accepted: version.contexts, at: instant)
            }
            form = chosen
        } else {
            // No context: the one whose hours cover the exit instant, the link's own default
            // first (the first context whatever the hour printed the curfew form at noon).
            form = version.defaultForm(at: instant, preferring: contents.context)
        }
        let reasons = calendar.carryOver(contents.reasons, into: form)
        // Where the person's reasons are, when the chosen context lacks some of them.
        let elsewhere = version.forms.filter { other in
            other != form && calendar.carryOver(contents.reasons, into: other).missing.isEmpty
        }
        return FormInForce(
            form: form, version: version, next: calendar.version(after: instant), reasons: reasons,
            contextsWithReasons: reasons.missing.isEmpty ? [] : elsewhere.compactMap(\.inForce),
            ended: calendar.end.flatMap { $0 <= instant && version == calendar.versions.last ? $0 : nil })
    }

    /// Verifies the link and builds the attestation it asks for, created `now`, in the form in
    /// force at its exit instant.
    public func attestation(for request: LinkRequest, now: Date = Date()) throws(LinkRequestError) -> Attestation {
        let link = try verify(token: request.token, now: now)
        let contents = link.contents
        let exit: ExitTime
        let exitInstant: Date
        do {
            exit = try ExitTime.parse(offset: request.offset, at: request.at)
            exitInstant = try exit.resolve(now: now, in: link.timeZone, bounds: bounds)
        } catch {
            throw .parameter(error.description)
        }
        let inForce = try form(for: link, at: exitInstant, context: request.context)
        var reasons = inForce.reasons.codes
        if let requested = request.reasons {
            guard !contents.lockReasons else { throw .reasonsLocked }
            // Empty entries (`a,,b`, a trailing comma) are slips, not reasons. A code of an earlier
            // version (a Shortcut written then) is read as the reason that continues it.
            let codes = requested.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
                !$0.isEmpty
            }
            reasons = codes.map { code in calendar.carryOver([code], into: inForce.form).codes.first ?? code }
        } else if !inForce.reasons.missing.isEmpty {
            // « n’existe plus » only of reasons the version in force when the link was minted had.
            let mintedUnder = calendar.version(at: contents.issuedAt)?.forms.flatMap(\.reasons).map(\.code) ?? []
            throw .reasonsNotInForm(
                missing: inForce.reasons.missing, form: inForce.form, locked: contents.lockReasons,
                contextsWithReasons: inForce.contextsWithReasons,
                existedWhenMinted: inForce.reasons.missing.allSatisfy(mintedUnder.contains))
        }
        do {
            return try Attestation(
                identity: contents.identity, form: inForce.form, reasonCodes: reasons, exit: exit,
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
    /// The link's own reasons are none, or not of its form (a form changed since it was minted);
    /// for a link that follows the calendar (nil), of no form this server knows.
    case linkReasons(formID: String?)
    /// The version in force has no counterpart for some of the link's default reasons, which the
    /// version in force when the link was minted had (`existedWhenMinted`) or not.
    case reasonsNotInForm(
        missing: [String], form: Form, locked: Bool, contextsWithReasons: [InForce], existedWhenMinted: Bool)
    /// A `context` the version in force at `at` does not have.
    case unknownContext(String, accepted: [String], at: Date)
    /// A `context` asked of a link that always prints one form.
    case contextOfPinnedLink(formID: String)
    /// A calendar with no version: links that follow it cannot print anything.
    case emptyCalendar
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
            return "le formulaire \(VisibleText.quoted(id)) de ce lien n’est plus installé sur ce serveur ; "
                + "prévenez la personne qui vous a donné ce lien : elle peut le réinstaller ou vous en donner un nouveau."
        case .unknownTimeZone(let zone):
            return "le fuseau horaire \(zone) de ce lien est inconnu de ce serveur."
        case .linkReasons(let formID?):
            return "les motifs de ce lien ne sont pas ceux du formulaire \(formID) installé sur ce serveur ; "
                + "demandez un nouveau lien à votre administrateur."
        case .linkReasons(nil):
            return "les motifs de ce lien ne sont ceux d’aucun formulaire installé sur ce serveur ; "
                + "demandez un nouveau lien à votre administrateur."
        case .reasonsNotInForm(let missing, let form, let locked, let elsewhere, let existedWhenMinted):
            let quoted = missing.map(VisibleText.quoted).joined(separator: ", ")
            // « plus »: they were in the form when the link was made; else they never were in
            // this one (a link minted that day with an older code), and « plus » would mislead.
            let verb =
                missing.count == 1
                ? (existedWhenMinted ? "n’existe plus" : "n’existe pas")
                : (existedWhenMinted ? "n’existent plus" : "n’existent pas")
            let subject =
                missing.count == 1 ? "le motif \(quoted) de ce lien \(verb)" : "les motifs \(quoted) de ce lien \(verb)"
            let since = form.inForce.map { " depuis le \(LocalDateTime($0.start, in: .paris).frenchLong)" } ?? ""
            // With contexts, the form of which one: the daytime one lacks what the curfew one has.
            let which = form.inForce?.context.map { " (\(VisibleText.quoted(form.inForce?.contextName ?? $0)))" } ?? ""
            let inForm = "dans le formulaire en vigueur\(which)\(since)"
            if locked {
                return "\(subject) \(inForm), et ce lien impose ses motifs ; "
                    + "demandez un nouveau lien à votre administrateur."
            }
            let accepted = form.reasons.map { "\($0.code) (\($0.shortLabel ?? $0.label))" }.joined(separator: ", ")
            let contexts = elsewhere.compactMap { other in
                other.context.map { "\(VisibleText.quoted(other.contextName ?? $0)) (context=\($0))" }
            }
            let hint = contexts.isEmpty ? "" : " Le contexte qui les a : \(contexts.joined(separator: ", "))."
            return "\(subject) \(inForm) ; choisissez vos motifs sur votre page, "
                + "ou avec le paramètre reasons parmi : \(accepted).\(hint)"
        case .unknownContext(let context, let accepted, let instant):
            let day = LocalDateTime(instant, in: .paris).frenchLong
            return accepted.isEmpty
                ? "contexte \(VisibleText.quoted(context)) inconnu le \(day) : le formulaire en vigueur n’a qu’un contexte ; retirez le paramètre context."
                : "contexte \(VisibleText.quoted(context)) inconnu le \(day) ; contextes du formulaire en vigueur : \(accepted.joined(separator: ", "))."
        case .contextOfPinnedLink(let formID):
            return "ce lien imprime toujours le formulaire \(formID) ; le paramètre context ne s’y applique pas."
        case .emptyCalendar:
            return "aucun formulaire n’est au calendrier de ce serveur ; prévenez votre administrateur."
        case .parameter(let message):
            return message
        }
    }
}

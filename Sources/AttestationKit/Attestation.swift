import Foundation

/// One filled-in attestation: who, under which form's rules, why, when it was made and when the
/// person leaves. How it is drawn is the form schema's business (FormSchema, Rendering).
public struct Attestation: Sendable {
    public let identity: Identity
    public let form: FormRules
    /// The chosen reasons, at least one, in the order of the form.
    public let reasons: [ReasonChoice]
    /// The real moment of generation ("Cree le" in the QR code), never chosen by the user.
    public let created: Date
    /// The declared exit moment ("Sortie").
    public let exit: Date
    /// The zone in which both moments are written (Europe/Paris unless the link says otherwise).
    public let timeZone: TimeZone

    /// - Parameters:
    ///   - reasonCodes: the codes chosen, in any order; duplicates are ignored.
    ///   - now: the moment of generation; pass the real clock, tests pass a fixed one.
    public init(
        identity: Identity, form: FormRules, reasonCodes: [String], exit: ExitTime = .now,
        timeZone: TimeZone = .paris, now: Date = Date(), bounds: OffsetBounds = .standard
    ) throws(AttestationError) {
        guard !reasonCodes.isEmpty else { throw .noReason(form: form) }
        if let unknown = reasonCodes.first(where: { form.reason(code: $0) == nil }) {
            throw .unknownReason(unknown, form: form)
        }
        let chosen = Set(reasonCodes)
        guard form.selection == .oneOrMore || chosen.count == 1 else { throw .oneReasonOnly(form: form) }
        // Fail closed: a link without a place of birth is never drawn on a form that prints it.
        guard !identity.birthPlace.isEmpty || !form.usesBirthPlace else { throw .birthPlaceMissing(form: form) }
        self.identity = identity
        self.form = form
        self.reasons = form.reasons.filter { chosen.contains($0.code) }
        self.created = now
        self.timeZone = timeZone
        do {
            self.exit = try exit.resolve(now: now, in: timeZone, bounds: bounds)
        } catch {
            throw .exitTime(error)
        }
    }

    /// The creation moment as printed, in the attestation's zone.
    public var createdLocal: LocalDateTime { LocalDateTime(created, in: timeZone) }
    /// The exit moment as printed, in the attestation's zone.
    public var exitLocal: LocalDateTime { LocalDateTime(exit, in: timeZone) }

    /// The file name offered for download, from the creation moment: `attestation-2020-11-28_08-15.pdf`.
    public var fileName: String {
        let c = createdLocal
        return
            "attestation-\(fourDigits(c.date.year))-\(twoDigits(c.date.month))-\(twoDigits(c.date.day))_\(twoDigits(c.hour))-\(twoDigits(c.minute)).pdf"
    }
}

/// Why an attestation could not be made; `description` is the French message for the user.
public enum AttestationError: Error, Sendable, CustomStringConvertible {
    case noReason(form: FormRules)
    case unknownReason(String, form: FormRules)
    /// The form takes exactly one reason (`selection` `exactlyOne`) and several were chosen.
    case oneReasonOnly(form: FormRules)
    case exitTime(ExitTimeError)
    /// The person has no place of birth and the form prints it or encodes it.
    case birthPlaceMissing(form: FormRules)

    public var description: String {
        switch self {
        case .noReason(let form):
            return "motif manquant ; au moins un motif est attendu parmi : \(Self.codes(form))."
        case .unknownReason(let code, let form):
            let shown = code.count <= 40 ? " " + VisibleText.quoted(VisibleText.escaped(code)) : ""
            return "motif\(shown) inconnu pour le formulaire \(form.id) ; acceptés : \(Self.codes(form))."
        case .oneReasonOnly(let form):
            return
                "un seul motif par attestation pour le formulaire \(form.id) ; choisissez-en un parmi : \(Self.codes(form))."
        case .exitTime(let error):
            return error.description
        case .birthPlaceMissing(let form):
            return "lieu de naissance manquant ; le formulaire \(form.id) l’imprime, il est obligatoire."
        }
    }

    private static func codes(_ form: FormRules) -> String {
        form.reasons.map(\.code).joined(separator: ", ")
    }
}

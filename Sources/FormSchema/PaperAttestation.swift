import AttestationKit

/// An attestation to print and complete by hand, for someone without a smartphone: the form with
/// the person's identity written in, and nothing the person declares at the moment of going out.
/// No reason is marked, no date or time is written, and there is no QR code (it would hold the
/// reasons and the times): the Ministry's blank forms were printed to be filled in this way, and
/// a paper attestation is valid for any exit, which the person dates and signs by hand.
///
/// Unlike an `Attestation`, it has no reasons and no instants, so it is a value of its own.
public struct PaperAttestation: Sendable, Hashable {
    public let identity: Identity
    public let form: Form

    public init(identity: Identity, form: Form) {
        self.identity = identity
        self.form = form
    }

    /// What `slot` prints: its value when every placeholder of it is a value of the person's
    /// identity (`{firstName} {lastName}`, `{address} {zipCode} {city}`, the `{city}` after
    /// "Fait à"), nothing when any is not: a slot holding a date, a time or the reasons is left
    /// empty, whole, so that it can be written by hand.
    public func text(of slot: FieldSlot) -> String {
        guard Self.isIdentityOnly(slot) else { return "" }
        var values: [String: String] = [:]
        for (placeholder, field) in FieldValues.identityPlaceholders {
            let text = identity.text(of: field)
            // As the attestation prints them (`Attestation.text(of:)`): folded to ASCII when the
            // form folds printed values.
            values[placeholder] = slot.foldsValues ? ASCIIFolding.fold(text) : text
        }
        return FieldValues.fill(slot.value, with: values)
    }

    /// Whether `slot` holds only values of the person's identity (and at least one).
    public static func isIdentityOnly(_ slot: FieldSlot) -> Bool {
        let names = FieldValues.placeholderNames(in: slot.value)
        return !names.isEmpty && names.allSatisfy { FieldValues.identityPlaceholders[$0] != nil }
    }
}

import AttestationKit
import Foundation

extension Attestation {
    /// An attestation under `form`'s rules (see `Attestation.init(identity:form:reasonCodes:…)`
    /// with the rules themselves).
    public init(
        identity: Identity, form: Form, reasonCodes: [String], exit: ExitTime = .now,
        timeZone: TimeZone = .paris, now: Date = Date(), bounds: OffsetBounds = .standard
    ) throws(AttestationError) {
        try self.init(
            identity: identity, form: form.attestationRules, reasonCodes: reasonCodes, exit: exit, timeZone: timeZone,
            now: now,
            bounds: bounds)
    }
}

extension FieldSlot {
    /// The fixed words before the value's first placeholder and after its last (`Fait à ` in
    /// `Fait à {city}`): `fitWidth` measures the value without them.
    public var fixedWords: (prefix: String, suffix: String) {
        guard let open = value.firstIndex(of: "{"), let close = value.lastIndex(of: "}") else { return ("", "") }
        return (String(value[..<open]), String(value[value.index(after: close)...]))
    }
}

extension Attestation {
    /// What `slot` prints for this attestation: its value with the person's exact spelling, or
    /// folded to ASCII when the form folds printed values.
    public func text(of slot: FieldSlot) -> String {
        FieldValues.fill(slot.value, with: values(for: slot))
    }

    /// What `slot` prints with some placeholders' values given instead: the offline template
    /// writes its dates and times as placeholders the page overwrites.
    public func text(of slot: FieldSlot, replacing values: [String: String]) -> String {
        FieldValues.fill(slot.value, with: self.values(for: slot).merging(values) { $1 })
    }

    private func values(for slot: FieldSlot) -> [String: String] {
        slot.foldsValues ? FieldValues.values(self, transform: ASCIIFolding.fold) : FieldValues.values(self)
    }
}

import Foundation

/// A form a pinned link prints, once the calendar has moved past it: a link minted with `--form
/// couvre-feu-2020-10-17` printed that form in June 2021 and today without a word (issue 40).
public struct OutdatedForm: Sendable, Hashable {
    /// Since when a later version is in force, or, for the last version, since when no
    /// attestation is asked (`rulesEnded`).
    public let since: Date
    public let rulesEnded: Bool
}

extension FormCalendar {
    /// Whether `form` is outdated at `instant`: a later version of the calendar is in force, or
    /// the rules ended after its version, the last. Nil while it is in force, before it, and for
    /// a form the calendar does not hold (an administrator's form without `inForce`).
    public func outdated(_ form: Form, at instant: Date) -> OutdatedForm? {
        guard let index = versions.lastIndex(where: { $0.forms.contains { $0.id == form.id } }) else { return nil }
        if versions.indices.contains(index + 1) {
            let next = versions[index + 1].start
            return next <= instant ? OutdatedForm(since: next, rulesEnded: false) : nil
        }
        guard let end, end <= instant else { return nil }
        return OutdatedForm(since: end, rulesEnded: true)
    }
}

import AttestationKit
import Foundation

/// What a link holds: who it is for, which form (or the calendar) and reasons, and its own
/// bookkeeping.
public struct LinkContents: Sendable, Hashable {
    /// For revocation.
    public let id: LinkID
    /// When it was minted, to the minute.
    public let issuedAt: Date
    /// After this moment the link is refused; nil for a link that does not expire.
    public let expiresAt: Date?
    /// The form the link prints, pinned; nil for a link that follows the calendar (the version
    /// in force at each exit instant).
    public let formID: String?
    /// The context chosen by default where the version in force has several (`couvre-feu`).
    public let context: String?
    public let identity: Identity
    /// Reason codes preselected (or imposed, with `lockReasons`).
    public let reasons: [String]
    /// IANA zone for the times on the attestation (outre-mer); nil for Europe/Paris.
    public let timeZone: String?
    /// When set, the person cannot choose other reasons than `reasons`.
    public let lockReasons: Bool

    public init(
        id: LinkID = .random(), issuedAt: Date = Date(), expiresAt: Date? = nil, formID: String?,
        context: String? = nil,
        identity: Identity, reasons: [String], timeZone: String? = nil, lockReasons: Bool = false
    ) {
        self.id = id
        self.issuedAt = LinkClock.minute(issuedAt)
        self.expiresAt = expiresAt.map(LinkClock.minute)
        self.formID = formID
        self.context = context
        self.identity = identity
        self.reasons = reasons
        self.timeZone = timeZone
        self.lockReasons = lockReasons
    }
}

/// Times in a token are whole minutes since 2020-01-01T00:00Z: small varints, and no link
/// predates the forms.
enum LinkClock {
    static let epoch = Date(timeIntervalSince1970: 1_577_836_800)

    /// The latest minute a token holds (2^32 - 1, in the year 10186): past any date the admin
    /// CLI accepts, and small enough that every minute is exact in a `Date`'s Double, so a
    /// decoded time signs back to the same bytes. Beyond 2^53 seconds several varints gave
    /// one instant: two tokens with the same contents.
    static let maximumMinutes = UInt64(UInt32.max)

    /// Whether `date` is a minute a token can hold.
    static func isRepresentable(_ date: Date) -> Bool {
        let minutes = (date.timeIntervalSince(epoch) / 60).rounded(.down)
        return minutes <= Double(maximumMinutes)
    }

    static func minute(_ date: Date) -> Date {
        epoch.addingTimeInterval((date.timeIntervalSince(epoch) / 60).rounded(.down) * 60)
    }

    static func minutes(_ date: Date) -> UInt64 {
        UInt64(max(0, (date.timeIntervalSince(epoch) / 60).rounded(.down)))
    }

    static func date(_ minutes: UInt64) -> Date { epoch.addingTimeInterval(TimeInterval(minutes) * 60) }
}

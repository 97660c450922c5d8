import Foundation

extension TimeZone {
    /// Metropolitan France, the default zone of an attestation.
    public static let paris = TimeZone(identifier: "Europe/Paris")!
}

/// A wall-clock date and time to the minute in some time zone, as the form prints it.
public struct LocalDateTime: Sendable, Hashable {
    public let date: CalendarDate
    public let hour: Int
    public let minute: Int

    /// The wall-clock reading of `instant` in `zone` (seconds are dropped, not rounded).
    public init(_ instant: Date, in zone: TimeZone) {
        let parts = Calendar.gregorian(in: zone).dateComponents([.year, .month, .day, .hour, .minute], from: instant)
        self.date = CalendarDate(year: parts.year!, month: parts.month!, day: parts.day!)!
        self.hour = parts.hour!
        self.minute = parts.minute!
    }

    /// `HH:MM`.
    public var time: String { "\(twoDigits(hour)):\(twoDigits(minute))" }

    /// `HHhMM`, as the official QR code writes the creation time.
    public var timeWithH: String { "\(twoDigits(hour))h\(twoDigits(minute))" }
}

extension Calendar {
    static func gregorian(in zone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar
    }
}

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

    /// As a French sentence writes it: `15 décembre 2020`, `1er mars 2021`, with the hour when
    /// not midnight (`20 mars 2021 à 6 h`, `15 décembre 2020 à 20 h 30`); a no-break space
    /// (U+00A0) holds the day to its month and the hour to its `h`, as French typography does
    /// (a phone's line broke « 17 / mars »).
    public var frenchLong: String {
        let months = [
            "janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre",
            "novembre", "décembre",
        ]
        let day = "\(date.day == 1 ? "1er" : String(date.day))\u{A0}\(months[date.month - 1]) \(date.year)"
        guard hour != 0 || minute != 0 else { return day }
        return "\(day) à \(hour)\u{A0}h" + (minute == 0 ? "" : "\u{A0}\(twoDigits(minute))")
    }
}

extension Calendar {
    static func gregorian(in zone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar
    }
}

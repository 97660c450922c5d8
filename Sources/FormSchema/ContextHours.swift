import AttestationKit
import Foundation

/// The hours a context of a version covers, Paris time: the curfew form from 19:00 to 06:00,
/// the daytime one from 06:00 to 19:00, the week-end one from 06:00 to 18:00 on Saturdays and
/// Sundays. A link without `context` prints, by default, the form whose hours cover the exit
/// instant: the first context whatever the hour printed the curfew form at noon (issue 40).
public struct ContextHours: Sendable, Hashable {
    /// Minutes after midnight when a period starts.
    public let from: Int
    /// Minutes after midnight when it ends: before `from` for a period across midnight.
    public let until: Int
    /// ISO weekdays (1 Monday … 7 Sunday) on which a period starts; nil for every day.
    public let days: Set<Int>?

    public init(from: Int, until: Int, days: Set<Int>? = nil) {
        (self.from, self.until, self.days) = (from, until, days)
    }

    /// `HH:MM`, else nil.
    public static func minutes(parsing text: String) -> Int? {
        let bytes = Array(text.utf8)
        guard bytes.count == 5, NamePattern.has(bytes, ":", at: 2), let hour = NamePattern.number(bytes[0..<2]),
            let minute = NamePattern.number(bytes[3..<5]), (0...23).contains(hour), (0...59).contains(minute)
        else { return nil }
        return hour * 60 + minute
    }

    /// Whether `instant` falls within a period (its start included, its end not).
    public func covers(_ instant: Date) -> Bool {
        let local = LocalDateTime(instant, in: .paris)
        let minute = local.hour * 60 + local.minute
        let weekday = Self.isoWeekday(of: instant)
        if from < until {
            return (from..<until).contains(minute) && startsOn(weekday)
        }
        // Across midnight: from `from` on a starting day, or before `until` the day after one.
        return (minute >= from && startsOn(weekday)) || (minute < until && startsOn(weekday == 1 ? 7 : weekday - 1))
    }

    /// The first start of a period after `instant`, within the next eight days.
    public func nextStart(after instant: Date) -> Date? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .paris
        let midnight = calendar.startOfDay(for: instant)
        for day in 0...8 {
            guard let date = calendar.date(byAdding: .day, value: day, to: midnight),
                let start = calendar.date(bySettingHour: from / 60, minute: from % 60, second: 0, of: date)
            else { continue }
            if start > instant, startsOn(Self.isoWeekday(of: start)) { return start }
        }
        return nil
    }

    /// As the person reads it: « 19h-6h », « 6h-18h, samedi et dimanche ».
    public var text: String {
        let hours = "\(Self.hourText(from))-\(Self.hourText(until))"
        guard let days, days.count < 7 else { return hours }
        let names = ["lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche"]
        let listed = days.sorted().map { names[$0 - 1] }
        return "\(hours), "
            + (listed.count == 1 ? listed[0] : "\(listed.dropLast().joined(separator: ", ")) et \(listed.last!)")
    }

    private func startsOn(_ weekday: Int) -> Bool { days?.contains(weekday) ?? true }

    private static func hourText(_ minutes: Int) -> String {
        minutes % 60 == 0 ? "\(minutes / 60)h" : "\(minutes / 60)h\(String(format: "%02d", minutes % 60))"
    }

    static func isoWeekday(of instant: Date) -> Int {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .paris
        let weekday = calendar.component(.weekday, from: instant)  // 1 Sunday … 7 Saturday
        return weekday == 1 ? 7 : weekday - 1
    }
}

extension ContextHours {
    var document: HoursDocument {
        func text(_ minutes: Int) -> String { String(format: "%02d:%02d", minutes / 60, minutes % 60) }
        return HoursDocument(from: text(from), until: text(until), days: days.map { $0.sorted() })
    }
}

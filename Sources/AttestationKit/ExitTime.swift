import Foundation

/// When the person declares leaving home: the form's "Date et heure de début de sortie".
public enum ExitTime: Sendable, Hashable {
    /// Now plus a signed number of minutes (`?offset=-20`: "I left 20 minutes ago").
    case offset(minutes: Int)
    /// An explicit wall-clock time today in the attestation's time zone (`?at=07:45`).
    case at(hour: Int, minute: Int)

    /// Leaving now.
    public static let now = ExitTime.offset(minutes: 0)

    /// The exit time of the `offset` and `at` parameters, at most one given; neither means now.
    public static func parse(offset: String?, at: String?) throws(ExitTimeError) -> ExitTime {
        switch (offset, at) {
        case (nil, nil): return .now
        case (let offset?, nil): return try .offset(parsing: offset)
        case (nil, let at?): return try .at(parsing: at)
        case (_?, _?): throw .offsetAndAt
        }
    }

    /// Parses an `offset` parameter: a signed whole number of minutes.
    public static func offset(parsing text: String) throws(ExitTimeError) -> ExitTime {
        let body = text.hasPrefix("+") || text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        guard !body.isEmpty, body.count <= 6, body.allSatisfy(\.isASCIIDigit), let minutes = Int(text) else {
            throw .malformedOffset(text)
        }
        return .offset(minutes: minutes)
    }

    /// Parses an `at` parameter: `HH:MM` on the 24-hour clock.
    public static func at(parsing text: String) throws(ExitTimeError) -> ExitTime {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 2, parts[1].count == 2,
            parts.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }),
            let hour = Int(parts[0]), let minute = Int(parts[1]),
            (0...23).contains(hour), (0...59).contains(minute)
        else {
            throw .malformedTime(text)
        }
        return .at(hour: hour, minute: minute)
    }

    /// The exit instant for an attestation created at `now` in `zone`.
    /// Offsets are absolute durations, so they stay right across daylight-saving changes;
    /// a wall-clock time that the change skips does not exist and is refused.
    public func resolve(now: Date, in zone: TimeZone, bounds: OffsetBounds) throws(ExitTimeError) -> Date {
        let exit: Date
        switch self {
        case .offset(let minutes):
            guard bounds.contains(minutes) else { throw .offsetOutOfBounds(minutes, bounds) }
            exit = now.addingTimeInterval(TimeInterval(minutes * 60))
        case .at(let hour, let minute):
            let calendar = Calendar.gregorian(in: zone)
            var parts = calendar.dateComponents([.year, .month, .day], from: now)
            parts.hour = hour
            parts.minute = minute
            guard let candidate = calendar.date(from: parts) else { throw .nonexistentTime(hour: hour, minute: minute) }
            let check = calendar.dateComponents([.hour, .minute], from: candidate)
            guard check.hour == hour, check.minute == minute else {
                throw .nonexistentTime(hour: hour, minute: minute)
            }
            // Whole minutes from the current minute: the seconds of "now" do not count, so
            // "at" the current minute is an offset of 0 and the bounds hold to the minute.
            let currentMinute = (now.timeIntervalSinceReferenceDate / 60).rounded(.down) * 60
            let minutes = Int(((candidate.timeIntervalSinceReferenceDate - currentMinute) / 60).rounded())
            guard bounds.contains(minutes) else { throw .atOutOfBounds(hour: hour, minute: minute, bounds) }
            exit = candidate
        }
        return exit
    }
}

/// The range of exit offsets accepted, in minutes relative to now (default −180 … +1440).
public struct OffsetBounds: Sendable, Hashable, Codable {
    public let minimum: Int
    public let maximum: Int

    public static let standard = OffsetBounds(minimum: -180, maximum: 1440)!

    public init?(minimum: Int, maximum: Int) {
        guard minimum <= 0, maximum >= 0 else { return nil }
        self.minimum = minimum
        self.maximum = maximum
    }

    public func contains(_ minutes: Int) -> Bool { (minimum...maximum).contains(minutes) }

    /// Decoding keeps the invariant of `init?`: the bounds contain 0.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let minimum = try container.decode(Int.self, forKey: .minimum)
        let maximum = try container.decode(Int.self, forKey: .maximum)
        guard let bounds = OffsetBounds(minimum: minimum, maximum: maximum) else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath, debugDescription: "minimum ≤ 0 ≤ maximum attendu"))
        }
        self = bounds
    }
}

/// Why an exit time was refused; `description` is the French message for the user.
public enum ExitTimeError: Error, Sendable, Equatable, CustomStringConvertible {
    case malformedOffset(String)
    case malformedTime(String)
    case offsetOutOfBounds(Int, OffsetBounds)
    case atOutOfBounds(hour: Int, minute: Int, OffsetBounds)
    case nonexistentTime(hour: Int, minute: Int)
    case offsetAndAt

    public var description: String {
        switch self {
        case .malformedOffset:
            return "offset invalide ; un nombre entier de minutes est attendu, par exemple -20 ou 15."
        case .malformedTime:
            return "at invalide ; une heure HH:MM est attendue, par exemple 07:45."
        case .offsetOutOfBounds(let minutes, let bounds):
            return "offset hors limites (\(minutes)) ; de \(bounds.minimum) à +\(bounds.maximum) minutes."
        case .atOutOfBounds(let hour, let minute, let bounds):
            return
                "at hors limites (\(twoDigits(hour)):\(twoDigits(minute))) ; l’heure de sortie doit être entre \(bounds.minimum) et +\(bounds.maximum) minutes de maintenant."
        case .nonexistentTime(let hour, let minute):
            return
                "at : l’heure \(twoDigits(hour)):\(twoDigits(minute)) n’existe pas aujourd’hui (changement d’heure) ; choisissez une autre heure."
        case .offsetAndAt:
            return "offset et at s’excluent ; donnez l’un ou l’autre."
        }
    }
}

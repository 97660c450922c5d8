import Foundation
import TestSupport
import Testing

@testable import AttestationKit

@Suite("ExitTime parsing and bounds")
struct ExitTimeTests {
    // MARK: offset=

    @Test(arguments: [
        ("-20", -20), ("+15", 15), ("0", 0), ("15", 15), ("-0", 0), ("+0", 0),
        ("-180", -180), ("1440", 1440), ("007", 7), ("999999", 999_999), ("-999999", -999_999),
    ])
    func offsetParsesASignedWholeNumber(text: String, minutes: Int) throws {
        #expect(try ExitTime.offset(parsing: text) == .offset(minutes: minutes))
    }

    @Test(arguments: [
        "", "abc", "1.5", "--3", "20m", "+", "-", "+-3", "-+3", " 20", "20 ", "1e3", "0x10",
        "１５", "1,5", "1234567", "99999999999999999999", "- 20", "20-",
    ])
    func offsetRefusesAnythingElse(text: String) {
        #expect(throws: ExitTimeError.malformedOffset(text)) { try ExitTime.offset(parsing: text) }
    }

    @Test func malformedOffsetMessageIsFrench() throws {
        let error = #expect(throws: ExitTimeError.self) { try ExitTime.offset(parsing: "abc") }
        let description = try #require(error).description
        #expect(description.contains("offset"))
        #expect(description.contains("minutes"))
    }

    @Test func nowIsAZeroOffset() {
        #expect(ExitTime.now == .offset(minutes: 0))
    }

    // MARK: at=

    @Test(arguments: [("07:45", 7, 45), ("23:59", 23, 59), ("00:00", 0, 0), ("12:00", 12, 0), ("09:05", 9, 5)])
    func atParsesTwentyFourHourTime(text: String, hour: Int, minute: Int) throws {
        #expect(try ExitTime.at(parsing: text) == .at(hour: hour, minute: minute))
    }

    @Test(arguments: [
        "7:45", "24:00", "12:60", "1200", "", ":", "12:5", "12:345", "012:30", "12-30", "12h30",
        "ab:cd", "+1:30", "-1:30", " 7:45", "07:45 ", "07:45:00", "９:４５", "99:99",
    ])
    func atRefusesAnythingElse(text: String) {
        #expect(throws: ExitTimeError.malformedTime(text)) { try ExitTime.at(parsing: text) }
    }

    @Test func malformedTimeMessageShowsTheFormat() throws {
        let error = #expect(throws: ExitTimeError.self) { try ExitTime.at(parsing: "7:45") }
        #expect(try #require(error).description.contains("HH:MM"))
    }

    // MARK: Bounds

    /// The `offset` parameter as a link carries it, from three hours back to a day ahead.
    @Test func standardBoundsTakeAnOffsetParameterFromThreeHoursBackToADayAhead() throws {
        let now = instant("2020-11-28T07:15:00Z")
        func resolved(_ offset: String) throws -> Date {
            try ExitTime.parse(offset: offset, at: nil).resolve(now: now, in: .paris, bounds: .standard)
        }
        #expect(try resolved("-180") == instant("2020-11-28T04:15:00Z"))
        #expect(try resolved("+1440") == instant("2020-11-29T07:15:00Z"))
        #expect(throws: ExitTimeError.offsetOutOfBounds(-181, .standard)) { try resolved("-181") }
        #expect(throws: ExitTimeError.offsetOutOfBounds(1441, .standard)) { try resolved("+1441") }
    }

    @Test func boundsMustContainZero() {
        #expect(OffsetBounds(minimum: 1, maximum: 10) == nil)
        #expect(OffsetBounds(minimum: -10, maximum: -1) == nil)
        #expect(OffsetBounds(minimum: 0, maximum: 0) != nil)
        #expect(OffsetBounds(minimum: -60, maximum: 60)?.contains(60) == true)
    }

    @Test(arguments: [-180, -20, 0, 15, 1440])
    func offsetInsideTheBoundsIsAnExactDuration(minutes: Int) throws {
        let now = instant("2020-11-28T07:15:30Z")
        let exit = try ExitTime.offset(minutes: minutes).resolve(now: now, in: .paris, bounds: .standard)
        #expect(exit.timeIntervalSince(now) == Double(minutes) * 60)
    }

    @Test(arguments: [-181, 1441, -100_000, 999_999, Int.min, Int.max])
    func offsetOutsideTheBoundsIsRefused(minutes: Int) throws {
        let now = instant("2020-11-28T07:15:00Z")
        #expect(throws: ExitTimeError.offsetOutOfBounds(minutes, .standard)) {
            try ExitTime.offset(minutes: minutes).resolve(now: now, in: .paris, bounds: .standard)
        }
    }

    @Test(arguments: [-181, 1441])
    func offsetOutOfBoundsMessageGivesTheLimits(minutes: Int) throws {
        let now = instant("2020-11-28T07:15:00Z")
        let error = #expect(throws: ExitTimeError.self) {
            try ExitTime.offset(minutes: minutes).resolve(now: now, in: .paris, bounds: .standard)
        }
        let description = try #require(error).description
        #expect(description.contains("-180"))
        #expect(description.contains("1440"))
        #expect(description.contains("\(minutes)"))
    }

    @Test func customBoundsAreUsed() throws {
        let now = instant("2020-11-28T07:15:00Z")
        let narrow = try #require(OffsetBounds(minimum: -10, maximum: 30))
        #expect(throws: ExitTimeError.offsetOutOfBounds(-11, narrow)) {
            try ExitTime.offset(minutes: -11).resolve(now: now, in: .paris, bounds: narrow)
        }
        #expect(
            try ExitTime.offset(minutes: 30).resolve(now: now, in: .paris, bounds: narrow)
                == now.addingTimeInterval(1800))
    }

    // MARK: at= resolution on an ordinary day (28/11/2020, Paris is UTC+1)

    @Test(arguments: [
        ("09:30", "2020-11-28T08:30:00Z"), ("08:15", "2020-11-28T07:15:00Z"),
        ("05:15", "2020-11-28T04:15:00Z"), ("23:59", "2020-11-28T22:59:00Z"),
        ("00:00", "2020-11-27T23:00:00Z"),
    ])
    func atIsTodayInTheZone(text: String, expected: String) throws {
        // now = 08:15:00 local; 00:00 is 495 minutes ago, so use wide bounds for it.
        let now = instant("2020-11-28T07:15:00Z")
        let wide = try #require(OffsetBounds(minimum: -1440, maximum: 1440))
        let exit = try ExitTime.at(parsing: text).resolve(now: now, in: .paris, bounds: wide)
        #expect(exit == (instant(expected)))
    }

    @Test func atMoreThanThreeHoursAgoIsOutOfBounds() throws {
        let now = instant("2020-11-28T07:15:00Z")  // 08:15 in Paris
        #expect(
            try ExitTime.at(hour: 5, minute: 15).resolve(now: now, in: .paris, bounds: .standard)
                == (instant("2020-11-28T04:15:00Z")))
        #expect(throws: ExitTimeError.atOutOfBounds(hour: 5, minute: 14, .standard)) {
            try ExitTime.at(hour: 5, minute: 14).resolve(now: now, in: .paris, bounds: .standard)
        }
        #expect(throws: ExitTimeError.atOutOfBounds(hour: 0, minute: 0, .standard)) {
            try ExitTime.at(hour: 0, minute: 0).resolve(now: now, in: .paris, bounds: .standard)
        }
    }

    @Test func atOutOfBoundsMessageShowsTheTimeAndLimits() throws {
        let now = instant("2020-11-28T07:15:00Z")
        let error = #expect(throws: ExitTimeError.self) {
            try ExitTime.at(hour: 4, minute: 5).resolve(now: now, in: .paris, bounds: .standard)
        }
        let description = try #require(error).description
        #expect(description.contains("04:05"))
        #expect(description.contains("-180"))
        #expect(description.contains("1440"))
    }

    @Test func atTheCurrentMinuteIsAlwaysAccepted() throws {
        // 08:15:30 local: "at 08:15" is 30 s in the past, still the current minute.
        let now = instant("2020-11-28T07:15:30Z")
        let zero = try #require(OffsetBounds(minimum: 0, maximum: 0))
        #expect(
            try ExitTime.at(hour: 8, minute: 15).resolve(now: now, in: .paris, bounds: zero)
                == (instant("2020-11-28T07:15:00Z")))
        #expect(throws: ExitTimeError.atOutOfBounds(hour: 8, minute: 14, zero)) {
            try ExitTime.at(hour: 8, minute: 14).resolve(now: now, in: .paris, bounds: zero)
        }
    }

    /// "at" is compared in whole minutes (ExitTime.swift: "Compare whole minutes"): the seconds of
    /// `now` must not move a wall-clock time across a bound.
    @Test func atNextMinuteIsOneMinuteAheadWhateverTheSeconds() throws {
        let now = instant("2020-11-28T07:15:30Z")  // 08:15:30 in Paris
        let zero = try #require(OffsetBounds(minimum: 0, maximum: 0))
        let one = try #require(OffsetBounds(minimum: 0, maximum: 1))
        #expect(
            try ExitTime.at(hour: 8, minute: 16).resolve(now: now, in: .paris, bounds: one)
                == (instant("2020-11-28T07:16:00Z")))
        #expect(throws: ExitTimeError.atOutOfBounds(hour: 8, minute: 16, zero)) {
            try ExitTime.at(hour: 8, minute: 16).resolve(now: now, in: .paris, bounds: zero)
        }
    }

    @Test(arguments: ["2020-11-28T07:15:00Z", "2020-11-28T07:15:01Z", "2020-11-28T07:15:30Z", "2020-11-28T07:15:59Z"])
    func atExactlyThreeHoursAgoIsAcceptedWhateverTheSeconds(now: String) throws {
        // 08:15:ss in Paris: 05:15 is 180 whole minutes earlier, the standard minimum.
        let exit = try ExitTime.at(hour: 5, minute: 15).resolve(now: instant(now), in: .paris, bounds: .standard)
        #expect(exit == (instant("2020-11-28T04:15:00Z")))
        #expect(throws: ExitTimeError.atOutOfBounds(hour: 5, minute: 14, .standard)) {
            try ExitTime.at(hour: 5, minute: 14).resolve(now: instant(now), in: .paris, bounds: .standard)
        }
    }

    @Test func decodedBoundsKeepTheInvariant() throws {
        // init? refuses bounds that do not contain 0; decoding must not let them in either
        // (a decoded minimum above the maximum would trap in `contains`).
        #expect(
            try JSONDecoder().decode(OffsetBounds.self, from: Data(#"{"minimum":-30,"maximum":60}"#.utf8))
                == OffsetBounds(minimum: -30, maximum: 60))
        for json in [#"{"minimum":10,"maximum":5}"#, #"{"minimum":5,"maximum":10}"#, #"{"minimum":-10,"maximum":-5}"#] {
            #expect(throws: (any Error).self, "\(json)") {
                try JSONDecoder().decode(OffsetBounds.self, from: Data(json.utf8))
            }
        }
    }
}

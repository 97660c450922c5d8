import Foundation
import TestSupport
import Testing

@testable import AttestationKit

/// Europe/Paris: on 2021-03-28 at 01:00 UTC the clocks jump from 02:00 CET to 03:00 CEST;
/// on 2020-10-25 at 01:00 UTC they go back from 03:00 CEST to 02:00 CET.
@Suite("Daylight saving and time zones")
struct TimeZoneTests {
    func resolved(
        _ exitTime: ExitTime, now: String, in zone: TimeZone = .paris
    ) throws -> (instant: Date, local: LocalDateTime) {
        let moment = try exitTime.resolve(now: instant(now), in: zone, bounds: .standard)
        return (moment, LocalDateTime(moment, in: zone))
    }

    /// Summer and winter time as in France: a fixed UTC+1, or UTC, would read 11:00 in July.
    @Test func parisReadsFrenchSummerAndWinterTime() {
        #expect(LocalDateTime(instant("2021-07-14T10:00:00Z"), in: .paris).time == "12:00")
        #expect(LocalDateTime(instant("2021-01-14T10:00:00Z"), in: .paris).time == "11:00")
    }

    @Test(arguments: [
        ("2021-03-28T00:50:00Z", "28/03/2021", "01:50", "01h50"),  // CET, UTC+1
        ("2021-03-28T01:00:00Z", "28/03/2021", "03:00", "03h00"),  // CEST, UTC+2
        ("2020-10-25T00:30:00Z", "25/10/2020", "02:30", "02h30"),  // CEST, first 02:30
        ("2020-10-25T01:30:00Z", "25/10/2020", "02:30", "02h30"),  // CET, second 02:30
        ("2020-11-28T23:59:59Z", "29/11/2020", "00:59", "00h59"),  // seconds dropped, not rounded
        ("2020-12-31T23:00:00Z", "01/01/2021", "00:00", "00h00"),
    ])
    func localReadingInParis(iso: String, date: String, time: String, timeWithH: String) throws {
        let local = LocalDateTime(instant(iso), in: .paris)
        #expect(local.date.description == date)
        #expect(local.time == time)
        #expect(local.timeWithH == timeWithH)
    }

    // MARK: Spring forward, 2021-03-28

    @Test func offsetAcrossTheSpringJump() throws {
        let forward = try resolved(.offset(minutes: 20), now: "2021-03-28T00:50:00Z")  // 01:50 CET
        #expect(forward.local.date.description == "28/03/2021")
        #expect(forward.local.time == "03:10")
        #expect(forward.instant == (instant("2021-03-28T01:10:00Z")))

        let back = try resolved(.offset(minutes: -20), now: "2021-03-28T01:10:00Z")  // 03:10 CEST
        #expect(back.local.date.description == "28/03/2021")
        #expect(back.local.time == "01:50")
        #expect(back.instant == (instant("2021-03-28T00:50:00Z")))
    }

    @Test(arguments: [(2, 0), (2, 30), (2, 59)])
    func skippedWallClockTimeDoesNotExist(hour: Int, minute: Int) throws {
        let now = instant("2021-03-28T00:00:00Z")  // 01:00 CET
        #expect(throws: ExitTimeError.nonexistentTime(hour: hour, minute: minute)) {
            try ExitTime.at(hour: hour, minute: minute).resolve(now: now, in: .paris, bounds: .standard)
        }
    }

    @Test func nonexistentTimeMessageNamesTheTime() throws {
        let now = instant("2021-03-28T00:00:00Z")
        let error = #expect(throws: ExitTimeError.self) {
            try ExitTime.at(parsing: "02:30").resolve(now: now, in: .paris, bounds: .standard)
        }
        #expect(try #require(error).description.contains("02:30"))
    }

    @Test(arguments: [
        ("01:59", "2021-03-28T00:59:00Z"), ("03:00", "2021-03-28T01:00:00Z"),
        ("03:30", "2021-03-28T01:30:00Z"), ("01:00", "2021-03-28T00:00:00Z"),
    ])
    func wallClockTimesAroundTheSpringJump(text: String, expected: String) throws {
        let result = try resolved(try ExitTime.at(parsing: text), now: "2021-03-28T00:30:00Z")  // 01:30 CET
        #expect(result.instant == (instant(expected)))
        #expect(result.local.time == text)
        #expect(result.local.date.description == "28/03/2021")
    }

    @Test func sameWallClockExistsTheDayBefore() throws {
        let result = try resolved(.at(hour: 2, minute: 30), now: "2021-03-27T01:00:00Z")  // 02:00 CET on 27/03
        #expect(result.instant == (instant("2021-03-27T01:30:00Z")))
        #expect(result.local.time == "02:30")
    }

    // MARK: Fall back, 2020-10-25

    @Test(arguments: [
        // now (UTC), offset, expected exit (UTC), expected wall clock
        ("2020-10-25T00:50:00Z", 20, "2020-10-25T01:10:00Z", "02:10"),  // 02:50 CEST + 20 → 02:10 CET
        ("2020-10-25T01:10:00Z", -20, "2020-10-25T00:50:00Z", "02:50"),  // 02:10 CET − 20 → 02:50 CEST
        ("2020-10-25T00:30:00Z", 60, "2020-10-25T01:30:00Z", "02:30"),  // 02:30 CEST + 60 → 02:30 CET
        ("2020-10-25T00:59:00Z", 1, "2020-10-25T01:00:00Z", "02:00"),  // 02:59 CEST + 1 → 02:00 CET
        ("2020-10-25T02:00:00Z", -150, "2020-10-24T23:30:00Z", "01:30"),  // 03:00 CET − 150 → 01:30 CEST
        ("2020-10-24T23:30:00Z", 180, "2020-10-25T02:30:00Z", "03:30"),  // 01:30 CEST + 180 → 03:30 CET
    ])
    func offsetAcrossTheAutumnChange(now: String, minutes: Int, expected: String, wallClock: String) throws {
        let result = try resolved(.offset(minutes: minutes), now: now)
        #expect(result.instant == (instant(expected)))
        #expect(result.local.time == wallClock)
        #expect(result.local.date.description == "25/10/2020")
    }

    @Test(arguments: ["02:30", "02:00", "02:59"])
    func repeatedWallClockTimeResolvesToThatReading(text: String) throws {
        let result = try resolved(try ExitTime.at(parsing: text), now: "2020-10-25T02:00:00Z")  // 03:00 CET
        #expect(result.local.time == text)
        #expect(result.local.date.description == "25/10/2020")
        // Either occurrence is that reading: in CEST (UTC+2) or in CET (UTC+1).
        let hour = Int(text.prefix(2))!
        let minute = Int(text.suffix(2))!
        let first = instant(String(format: "2020-10-25T%02d:%02d:00Z", hour - 2, minute))
        let second = instant(String(format: "2020-10-25T%02d:%02d:00Z", hour - 1, minute))
        #expect(result.instant == first || result.instant == second)
    }

    @Test func autumnWallClockTimesOutsideTheRepeatedHour() throws {
        let now = "2020-10-25T02:00:00Z"  // 03:00 CET
        #expect(try resolved(.at(hour: 1, minute: 30), now: now).instant == (instant("2020-10-24T23:30:00Z")))
        #expect(try resolved(.at(hour: 3, minute: 0), now: now).instant == (instant("2020-10-25T02:00:00Z")))
        #expect(try resolved(.at(hour: 4, minute: 15), now: now).instant == (instant("2020-10-25T03:15:00Z")))
    }

    // MARK: Other zones

    @Test func martiniqueHasNoDaylightSaving() throws {
        // 2021-03-28T00:50Z is 20:50 on 27/03 in Martinique (UTC−4), 01:50 on 28/03 in Paris.
        let identity = try RawIdentity().make()
        let now = instant("2021-03-28T00:50:00Z")
        let attestation = try Attestation(
            identity: identity, form: Fixture.form1128, reasonCodes: ["sante"], exit: .offset(minutes: 20),
            timeZone: Fixture.martinique, now: now)
        #expect(attestation.createdLocal.date.description == "27/03/2021")
        #expect(attestation.createdLocal.time == "20:50")
        #expect(attestation.exitLocal.date.description == "27/03/2021")
        #expect(attestation.exitLocal.time == "21:10")
        #expect(attestation.fileName == "attestation-2021-03-27_20-50.pdf")

        // 02:30 does not exist in Paris on 28/03/2021, but does in Martinique.
        let later = instant("2021-03-28T07:00:00Z")  // 03:00 in Martinique
        let exit = try ExitTime.at(hour: 2, minute: 30).resolve(now: later, in: Fixture.martinique, bounds: .standard)
        #expect(exit == (instant("2021-03-28T06:30:00Z")))
        #expect(LocalDateTime(exit, in: Fixture.martinique).date.description == "28/03/2021")
    }

    @Test func noumeaIsAlreadyTheNextDay() throws {
        // 2020-11-28T14:30Z is 01:30 on 29/11 in Nouméa (UTC+11), 15:30 on 28/11 in Paris.
        let identity = try RawIdentity().make()
        let now = instant("2020-11-28T14:30:00Z")
        let attestation = try Attestation(
            identity: identity, form: Fixture.form1128, reasonCodes: ["travail"], exit: .offset(minutes: -100),
            timeZone: Fixture.noumea, now: now)
        #expect(attestation.createdLocal.date.description == "29/11/2020")
        #expect(attestation.createdLocal.time == "01:30")
        #expect(attestation.exitLocal.date.description == "28/11/2020")
        #expect(attestation.exitLocal.time == "23:50")
        #expect(attestation.fileName == "attestation-2020-11-29_01-30.pdf")

        let inParis = try Attestation(
            identity: identity, form: Fixture.form1128, reasonCodes: ["travail"], exit: .offset(minutes: -100),
            timeZone: .paris, now: now)
        #expect(inParis.exit == attestation.exit)
        #expect(inParis.exitLocal.date.description == "28/11/2020")
        #expect(inParis.exitLocal.time == "13:50")

        // "at" is today in the attestation's zone: 29/11 in Nouméa.
        let at = try Attestation(
            identity: identity, form: Fixture.form1128, reasonCodes: ["travail"], exit: .at(hour: 2, minute: 0),
            timeZone: Fixture.noumea, now: now)
        #expect(at.exit == (instant("2020-11-28T15:00:00Z")))
        #expect(at.exitLocal.date.description == "29/11/2020")
        #expect(at.exitLocal.time == "02:00")
    }
}

import Foundation
import TestSupport
import Testing

@testable import AttestationKit

@Suite("CalendarDate")
struct CalendarDateTests {
    @Test func parsesDayMonthYear() throws {
        let date = try #require(CalendarDate("14/07/1789"))
        #expect(date.day == 14)
        #expect(date.month == 7)
        #expect(date.year == 1789)
    }

    @Test(arguments: ["01/01/1970", "29/02/2000", "31/12/1999", "28/11/2020", "07/03/0005", "31/12/9999"])
    func formatsAsItParses(text: String) throws {
        #expect(try #require(CalendarDate(text)).description == text)
    }

    @Test func formatPadsWithZeros() throws {
        #expect(try #require(CalendarDate(year: 2020, month: 3, day: 7)).description == "07/03/2020")
        #expect(try #require(CalendarDate(year: 987, month: 10, day: 31)).description == "31/10/0987")
        #expect(try #require(CalendarDate(year: 5, month: 1, day: 1)).description == "01/01/0005")
    }

    /// Last day of each month, from the Gregorian rules (not computed by the code under test).
    static let monthLengths2021 = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

    @Test(arguments: 1...12)
    func lastDayOfEachMonth(month: Int) {
        let length = Self.monthLengths2021[month - 1]
        #expect(CalendarDate(year: 2021, month: month, day: length) != nil)
        #expect(CalendarDate(year: 2021, month: month, day: length + 1) == nil)
        #expect(CalendarDate(year: 2021, month: month, day: 0) == nil)
    }

    @Test(arguments: [
        (2000, true), (2004, true), (2020, true), (2024, true), (1600, true),
        (1900, false), (2100, false), (2021, false), (2019, false), (1800, false),
    ])
    func februaryTwentyNinthOnlyInLeapYears(year: Int, leap: Bool) {
        #expect((CalendarDate(year: year, month: 2, day: 29) != nil) == leap)
        #expect(CalendarDate(year: year, month: 2, day: 28) != nil)
        #expect(CalendarDate(year: year, month: 2, day: 30) == nil)
    }

    @Test(arguments: [(0, 1, 1), (10000, 1, 1), (2020, 0, 1), (2020, 13, 1), (2020, 1, 32), (2020, 4, 31), (-1, 1, 1)])
    func componentsOutOfRangeAreRefused(year: Int, month: Int, day: Int) {
        #expect(CalendarDate(year: year, month: month, day: day) == nil)
    }

    @Test(arguments: [
        "", "1/1/1970", "01/01/70", "1970-01-01", "01/01/1970 ", " 01/01/1970", "01//1970",
        "ab/cd/efgh", "31/04/2020", "29/02/2021", "00/00/0000", "01/01/1970/01",
    ])
    func parsingRefusesAnythingElse(text: String) {
        #expect(CalendarDate(text) == nil)
    }

    @Test func ordersByYearThenMonthThenDay() throws {
        let texts = ["09/02/2000", "10/01/2000", "31/12/1999", "01/01/2001", "01/02/2000", "31/01/2000"]
        let dates = try texts.map { try #require(CalendarDate($0)) }
        #expect(
            dates.sorted().map(\.description) == [
                "31/12/1999", "10/01/2000", "31/01/2000", "01/02/2000", "09/02/2000", "01/01/2001",
            ])
        let a = try #require(CalendarDate("10/01/2000"))
        let b = try #require(CalendarDate("09/02/2000"))
        #expect(a < b)  // the string order would say the opposite
        #expect(!(b < a))
        #expect(!(a < a))
        #expect(a <= a)
    }

    @Test func equalityAndHashingByValue() throws {
        let a = try #require(CalendarDate("01/01/1970"))
        let b = try #require(CalendarDate(year: 1970, month: 1, day: 1))
        #expect(a == b)
        #expect(Set([a, b]).count == 1)
        #expect(a != CalendarDate(year: 1970, month: 1, day: 2))
    }

    @Test func codesAsTheWrittenString() throws {
        let date = try #require(CalendarDate("29/02/2000"))
        let data = try JSONEncoder().encode([date])
        #expect(
            String(decoding: data, as: UTF8.self) == #"["29\/02\/2000"]"#
                || String(decoding: data, as: UTF8.self) == #"["29/02/2000"]"#)
        #expect(try JSONDecoder().decode([CalendarDate].self, from: data) == [date])
    }

    @Test(arguments: [#"["31/04/2020"]"#, #"["2020-01-01"]"#, #"[20200101]"#])
    func decodingRefusesAnInvalidDate(json: String) {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([CalendarDate].self, from: Data(json.utf8))
        }
    }
}

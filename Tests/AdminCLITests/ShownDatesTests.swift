import Foundation
import TestSupport
import Testing

@Suite struct ShownDatesTests {
    /// Dates in the link's zone, with its name. Before, inspect printed UTC (`…T22:00:00Z`).
    @Test(arguments: [
        (nil as String?, "expire : 01/07/2099 00:00 (Europe/Paris)"),
        ("America/Martinique", "expire : 30/06/2099 18:00 (America/Martinique)"),
    ])
    func inspectShowsDatesInTheLinksZoneWithItsName(zone: String?, expected: String) throws {
        let scratch = try initializedSite()
        let link = try mintSucceeding(
            personArguments("Camille", "Dupont") + ["--expires", "2099-06-30"]
                + (zone.map { ["--time-zone", $0] } ?? []),
            in: scratch
        )
        .stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let shown = try Tool.admin(["inspect", link], in: scratch.url)
        #expect(shown.stdout.contains(expected), "\(shown.stdout)")
        #expect(shown.stdout.contains("émis le : ") && shown.stdout.contains("(\(zone ?? "Europe/Paris"))"))
        // An ISO 8601 UTC time (`…T22:00:00Z`), not a Z that ends the random link id (1 run in 64).
        #expect(shown.stdout.firstMatch(of: /T[0-9]{2}:[0-9]{2}(:[0-9]{2})?Z/) == nil, "no UTC time: \(shown.stdout)")
    }
}

import Foundation
import TestSupport
import Testing

/// A `calendar` written in config.json replaces the official one for the server and the admin
/// alike: a mutation that ignored it survived the whole suite (issue 38).
@Suite struct ConfiguredCalendarTests {
    @Test func theServerAndTheFormsListingFollowTheConfiguredCalendar() throws {
        let scratch = try initializedSite()
        var config = try siteConfiguration(scratch)
        config["calendar"] = [["from": "2020-01-01T00:00", "forms": ["deplacement-2020-11-02"]]]
        try JSONSerialization.data(withJSONObject: config).write(to: URL(fileURLWithPath: scratch.path("config.json")))

        let listing = try Tool.admin(["forms"], in: scratch.url)
        #expect(listing.status == 0, "\(listing.stderr)")
        #expect(
            listing.stdout.contains("deplacement-2020-11-02  ← en vigueur maintenant"), "\(listing.stdout)")
        #expect(!listing.stdout.contains("deplacement-2021-06-10  ← en vigueur maintenant"))

        // A link that follows the calendar prints the configured version today, not June 2021's.
        let link = try mintSucceeding(personArguments("Ana", "Lima") + ["--reason", "travail"], in: scratch)
            .stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let token = try #require(link.split(separator: "=").last.map(String.init))
        let server = try ServerProcess(config: scratch.path("config.json"))
        defer {
            server.terminate()
            _ = server.waitForExit(timeout: 20)
        }
        let answer = try Tool.external("curl", ["-s", "\(server.baseURL)/api/v1/link?t=\(token)"])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(answer.stdout.utf8)) as? [String: Any])
        #expect((json["form"] as? [String: Any])?["id"] as? String == "deplacement-2020-11-02", "\(answer.stdout)")
    }
}

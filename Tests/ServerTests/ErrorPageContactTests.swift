import Foundation
import TestSupport
import Testing

/// The administrator's contact on the error pages, from the configuration's `contact`.
@Suite struct ErrorPageContactTests {
    @Test func theContactOfTheConfigurationIsShownEscaped() throws {
        let site = try TestSite()
        try site.editConfig { $0["contact"] = "Marie <marie@example.org>, 06 12 34 56 78" }
        let token = try site.mint(.eloise)
        try site.revoke(token)
        let server = try ServerProcess(config: site.config)
        defer {
            server.terminate()
            _ = server.waitForExit(timeout: 20)
        }
        let page = try curl(server.url("/attestation.pdf", token: token), SharedServerTests.ErrorPageTests.browser)
        #expect(page.status == 410)
        #expect(
            page.text.contains(
                "Votre administrateur : <strong>Marie &lt;marie@example.org&gt;, 06 12 34 56 78</strong>"),
            "\(page.text)")
    }

    @Test func aContactOnSeveralLinesIsRefused() throws {
        let site = try TestSite()
        try site.editConfig { $0["contact"] = "Marie\nMartin" }
        let result = try Tool.run(Tool.server, ["--config", site.config, "--check-config"], timeout: 30)
        #expect(result.status == 78)
        #expect(result.stderr.contains("contact"), "\(result.stderr)")
    }
}

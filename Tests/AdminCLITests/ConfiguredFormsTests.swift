import Foundation
import TestSupport
import Testing

@Suite struct ConfiguredFormsTests {
    private func withForm() throws -> Scratch {
        let scratch = try initializedSite()
        let builtIn = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("Sources/FormSchema/Forms/deplacement-2020-11-28.json")
        var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: builtIn)) as? [String: Any])
        object["id"] = "couvre-feu-2021"
        try FileManager.default.createDirectory(atPath: scratch.path("forms"), withIntermediateDirectories: true)
        try JSONSerialization.data(withJSONObject: object).write(
            to: URL(fileURLWithPath: scratch.path("forms/couvre-feu.json")))
        return scratch
    }

    /// The forms the server serves: those of the configuration's formsDirectory. Before, a form
    /// the server served was missing from `forms`, which still exited 0.
    @Test func formsListsTheConfigurationsFormsFromItsFolderOrWithConfig() throws {
        let scratch = try withForm()
        let here = try Tool.admin(["forms"], in: scratch.url)
        #expect(here.status == 0, "\(here.stderr)")
        #expect(here.stdout.contains("couvre-feu-2021 :"), "\(here.stdout)")
        let elsewhere = try Tool.admin(["forms", "--config", scratch.path("config.json")])
        #expect(elsewhere.stdout.contains("couvre-feu-2021 :"), "\(elsewhere.stdout)")
        let check = try Tool.run(Tool.server, ["--config", scratch.path("config.json"), "--check-config"])
        #expect(check.stdout.contains("couvre-feu-2021"), "the server has it too: \(check.stdout)")
    }

    @Test func renderWithIdentityOptionsSeesTheConfiguredForms() throws {
        let scratch = try withForm()
        let file = scratch.path("a.pdf")
        let result = try Tool.admin(
            ["render"] + personArguments("Ana", "Lima") + ["--form", "couvre-feu-2021", "-o", file], in: scratch.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Tool.external("qpdf", ["--check", file]).status == 0)
    }

    @Test func anExplicitConfigurationThatIsMissingIsAnError() throws {
        let scratch = try Scratch()
        let result = try Tool.admin(["forms", "--config", scratch.path("nulle-part.json")])
        #expect(result.status == 65)
        #expect(result.stderr.contains("nulle-part.json"), "\(result.stderr)")
    }
}

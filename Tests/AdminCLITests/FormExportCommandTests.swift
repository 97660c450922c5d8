import Foundation
import TestSupport
import Testing

/// `forms export ID DIR`: a built-in form's JSON as shipped, with its fonts and pictures beside
/// it, for an administrator whose Debian package has no Sources/FormSchema/Forms (issue 40).
@Suite struct FormExportCommandTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/FormSchema")

    @Test func theExportIsTheShippedFileWithItsFontsAndPicturesAndIsCheckedOnceItsIdChanges() throws {
        let scratch = try Scratch()
        let folder = scratch.path("formulaires")
        let export = try Tool.admin(["forms", "export", "deplacement-2021-06-10", folder])
        #expect(export.status == 0, "\(export.stderr)")
        for (name, shipped) in [
            ("deplacement-2021-06-10.json", "Forms/deplacement-2021-06-10.json"),
            ("Luciole-Regular.ttf", "Files/Luciole-Regular.ttf"), ("Luciole-Bold.ttf", "Files/Luciole-Bold.ttf"),
            ("RF.png", "Files/RF.png"), ("TAC.png", "Files/TAC.png"),
        ] {
            let written = try Data(contentsOf: URL(fileURLWithPath: "\(folder)/\(name)"))
            #expect(written == (try Data(contentsOf: Self.sources.appendingPathComponent(shipped))), "\(name)")
        }
        let form = "\(folder)/deplacement-2021-06-10.json"
        let unchanged = try Tool.admin(["forms", "check", form])
        #expect(unchanged.status == 65)
        #expect(unchanged.stderr.contains("existe déjà (intégré)"), "\(unchanged.stderr)")

        let text = try String(contentsOfFile: form, encoding: .utf8)
        try text.replacingOccurrences(of: "\"id\": \"deplacement-2021-06-10\"", with: "\"id\": \"juin-2021-local\"")
            .write(toFile: form, atomically: true, encoding: .utf8)
        let changed = try Tool.admin(["forms", "check", form])
        #expect(changed.status == 0, "\(changed.stderr)")
        #expect(changed.stdout.contains("juin-2021-local : "), "\(changed.stdout)")
    }

    @Test func aContextsFormExportsItsWholeDocument() throws {
        let scratch = try Scratch()
        let export = try Tool.admin(["forms", "export", "deplacement-2021-03-17-week-end", scratch.path("x")])
        #expect(export.status == 0, "\(export.stderr)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: scratch.path("x")) == ["deplacement-2021-03-17.json"])
    }

    @Test func nothingIsOverwrittenAndAnUnknownIdListsTheBuiltInOnes() throws {
        let scratch = try Scratch()
        try FileManager.default.createDirectory(atPath: scratch.path("x"), withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: URL(fileURLWithPath: scratch.path("x/RF.png")))
        let existing = try Tool.admin(["forms", "export", "deplacement-2021-06-10", scratch.path("x")])
        #expect(existing.status == 73)
        #expect(existing.stderr.contains("RF.png existe déjà ; rien n’est écrit"), "\(existing.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path("x")) == ["RF.png"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.path("x/RF.png"))) == Data("mine".utf8))

        let unknown = try Tool.admin(["forms", "export", "juin", scratch.path("y")])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("« juin » n’est pas un formulaire intégré ; intégrés : deplacement-2020-11-28"))
    }
}

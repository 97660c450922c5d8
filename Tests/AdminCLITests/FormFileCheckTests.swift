import Foundation
import TestSupport
import Testing

/// `forms check` runs the server's own preparation of a form (issue 38: it said yes to a PNG
/// with a bad CRC and to fonts the server refused, while docs/forms.md says it runs exactly the
/// server's checks). Each font and picture of the fuzz corpus, given with the form of 10 June
/// 2021 under another id: `forms check` and the server's `--check-config` answer alike, and a
/// refusal names the file.
@Suite struct FormFileCheckTests {
    /// A site made by `init`, its forms folder holding the June form with `seed` as its font
    /// `Luciole` or its first picture.
    static func site(_ target: String, seed: String) throws -> (scratch: Scratch, form: String, file: String) {
        let scratch = try initializedSite()
        let forms = scratch.url.appendingPathComponent("forms")
        try FileManager.default.createDirectory(at: forms, withIntermediateDirectories: true)
        let file = target == "font-file" ? "police.ttf" : "logo.png"
        try FileManager.default.copyItem(at: FuzzCorpus.seed(target, seed), to: forms.appendingPathComponent(file))
        var json = try builtInJSONObject("deplacement-2021-06-10")
        json["id"] = "essai-fichiers"
        json["inForce"] = nil
        if target == "font-file" {
            editElement(&json, "fonts", 0) { $0["file"] = file }
        } else {
            editElement(&json, "images", 0) { $0["file"] = file }
        }
        let form = forms.appendingPathComponent("essai.json").path
        try jsonData(json).write(to: URL(fileURLWithPath: form))
        return (scratch, form, file)
    }

    @Test(arguments: ["font-file", "png-picture"])
    func formsCheckAndTheServerAcceptAndRefuseTheSameFilesNamingThem(target: String) throws {
        var refused = 0
        for seed in try FuzzCorpus.names(target) {
            let (scratch, form, file) = try Self.site(target, seed: seed)
            let check = try Tool.admin(["forms", "check", form])
            let server = try Tool.run(Tool.server, ["--config", scratch.path("config.json"), "--check-config"])
            #expect(
                (check.status == 0) == (server.status == 0), "\(seed): check \(check.status), server \(server.status)")
            if check.status == 0 {
                #expect(check.stdout.contains("valide ; le serveur l’acceptera."), "\(seed): \(check.stdout)")
            } else {
                refused += 1
                #expect(check.status == 65, "\(seed): \(check.stderr)")
                #expect(check.stderr.contains(file), "\(seed): check names the file: \(check.stderr)")
                #expect(server.stderr.contains(file), "\(seed): the server names the file: \(server.stderr)")
                // The form's JSON file, not config.json: where the administrator dropped it.
                #expect(
                    server.stderr.contains("configuration inutilisable : \(form)"),
                    "\(seed): the server names the form's file first: \(server.stderr)")
            }
        }
        // Every seed but the original (Luciole, RF.png) is damaged.
        #expect(refused == (try FuzzCorpus.names(target).count) - 1)
    }
}

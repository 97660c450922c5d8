import AttestationKit
import FormSchema
import Foundation
import TestSupport
import Testing

@testable import Rendering

/// A PNG an administrator gives with a form: its header read at load (FormSchema), its pixels
/// decoded when the renderer prepares the form. A picture that does not decode refuses the form
/// there, naming the file: never a form drawn without its logo, never a failure at a person's
/// request. The damaged pictures are the fuzz corpus's (Tests/Fuzz/Corpus/png-picture).
@Suite struct FormPictureFileTests {
    /// The form of 10 June 2021 under another id, its first picture (RF.png) replaced by `seed`,
    /// in a folder of its own.
    static func form(withPicture seed: String, in scratch: Scratch) throws(FormError) -> Form {
        let folder = scratch.url
        try! FileManager.default.copyItem(
            at: FuzzCorpus.seed("png-picture", seed), to: folder.appendingPathComponent("logo.png"))
        var json = try! builtInJSONObject("deplacement-2021-06-10")
        json["id"] = "essai-image"
        json["inForce"] = nil
        editElement(&json, "images", 0) { $0["file"] = "logo.png" }
        return try FormCatalog.decodeForm(try! jsonData(json), source: folder.appendingPathComponent("f.json").path)
    }

    @Test(arguments: ["crc-faux", "sans-idat", "palette-sans-plte", "profondeur-3", "tronquee"])
    func aPictureWhoseHeaderReadsButWhosePixelsDoNotRefusesTheFormWhenTheRendererPreparesIt(seed: String) throws {
        let scratch = try Scratch()
        let form = try Self.form(withPicture: seed, in: scratch)
        let error = try #require(throws: RenderingError.self) { try AttestationRenderer(forms: [form]) }
        #expect(error.description.contains("formulaire essai-image : image « logo.png » illisible"), "\(error)")
    }

    @Test(arguments: [("14000x14000", "14000 × 14000"), ("65535x65535", "65535 × 65535"), ("2048x2049", "2048 × 2049")])
    func aPictureOfTooManyPixelsIsRefusedAtLoadFromItsHeader(seed: String, size: String) throws {
        let scratch = try Scratch()
        let error = try #require(throws: FormError.self) { try Self.form(withPicture: seed, in: scratch) }
        #expect(error.path == "images[0].file", "\(error)")
        #expect(error.message.contains("image « logo.png » de \(size) pixels, trop grande"), "\(error)")
    }

    @Test func theLogoItselfIsDrawnFromItsFile() throws {
        let scratch = try Scratch()
        let form = try Self.form(withPicture: "rf", in: scratch)
        let renderer = try AttestationRenderer(forms: [form])
        let layout = try renderer.layout(of: form.attestationRules)
        #expect(layout.pictures.count == 2)
        #expect(layout.pictures[0].image.pixelWidth == 743 && layout.pictures[0].ink.count == 743 * 658)
    }
}

import Foundation
import TestSupport
import Testing

/// The tool behind the EmbedLicenceTexts and EmbedFiles plugins, as the build runs it (its
/// plugin copy, `embed-licence-texts-tool`, is built beside the tests in every build). SwiftPM
/// runs it again at every release `swift build`; a generated file it rewrote unchanged made
/// llbuild compile FormSchema and every module above it each time.
@Suite struct EmbeddingToolTests {
    let tool = Tool.products.appendingPathComponent("embed-licence-texts-tool")

    /// A folder with one text and the tool's output path in it.
    func folder() throws -> (folder: URL, text: URL, output: URL) {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("embedding-tool-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let text = folder.appendingPathComponent("note.txt")
        try Data("Texte d’origine\n".utf8).write(to: text)
        return (folder, text, folder.appendingPathComponent("EmbeddedFiles.swift"))
    }

    /// The output's inode and modification time: what llbuild compares to decide a rebuild.
    func identity(of url: URL) throws -> [String] {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        return ["\(attributes[.systemFileNumber] ?? "")", "\(attributes[.modificationDate] ?? "")"]
    }

    @Test(arguments: [["--files"], []])
    func anUnchangedOutputIsLeftAsItWas(mode: [String]) throws {
        let (folder, text, output) = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let arguments = mode + [output.path] + (mode.isEmpty ? [] : [folder.path]) + [text.path]
        let first = try Tool.run(tool, arguments)
        #expect(first.status == 0, "\(first.stderr)")
        let before = try identity(of: output)
        Thread.sleep(forTimeInterval: 0.02)
        let second = try Tool.run(tool, arguments)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(try identity(of: output) == before, "the same output was written again")
    }

    @Test func aChangedInputIsWritten() throws {
        let (folder, text, output) = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let arguments = ["--files", output.path, folder.path, text.path]
        #expect(try Tool.run(tool, arguments).status == 0)
        let before = try String(contentsOf: output, encoding: .utf8)
        try Data("Texte changé\n".utf8).write(to: text)
        #expect(try Tool.run(tool, arguments).status == 0)
        let after = try String(contentsOf: output, encoding: .utf8)
        #expect(after != before)
        #expect(after.contains(Data("Texte changé\n".utf8).base64EncodedString()))
    }
}

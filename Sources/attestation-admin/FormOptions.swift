import ArgumentParser
import AttestationKit
import AttestationConfiguration
import Foundation

/// Where forms come from: the built-in ones plus every `*.json` of a directory.
struct FormOptions: ParsableArguments {
    @Option(name: .customLong("forms-dir"), help: ArgumentHelp(
        "A directory of extra form definitions (*.json), added to the built-in forms.", valueName: "DIR"))
    var formsDirectory: String?

    func catalog() throws -> FormCatalog {
        var catalog = FormCatalog.builtIn
        guard let formsDirectory else { return catalog }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: formsDirectory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw AdminError.data("dossier de formulaires illisible : \(formsDirectory)")
        }
        do {
            try FormFiles.load(from: URL(fileURLWithPath: formsDirectory, isDirectory: true), into: &catalog)
        } catch {
            throw AdminError.data(error.description)
        }
        return catalog
    }
}

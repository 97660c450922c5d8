import ArgumentParser
import AttestationKit
import Foundation

/// Where forms come from: the built-in ones plus every `*.json` of a directory.
struct FormOptions: ParsableArguments {
    @Option(name: .customLong("forms-dir"), help: ArgumentHelp(
        "A directory of extra form definitions (*.json), added to the built-in forms.", valueName: "DIR"))
    var formsDirectory: String?

    func catalog() throws -> FormCatalog {
        var catalog = FormCatalog.builtIn
        guard let formsDirectory else { return catalog }
        let directory = URL(fileURLWithPath: formsDirectory, isDirectory: true)
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
                .filter { $0.hasSuffix(".json") }.sorted()
        } catch {
            throw AdminError.data("dossier de formulaires illisible : \(formsDirectory)")
        }
        for name in names {
            let file = directory.appendingPathComponent(name)
            do {
                try catalog.add(json: try Data(contentsOf: file), source: file.path)
            } catch let error as FormError {
                throw AdminError.data(error.description)
            } catch {
                throw AdminError.data("\(file.path) : fichier illisible.")
            }
        }
        return catalog
    }
}

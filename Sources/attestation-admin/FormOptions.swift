import ArgumentParser
import AttestationConfiguration
import AttestationKit
import FormSchema
import Foundation

/// Where forms come from, as the server takes them: the built-in ones plus every `*.json` of
/// the configuration's `formsDirectory`, or of `--forms-dir` instead.
struct FormOptions: ParsableArguments {
    @Option(
        name: .customLong("forms-dir"),
        help: ArgumentHelp(
            "Un dossier de formulaires (*.json) ajoutés aux formulaires intégrés, à la place du formsDirectory de la configuration.",
            valueName: "DOSSIER"))
    var formsDirectory: String?

    /// The calendar of `catalog`: the configuration's schedule when there is a configuration,
    /// else the official one.
    func calendar(config: ConfigOptions, catalog: FormCatalog) throws -> FormCalendar {
        let entries =
            FileManager.default.fileExists(atPath: config.path) || config.isExplicit
            ? try config.configuration().calendar : nil
        do { return try ServiceState.calendar(entries, catalog: catalog, source: config.path) } catch {
            throw AdminError.data(error.description)
        }
    }

    func catalog(config: ConfigOptions) throws -> FormCatalog {
        var catalog = FormCatalog.builtIn
        let directory: URL
        if let formsDirectory {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: formsDirectory, isDirectory: &isDirectory),
                isDirectory.boolValue
            else {
                throw AdminError.data("--forms-dir : dossier de formulaires introuvable : \(formsDirectory)")
            }
            directory = URL(fileURLWithPath: formsDirectory, isDirectory: true)
        } else if !FileManager.default.fileExists(atPath: config.path) && !config.isExplicit {
            // Outside an administrator's folder: the forms every server has.
            FileHandle.standardError.write(
                Data(
                    "attestation-admin : pas de \(config.path) ici : formulaires intégrés seulement (--config pour ceux d’une configuration).\n"
                        .utf8))
            return catalog
        } else {
            let configuration = try config.configuration()
            guard let relative = configuration.formsDirectory else { return catalog }
            directory =
                relative.hasPrefix("/")
                ? URL(fileURLWithPath: relative)
                : config.url.deletingLastPathComponent().appendingPathComponent(relative)
        }
        do {
            try FormFiles.load(from: directory, into: &catalog)
        } catch {
            throw AdminError.data(error.description)
        }
        return catalog
    }
}

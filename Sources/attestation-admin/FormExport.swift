import ArgumentParser
import FormSchema
import Foundation

extension Forms {
    /// A built-in form's file as the programs hold it, for an administrator who starts a version
    /// of their own: a Debian package has no copy of Sources/FormSchema/Forms (issue 40).
    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Écrit le fichier JSON d’un formulaire intégré, avec ses polices et ses images, dans un dossier.",
            discussion: """
                Pour partir d’une version officielle : le fichier tel que le programme l’a intégré \
                (toutes ses variantes pour un formulaire à contextes) et, à côté, les polices et \
                images qu’il nomme. Changez son id (et ses textes) avant de le déposer dans \
                formsDirectory : un id intégré est refusé. Aucun fichier existant n’est remplacé.

                Exemple :
                  attestation-admin forms export deplacement-2021-06-10 formulaires/
                  attestation-admin forms check formulaires/deplacement-2021-06-10.json
                """)

        @Argument(help: ArgumentHelp("L’id d’un formulaire intégré (attestation-admin forms).", valueName: "ID"))
        var id: String

        @Argument(help: ArgumentHelp("Le dossier où l’écrire (créé s’il n’existe pas).", valueName: "DOSSIER"))
        var directory: String

        func run() throws {
            guard let document = FormCatalog.builtInDocument(of: id) else {
                let ids = FormCatalog.builtIn.forms.map(\.id).joined(separator: ", ")
                throw AdminError.usage("« \(id) » n’est pas un formulaire intégré ; intégrés : \(ids).")
            }
            let folder = URL(fileURLWithPath: directory, isDirectory: true)
            let files = [(document.fileName, document.bytes)] + document.files.map { ($0.name, $0.bytes) }
            for (name, _) in files
            where FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path) {
                throw AdminError.cannotCreate(
                    "\(folder.appendingPathComponent(name).path) existe déjà ; rien n’est écrit. Choisissez un autre dossier ou retirez ce fichier."
                )
            }
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                for (name, bytes) in files {
                    try Data(bytes).write(to: folder.appendingPathComponent(name), options: .withoutOverwriting)
                }
            } catch {
                throw AdminError.cannotCreate(
                    "impossible d’écrire dans \(folder.path) ; vérifiez que le dossier est accessible en écriture.")
            }
            for (name, bytes) in files {
                print("\(folder.appendingPathComponent(name).path) (\(bytes.count) octets)")
            }
            print(
                "Changez l’id de \(document.fileName) avant de le déposer dans formsDirectory, puis : attestation-admin forms check \(folder.appendingPathComponent(document.fileName).path)"
            )
        }
    }
}

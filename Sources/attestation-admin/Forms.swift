import ArgumentParser
import AttestationKit
import FormSchema
import Foundation

struct Forms: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Liste les formulaires et leurs codes de motif ; vérifie ou essaie un fichier de formulaire.",
        discussion: """
            Les mêmes formulaires que le serveur : ceux intégrés au programme et ceux du dossier \
            formsDirectory de la configuration (--config), ou de --forms-dir à sa place. Sans \
            configuration dans le dossier courant ni --config, les formulaires intégrés seuls. \
            Le format d’un formulaire est décrit dans docs/forms.md.

            Exemples :
              attestation-admin forms
              attestation-admin forms --config /etc/attestation/config.json
              attestation-admin forms --json --forms-dir ./formulaires
              attestation-admin forms check formulaires/avril.json
              attestation-admin forms preview formulaires/avril.json -o essai.pdf
            """,
        subcommands: [List.self, Check.self, Preview.self],
        defaultSubcommand: List.self)

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Liste les formulaires et leurs codes de motif (sans sous-commande, c’est ce que fait forms).")

        @OptionGroup var config: ConfigOptions

        @OptionGroup var forms: FormOptions

        @Flag(help: "Écrit du JSON : les formulaires avec id, name, isDefault, ready et leurs motifs.")
        var json = false

        func run() throws {
            let catalog = try forms.catalog(config: config)
            if json {
                let listing = (catalog.forms + catalog.pendingForms).map { form in
                    FormListing(
                        id: form.id, name: form.name, isDefault: form.id == catalog.defaultFormID,
                        ready: catalog.form(id: form.id) != nil,
                        awaiting: form.awaitingRenderer.map(\.description),
                        reasons: form.reasons.map {
                            .init(
                                code: $0.code, number: $0.number,
                                label: $0.label.replacingOccurrences(of: "\n", with: " "))
                        })
                }
                print(try prettyJSON(listing))
                return
            }
            for form in catalog.forms {
                print("\(form.id)\(form.id == catalog.defaultFormID ? " (par défaut)" : "") : \(form.name)")
                Self.printReasons(of: form)
                print()
            }
            for form in catalog.pendingForms {
                print("\(form.id) (à venir) : \(form.name)")
                let awaiting = form.awaitingRenderer.map(\.description).joined(separator: ", ")
                print("  intégré, pas encore dessiné par ce serveur (\(awaiting)) : aucun lien ne peut le demander.")
                Self.printReasons(of: form)
                print()
            }
        }

        static func printReasons(of form: Form) {
            let width = form.reasons.map(\.code.count).max() ?? 0
            for reason in form.reasons {
                let code = reason.code.padding(toLength: width, withPad: " ", startingAt: 0)
                print("  \(code)  \(reason.number). \(abridged(reason.label))")
            }
        }

        private static func abridged(_ text: String) -> String {
            let label = text.replacingOccurrences(of: "\n", with: " ")
            return label.count <= 70 ? label : String(label.prefix(69)) + "…"
        }

        private struct FormListing: Encodable {
            let id: String
            let name: String
            let isDefault: Bool
            /// False for a built-in form the renderer does not draw yet.
            let ready: Bool
            let awaiting: [String]
            let reasons: [ReasonListing]
        }

        private struct ReasonListing: Encodable {
            let code: String
            let number: Int
            let label: String
        }
    }
}

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
              attestation-admin forms export deplacement-2021-06-10 formulaires/
            """,
        subcommands: [List.self, Check.self, Preview.self, Export.self],
        defaultSubcommand: List.self)

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Liste les formulaires et leurs codes de motif (sans sous-commande, c’est ce que fait forms).")

        @OptionGroup var config: ConfigOptions

        @OptionGroup var forms: FormOptions

        @Flag(
            help:
                "Écrit du JSON : les formulaires avec id, name, isDefault, ready, inForceFrom, context, inForceNow, continues et leurs motifs."
        )
        var json = false

        func run() throws {
            let catalog = try forms.catalog(config: config)
            let calendar = try forms.calendar(config: config, catalog: catalog)
            let now = Date()
            let current = calendar.version(at: now)
            let starts = Dictionary(
                calendar.versions.flatMap { version in version.forms.map { ($0.id, version.start) } },
                uniquingKeysWith: { first, _ in first })
            if json {
                let listing = (catalog.forms + catalog.pendingForms).map { form in
                    FormListing(
                        id: form.id, name: form.name, isDefault: form.id == catalog.defaultFormID,
                        ready: catalog.form(id: form.id) != nil,
                        inForceFrom: starts[form.id].map { $0.formatted(.iso8601) },
                        context: form.inForce?.context, contextHours: form.inForce?.hours?.text,
                        contextArea: form.inForce?.area,
                        inForceNow: current?.forms.contains { $0.id == form.id } ?? false,
                        awaiting: form.awaitingRenderer.map(\.description),
                        reasons: form.reasons.map {
                            .init(
                                code: $0.code, number: $0.number,
                                label: $0.label.replacingOccurrences(of: "\n", with: " "), continues: $0.continues)
                        })
                }
                print(try prettyJSON(listing))
                return
            }
            Self.printCalendar(calendar, now: now)
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

        /// The versions in order, the one in force now marked, then what comes next.
        static func printCalendar(_ calendar: FormCalendar, now: Date) {
            print("Calendrier : un lien sans --form imprime la version en vigueur à l’heure de sortie.")
            let current = calendar.version(at: now)
            for version in calendar.versions {
                let day = LocalDateTime(version.start, in: .paris).frenchLong
                // A context with its hours: which form a link prints at which hour.
                let forms = version.forms.map { form in
                    form.inForce?.context.map { context in
                        "\(form.id) (contexte \(context)\(form.inForce?.hours.map { ", \($0.text)" } ?? ""))"
                    } ?? form.id
                }
                let mark = version == current ? "  ← en vigueur maintenant" : ""
                print(
                    "  \(day.padding(toLength: 24, withPad: " ", startingAt: 0)) \(forms.joined(separator: ", "))\(mark)"
                )
            }
            // The official calendar ends when the curfew was lifted; a link still prints.
            if let end = calendar.end {
                let day = LocalDateTime(end, in: .paris).frenchLong
                print(
                    "  \(day.padding(toLength: 24, withPad: " ", startingAt: 0)) fin : plus aucune attestation demandée ; un lien imprime encore la dernière version."
                )
            }
            if let next = calendar.version(after: now) {
                print(
                    "Prochain changement : le \(LocalDateTime(next.start, in: .paris).frenchLong), "
                        + "\(next.forms.map(\.id).joined(separator: ", ")).")
            } else {
                print("Prochain changement : aucun prévu ; la dernière version reste en vigueur.")
            }
            print()
        }

        static func printReasons(of form: Form) {
            let width = form.reasons.map(\.code.count).max() ?? 0
            for reason in form.reasons {
                let code = reason.code.padding(toLength: width, withPad: " ", startingAt: 0)
                let continues =
                    reason.continues.isEmpty ? "" : " (suite de \(reason.continues.joined(separator: ", ")))"
                print("  \(code)  \(reason.number). \(abridged(reason.label))\(continues)")
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
            /// When its version came into force in the calendar (ISO 8601); nil outside it.
            let inForceFrom: String?
            let context: String?
            /// « 19h-6h »: when a link without `context` prints it; nil for every hour.
            let contextHours: String?
            /// Where it applies when not everywhere.
            let contextArea: String?
            let inForceNow: Bool
            let awaiting: [String]
            let reasons: [ReasonListing]
        }

        private struct ReasonListing: Encodable {
            let code: String
            let number: Int
            let label: String
            let continues: [String]
        }
    }
}

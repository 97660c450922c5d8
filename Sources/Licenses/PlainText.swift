extension ThirdPartyNotices {
    /// What the page says first, in French.
    static let introduction = [
        "Ce service s’appuie sur des logiciels libres. Voici chaque composant tiers que ses deux "
            + "programmes (attestation-server et attestation-admin) utilisent : son rôle, la version liée quand le "
            + "programme la connaît, son site, le paquet Debian qui le fournit, sa licence et ses titulaires de droits ; "
            + "puis le texte complet de chaque licence, une seule fois.",
        "Les bibliothèques sous LGPL ou GPL sont liées dynamiquement, telles que Debian 12 les fournit, sans "
            + "modification ; chacune dit où trouver sa source exacte. Leur documentation (sous GFDL) n’est pas livrée "
            + "avec le service. La bibliothèque C et l’environnement d’exécution C++ du système (glibc, libstdc++, libgcc) "
            + "font partie de Debian et ne sont pas repris ici.",
    ]

    /// The notices as plain text, for `attestation-admin licenses`: the components, then each
    /// licence text once, exactly as stored.
    ///
    /// - Parameter versions: the version actually linked, by component id, where known.
    public static func plainText(versions: [String: String] = [:]) -> String {
        var out = underlined("Licences des composants tiers d’Attestation de déplacement", "=")
        out += "\n" + introduction.joined(separator: "\n\n") + "\n\n"
        out += underlined("Composants", "=") + "\n"
        for component in components {
            out += summary(of: component, version: versions[component.id]) + "\n"
        }
        out += underlined("Textes des licences", "=")
        for licence in licences {
            out += "\n" + underlined("[\(licence.id)] \(licence.title)", "-")
            out += "Texte copié de : \(licence.source)\n"
            out += "Utilisé par : \(components(using: licence.id).map(\.name).joined(separator: ", "))\n\n"
            out += licence.text
            if !licence.text.hasSuffix("\n") { out += "\n" }
        }
        return out
    }

    /// One line per component: name, version when known (`-` otherwise), licence and the ids of
    /// its texts; for `attestation-admin licenses --list`.
    public static func list(versions: [String: String] = [:]) -> String {
        let nameWidth = components.map(\.name.count).max() ?? 0
        let versionWidth = max(1, components.compactMap { versions[$0.id]?.count }.max() ?? 0)
        return components.map { component in
            padded(component.name, nameWidth) + "  " + padded(versions[component.id] ?? "-", versionWidth) + "  "
                + "\(component.licence) [\(component.licenceIDs.joined(separator: ", "))]"
        }.joined(separator: "\n") + "\n"
    }

    private static func padded(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }

    private static func summary(of component: ThirdPartyComponent, version: String?) -> String {
        var lines = ["\(component.name) : \(component.role)"]
        if let version { lines.append("  Version liée : \(version)") }
        lines.append("  Site : \(component.upstreamURL)")
        if let source = component.debianSourcePackage {
            lines.append(
                "  Paquet Debian : \(component.debianPackages.joined(separator: ", ")) (paquet source \(source))")
        }
        lines.append("  Licence : \(component.licence) ; textes : \(component.licenceIDs.joined(separator: ", "))")
        for (index, line) in component.copyright.enumerated() {
            lines.append((index == 0 ? "  Copyright : " : "              ") + line)
        }
        if let note = component.note { lines.append("  Note : \(note)") }
        if let offer = component.sourceOffer { lines.append("  Source : \(offer)") }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func underlined(_ title: String, _ mark: Character) -> String {
        title + "\n" + String(repeating: mark, count: title.count) + "\n"
    }
}

extension ThirdPartyNotices {
    /// The notices as the `/licenses` page: the site's skeleton (its stylesheet, no inline style
    /// or script), a table of contents, one section per component, then each licence text once.
    ///
    /// - Parameter versions: the version actually linked, by component id, where known.
    public static func html(versions: [String: String] = [:]) -> String {
        var out = """
            <!doctype html>
            <html lang="fr">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="color-scheme" content="light dark">
            <title>Licences des composants tiers · Attestation de déplacement</title>
            <link rel="stylesheet" href="/app.css">
            <link rel="icon" href="/icone.svg" type="image/svg+xml">
            </head>
            <body>
            <a class="evitement" href="#contenu">Aller au contenu</a>
            <header class="bandeau"><a class="marque" href="/">Attestation de déplacement</a></header>
            <main id="contenu" class="contenu licences">
            <h1>Licences des composants tiers</h1>

            """
        for paragraph in introduction { out += "<p>\(escape(paragraph))</p>\n" }
        out += "<p>La même liste s’obtient avec la commande <code>attestation-admin licenses</code>.</p>\n"

        out += "<nav aria-label=\"Composants\">\n<ul>\n"
        for component in components {
            out += "<li><a href=\"#c-\(escape(component.id))\">\(escape(component.name))</a></li>\n"
        }
        out += "<li><a href=\"#textes\">Textes des licences</a></li>\n</ul>\n</nav>\n"

        for component in components { out += section(component, version: versions[component.id]) }

        out += "<p id=\"textes\">Les textes complets suivent, chacun une fois, tels que leur source les donne.</p>\n"
        for licence in licences { out += section(licence) }

        out += """
            </main>
            <footer class="pied"><p><a href="/">Accueil</a> · <a href="/licenses">Licences</a></p></footer>
            </body>
            </html>

            """
        return out
    }

    private static func section(_ component: ThirdPartyComponent, version: String?) -> String {
        let id = "c-" + escape(component.id)
        var out = "<section class=\"composant\" id=\"\(id)\" aria-labelledby=\"\(id)-titre\">\n"
        out += "<h2 id=\"\(id)-titre\">\(escape(component.name))</h2>\n<dl>\n"
        out += "<dt>Rôle</dt><dd>\(escape(component.role))</dd>\n"
        if let version { out += "<dt>Version liée</dt><dd>\(escape(version))</dd>\n" }
        out += "<dt>Site</dt><dd>\(link(component.upstreamURL))</dd>\n"
        if let source = component.debianSourcePackage {
            out +=
                "<dt>Paquet Debian</dt><dd>\(escape(component.debianPackages.joined(separator: ", "))) "
                + "(paquet source \(escape(source)))</dd>\n"
        }
        let texts = component.licenceIDs.map { id in
            "<a href=\"#l-\(escape(id))\">\(escape(licence(id: id)?.title ?? id))</a>"
        }
        out += "<dt>Licence</dt><dd>\(escape(component.licence)) ; textes : \(texts.joined(separator: ", "))</dd>\n"
        out += "<dt>Copyright</dt><dd>\(component.copyright.map(escape).joined(separator: "<br>"))</dd>\n</dl>\n"
        if let note = component.note { out += "<p>\(linked(note))</p>\n" }
        if let offer = component.sourceOffer { out += "<p>\(linked(offer))</p>\n" }
        return out + "</section>\n"
    }

    private static func section(_ licence: LicenceText) -> String {
        let id = "l-" + escape(licence.id)
        let users = components(using: licence.id).map { "<a href=\"#c-\(escape($0.id))\">\(escape($0.name))</a>" }
        return "<section id=\"\(id)\" aria-labelledby=\"\(id)-titre\">\n"
            + "<h2 id=\"\(id)-titre\">\(escape(licence.title))</h2>\n"
            + "<p>Pour : \(users.joined(separator: ", ")). Texte copié de : \(escape(licence.source)).</p>\n"
            + "<details><summary>Afficher le texte complet<span class=\"lecteur\"> : \(escape(licence.title))</span></summary>"
            + "<pre class=\"licence\">\(escape(licence.text))</pre></details>\n"
            + "</section>\n"
    }

    /// Text made safe for HTML content and attribute values.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }

    private static func link(_ url: String) -> String {
        "<a href=\"\(escape(url))\">\(escape(url))</a>"
    }

    /// Escaped text whose `http://` and `https://` addresses become links.
    private static func linked(_ text: String) -> String {
        text.split(separator: " ", omittingEmptySubsequences: false).map { word -> String in
            guard word.hasPrefix("https://") || word.hasPrefix("http://") else { return escape(String(word)) }
            var url = Substring(word)
            var trailing = ""
            while let last = url.last, ".,;:)".contains(last) {
                trailing = String(last) + trailing
                url = url.dropLast()
            }
            return link(String(url)) + escape(trailing)
        }.joined(separator: " ")
    }
}

/// swift-argument-parser writes its own scaffolding in English: the help screen's headings
/// ("USAGE:", "OPTIONS:"), the `--help` line, "(default: …)", and its parsing errors ("Missing
/// expected argument…", "Unknown option…"). Its 1.8 API lets a program word only what it
/// declares (abstracts, discussions, option help, value names, validation errors); the rest is
/// built inside the library from internal types (`CommandError`, `ParserError`) and reaches us
/// only as text, through `fullMessage(for:)`. So that text is translated here, line by line,
/// from the phrasings of the version the package resolves; a phrase this file does not know is
/// left as it is, in English, and `FrenchHelpTests` fails when a new version changes one.
public enum FrenchParserText {
    /// The help screen or the error report `fullMessage(for:)` gave, in French.
    public static func translate(_ text: String, program: String) -> String {
        var lines: [String] = []
        var inUsage = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if inUsage, line.hasPrefix(String(repeating: " ", count: 7)), !line.hasPrefix("  See ") {
                // The usage's continuation lines hang under the text after "USAGE: ".
                lines.append(String(repeating: " ", count: usageHeading.count) + line.dropFirst(7))
                continue
            }
            inUsage = false
            if let message = line.prefixed("Error: ") {
                lines.append("\(program) : \(error(message))")
            } else if let help = line.prefixed("Help:  ") {
                lines.append("Aide : \(phrases(help))")
            } else if let usage = line.prefixed("Usage: ") {
                lines.append("Utilisation : \(phrases(usage))")
            } else if let usage = line.prefixed("USAGE: ") {
                lines.append(usageHeading + phrases(usage))
                inUsage = true
            } else if let overview = line.prefixed("OVERVIEW: ") {
                lines.append(phrases(overview))
            } else if let heading = line.wholeMatch(of: #/([A-ZÀ-Ý][A-ZÀ-Ý -]*):/#)?.1 {
                lines.append("\(headings[String(heading)] ?? String(heading)) :")
            } else if let match = line.wholeMatch(of: #/  See '(.+)' for more information\./#) {
                lines.append("  Plus d’informations : \(phrases(String(match.1)))")
            } else if let match = line.wholeMatch(of: #/\s*See '(\S+) help <subcommand>' for detailed help\./#) {
                lines.append(
                    "  L’aide d’une sous-commande : \(match.1) help <sous-commande> ou \(match.1) <sous-commande> --help."
                )
            } else if let match = line.wholeMatch(of: #/\s*See '(\S+) help (.+) <subcommand>' for detailed help\./#) {
                // A command's own subcommands (`forms check`).
                lines.append("  L’aide d’une sous-commande : \(match.1) \(match.2) <sous-commande> --help.")
            } else {
                lines.append(phrases(line))
            }
        }
        return lines.joined(separator: "\n")
    }

    private static let usageHeading = "UTILISATION : "

    private static let headings = [
        "ARGUMENTS": "ARGUMENTS", "OPTIONS": "OPTIONS", "SUBCOMMANDS": "SOUS-COMMANDES",
    ]

    /// Words the library puts inside lines it lays out: value lists, defaults, its own options.
    private static func phrases(_ line: String) -> String {
        line.replacing("<subcommand>", with: "<sous-commande>")
            .replacing("Show subcommand help information.", with: "Affiche l’aide d’une sous-commande.")
            .replacing("Show help information.", with: "Affiche cette aide.")
            .replacing(" (default)", with: " (par défaut)")
            // The value may be wrapped onto the next line: the colon may end this one.
            .replacing("(default as flag:", with: "(sans valeur :")
            .replacing("; default:", with: " ; par défaut :")
            .replacing("(default:", with: "(par défaut :")
            .replacing("(values:", with: "(valeurs :")
    }

    /// One parsing error, from ErrorMessageGenerator's phrasings.
    public static func error(_ message: String) -> String {
        if let m = message.wholeMatch(of: #/Missing expected argument '(.+)'/#) {
            return "il manque « \(m.1) » ; voir --help."
        }
        if let m = message.wholeMatch(of: #/Missing one of: '(.+)'/#) {
            return "il manque l’un de : « \(m.1.replacing("', '", with: " », « ")) »."
        }
        if let m = message.wholeMatch(of: #/Unknown option '(.+)'\. Did you mean '(.+)'\?/#) {
            return "option inconnue « \(m.1) » ; vouliez-vous dire « \(m.2) » ?"
        }
        if let m = message.wholeMatch(of: #/Unknown option '(.+)'/#) {
            return "option inconnue « \(m.1) » ; voir --help pour les options acceptées."
        }
        if let m = message.wholeMatch(of: #/Missing value for '(.+)'/#) {
            return "valeur manquante après « \(m.1) »."
        }
        if let m = message.wholeMatch(of: #/The value '(.*)' is invalid for '(.+?)'\. Please provide one of (.+)\./#) {
            let accepted = m.3.replacing(" and ", with: ", ").replacing(" or ", with: ", ").replacing("'", with: "")
            return "valeur « \(m.1) » invalide pour « \(m.2) » ; valeurs acceptées : \(accepted)."
        }
        if let m = message.wholeMatch(of: #/The value '(.*)' is invalid for '(.+?)'(?:: (.*))?/#) {
            return "valeur « \(m.1) » invalide pour « \(m.2) »" + (m.3.map { " : \($0)" } ?? ".")
        }
        if let m = message.wholeMatch(of: #/The option '(.+)' does not take any value, but '(.*)' was specified\./#) {
            return "l’option « \(m.1) » ne prend pas de valeur ; « \(m.2) » a été donné."
        }
        if let m = message.wholeMatch(of: #/Unexpected argument '(.*)'/#) {
            return "argument inattendu « \(m.1) » ; voir --help."
        }
        if let m = message.wholeMatch(of: #/(\d+) unexpected arguments: '(.*)'/#) {
            return "\(m.1) arguments inattendus : « \(m.2.replacing("', '", with: " », « ")) » ; voir --help."
        }
        if message == "Missing required subcommand." {
            return "sous-commande manquante ; voir --help."
        }
        if let m = message.wholeMatch(of: #/Value to be set with (.+) had already been set with (.+)/#) {
            return "\(m.1) contredit \(m.2), déjà donné."
        }
        return message
    }
}

extension String {
    fileprivate func prefixed(_ prefix: String) -> String? {
        hasPrefix(prefix) ? String(dropFirst(prefix.count)) : nil
    }
}

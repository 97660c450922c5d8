import Foundation
import TestSupport
import Testing

@Suite struct FrenchHelpTests {
    private static let commands = [
        [], ["init"], ["keygen"], ["mint"], ["links"], ["inspect"], ["revoke"], ["render"], ["paper"], ["forms"],
        ["licenses"],
    ]

    /// What the parser writes itself, translated: no English heading nor phrase of it is left.
    @Test(arguments: commands)
    func helpIsInFrench(command: [String]) throws {
        let help = try Tool.admin(command + ["--help"])
        #expect(help.status == 0)
        for english in [
            "USAGE:", "OVERVIEW:", "OPTIONS:", "ARGUMENTS:", "SUBCOMMANDS:", "Show help", "(default:", "(values:",
            "<subcommand>", "See '",
        ] {
            #expect(!help.stdout.contains(english), "\(command) --help says « \(english) »")
        }
        #expect(help.stdout.contains("UTILISATION : attestation-admin"))
        #expect(help.stdout.contains("Affiche cette aide."))
    }

    @Test(
        arguments: [
            (["keygen"], "il manque « --key-id <ID> »"),
            (["mint", "--frist-name", "A"], "option inconnue « --frist-name » ; vouliez-vous dire « --first-name » ?"),
            (
                ["mint", "--format", "pdf"],
                "valeur « pdf » invalide pour « --format <url|json|qr|html> » ; valeurs acceptées : url, json, qr, html."
            ),
            (["render", "--size", "grand", "-o", "a.png"], "valeur « grand » invalide pour « --size <PIXELS> »."),
            (["mint", "--zip"], "valeur manquante après « --zip <CODE> »."),
            (["inspect", "a", "b"], "argument inattendu « b »"),
            (["mint", "--lock-reasons=oui"], "l’option « --lock-reasons » ne prend pas de valeur"),
        ] as [([String], String)])
    func argumentErrorsAreFrenchWithTheUsage(arguments: [String], message: String) throws {
        let result = try Tool.admin(arguments)
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("attestation-admin : \(message)"), "\(result.stderr)")
        #expect(result.stderr.contains("\nUtilisation : attestation-admin \(arguments[0])"), "\(result.stderr)")
        #expect(!result.stderr.contains("Error:") && !result.stderr.contains("Usage:"), "\(result.stderr)")
    }

    /// The server's own help: abstract, discussion and option help in French, and the parser's
    /// headings translated as the admin's are.
    @Test func theServersHelpIsFrenchToo() throws {
        let help = try Tool.run(Tool.server, ["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("Sert les attestations"), "\(help.stdout)")
        for english in [
            "Serve attestations", "The configuration file", "Address to listen on", "USAGE:", "OPTIONS:", "Show help",
            "<ADDRESS>",
        ] {
            #expect(!help.stdout.contains(english), "« \(english) »")
        }
        #expect(help.stdout.contains("UTILISATION : attestation-server"), "\(help.stdout)")
        #expect(help.stdout.contains("Affiche cette aide."), "\(help.stdout)")
    }

    @Test(
        arguments: [
            (
                ["--log-level", "bavard"],
                "valeur « bavard » invalide pour « --log-level <NIVEAU> » : « bavard » inconnu ; un de : trace, debug"
            ),
            (["--bogus"], "option inconnue « --bogus » ; voir --help pour les options acceptées."),
            (["--port", "70000"], "--port : de 0 à 65535 attendu."),
            (["--port", "huit"], "valeur « huit » invalide pour « --port <PORT> »."),
        ] as [([String], String)])
    func theServersArgumentErrorsAreFrenchWithTheUsage(arguments: [String], message: String) throws {
        let result = try Tool.run(Tool.server, arguments, timeout: 30)
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("attestation-server : \(message)"), "\(result.stderr)")
        #expect(result.stderr.contains("\nUtilisation : attestation-server"), "\(result.stderr)")
        #expect(!result.stderr.contains("Error:") && !result.stderr.contains("Usage:"), "\(result.stderr)")
    }
}

import ArgumentParser
import Foundation

@main
struct AttestationAdmin: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "attestation-admin",
        abstract: "Administer personal attestation links: keys, links, revocation, rendering.",
        discussion: """
            Start with `attestation-admin init`, then `attestation-admin mint` one link per person.

            Exit status: 0 on success, 64 for a bad option, 65 for invalid data (an identity, \
            a reason, a link, a form or configuration file), 73 when a file cannot be written or \
            would be overwritten, 77 for a private key others can read, 1 otherwise.
            """,
        subcommands: [Init.self, Keygen.self, Mint.self, Inspect.self, Revoke.self, Render.self, Forms.self,
                      ThirdPartyLicenses.self])

    /// Prints errors in French after the program name, with the exit status of their kind,
    /// instead of ArgumentParser's English "Error:" for everything that is not a usage error.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let error as AdminError {
            FileHandle.standardError.write(Data("attestation-admin : \(error.message)\n".utf8))
            Foundation.exit(error.status)
        } catch {
            exit(withError: error)
        }
    }
}

/// A failure to report to the administrator, in French, with its exit status (sysexits.h).
struct AdminError: Error {
    let message: String
    let status: Int32

    static func data(_ message: String) -> AdminError { AdminError(message: message, status: 65) }
    static func usage(_ message: String) -> AdminError { AdminError(message: message, status: 64) }
    static func cannotCreate(_ message: String) -> AdminError { AdminError(message: message, status: 73) }
    static func permission(_ message: String) -> AdminError { AdminError(message: message, status: 77) }
    static func software(_ message: String) -> AdminError { AdminError(message: message, status: 1) }
}

/// Writes a file whole or not at all (a temporary file renamed into place). A file replaced
/// keeps its mode, owner and group: `keygen` or `revoke` run under a strict umask, or by root,
/// must not make `config.json` unreadable to the server's user.
func writeAtomically(_ data: Data, to path: String) throws {
    let manager = FileManager.default
    let kept = (try? manager.attributesOfItem(atPath: path))
        .map { $0.filter { [.posixPermissions, .ownerAccountID, .groupOwnerAccountID].contains($0.key) } }
    do {
        try data.write(to: URL(fileURLWithPath: path), options: .atomic)
    } catch {
        throw AdminError.cannotCreate("impossible d’écrire \(path) ; vérifiez que le dossier existe et est accessible en écriture.")
    }
    if let kept {
        // Owner and group can only be kept by root; the mode always is.
        if (try? manager.setAttributes(kept, ofItemAtPath: path)) == nil, let mode = kept[.posixPermissions] {
            try? manager.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        }
    }
}

/// Indented JSON with sorted keys, for output meant for scripts.
func prettyJSON<Value: Encodable>(_ value: Value) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(value), as: UTF8.self)
}

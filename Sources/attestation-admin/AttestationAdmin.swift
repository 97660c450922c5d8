import ArgumentParser
import Foundation
import FrenchCommandLine

@main
struct AttestationAdmin: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "attestation-admin",
        abstract: "Administre les liens d’attestation personnels : clés, liens, révocation, rendu.",
        discussion: """
            Pour commencer : attestation-admin init, puis attestation-admin mint, un lien par \
            personne ; attestation-admin links liste les liens créés.

            Codes de sortie : 0 succès, 64 option invalide, 65 donnée invalide (une identité, un \
            motif, un lien, un formulaire, un fichier de configuration ou CSV), 73 fichier \
            impossible à écrire ou qui serait écrasé, 77 clé privée lisible par d’autres, 1 sinon.
            """,
        subcommands: [
            Init.self, Keygen.self, Mint.self, Links.self, Inspect.self, Revoke.self, Render.self, Paper.self,
            Forms.self,
            ThirdPartyLicenses.self,
        ])

    /// Prints every message in French after the program name, with the exit status of its
    /// kind: ours (`AdminError`) as they are, the parser's help and errors translated.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let error as AdminError {
            FileHandle.standardError.write(Data("attestation-admin : \(error.message)\n".utf8))
            Foundation.exit(error.status)
        } catch {
            exitInFrench(error)
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

/// Writes a file others read (the configuration, the revocation list), whole or not at all,
/// written by its owner only: its mode kept without the group's and others' write bits (0644
/// for a new file), its owner and group kept where the system allows: `keygen` or `revoke` run
/// under a strict umask, or by root, must not make `config.json` unreadable to the server's user. The server refuses a
/// configuration or revocation list others may write: under umask 000, `init` wrote them 0666
/// (issue 38). The temporary file has its mode from its creation, so that no one else ever
/// holds it open for writing.
func writeAtomically(_ data: Data, to path: String) throws {
    var status = stat()
    let exists = stat(path, &status) == 0
    let mode = (exists ? mode_t(status.st_mode & 0o7777) : 0o644) & ~mode_t(0o022)
    try writeReplacing(data, to: path, mode: mode, owner: exists ? (status.st_uid, status.st_gid) : nil)
}

/// Writes a file that holds working links or a person's identity (what `mint -o`, `paper -o`
/// and `render -o` write), whole or not at all, readable by its owner only: a temporary file
/// created with mode 0600 (whatever the umask, never a moment where others could read it), then
/// renamed into place, so a file replaced with `--force` becomes 0600 too.
func writePrivately(_ data: Data, to path: String) throws {
    try writeReplacing(data, to: path, mode: 0o600, owner: nil)
}

/// A temporary file beside `path` created with `mode` exactly (the umask aside), given `owner`
/// where the system allows, written, synced, then renamed over `path`.
private func writeReplacing(_ data: Data, to path: String, mode: mode_t, owner: (uid_t, gid_t)?) throws {
    let url = URL(fileURLWithPath: path)
    let temporary = url.deletingLastPathComponent()
        .appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString.prefix(8)).tmp").path
    let failure = AdminError.cannotCreate(
        "impossible d’écrire \(path) ; vérifiez que le dossier existe et est accessible en écriture.")
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
    guard descriptor >= 0 else { throw failure }
    // The replaced file's owner and group: root may give them; anyone else keeps their own.
    if let owner { _ = fchown(descriptor, owner.0, owner.1) }
    let written = data.withUnsafeBytes { bytes -> Bool in
        var offset = 0
        while offset < bytes.count {
            let count = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            offset += count
        }
        return true
    }
    guard written, fchmod(descriptor, mode) == 0, fsync(descriptor) == 0, close(descriptor) == 0,
        rename(temporary, path) == 0
    else {
        unlink(temporary)
        throw failure
    }
}

/// Indented JSON with sorted keys, for output meant for scripts.
func prettyJSON<Value: Encodable>(_ value: Value) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(value), as: UTF8.self)
}

/// An instant as the administrator reads it: `23/11/2026 11:11 (Europe/Paris)`, in the link's
/// or the configured zone, named, so a time is never mistaken for another zone's.
enum ShownDate {
    static func text(_ date: Date, in zone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        func two(_ n: Int?) -> String {
            let n = n ?? 0
            return n < 10 ? "0\(n)" : "\(n)"
        }
        return "\(two(c.day))/\(two(c.month))/\(c.year ?? 0) \(two(c.hour)):\(two(c.minute)) (\(zone.identifier))"
    }

    /// ISO 8601 with the zone's offset (`2026-11-23T11:11:00+01:00`), for JSON.
    static func iso(_ date: Date, in zone: TimeZone) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = zone
        return formatter.string(from: date)
    }
}

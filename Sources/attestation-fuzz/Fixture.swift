import AttestationConfiguration
import AttestationKit
import AttestationService
import Foundation
import HTTPServer
import LinkTokens
import Logging
import Synchronization

/// The fixed world the targets run in: keys whose private halves the fuzzer holds, so it can
/// sign any payload and reach past the signature check; a few people and their links; a
/// service loaded from a real configuration file, answering without a socket.
///
/// Everything is built once, on first use, and never changes afterwards: an input gives the
/// same result whenever it runs, which libFuzzer needs to minimize and replay crashes.
enum Fixture {
    /// 2020-11-28T08:15:00Z, the morning the 28 November form came into force.
    static let now = Date(timeIntervalSince1970: 1_606_551_300)
    static let today = CalendarDate(year: 2020, month: 11, day: 28)!
    /// When the fixture's links were minted.
    static let issued = Date(timeIntervalSince1970: 1_606_498_920)

    /// The key the fuzzer signs with; its id is what a payload must name to be checked against it.
    static let key = signingKey(id: "fuzz-1", seed: 1)
    /// A second key of the ring: a payload naming it but signed with `key` must be refused.
    static let otherKey = signingKey(id: "fuzz-2", seed: 2)
    static let ring = try! KeyRing([key.verificationKey, otherKey.verificationKey])
    static let keys = [key.id: key, otherKey.id: otherKey]

    /// The link the revocation list names.
    static let revokedID = LinkID("fuzz-revoque-001")!
    static let revoked = RevocationList(ids: [revokedID])

    /// A fixed private key: the seed spread over 32 bytes. Test-only keys, public by design.
    /// Bytes rather than `Data`: LeakSanitizer does not see the tagged reference a `Data`
    /// keeps in a global, and would report it at exit.
    static func rawKey(seed: UInt8) -> [UInt8] {
        (0..<32).map { UInt8(truncatingIfNeeded: $0 * 37 + Int(seed) * 101) }
    }

    /// The Ed25519 signature of any bytes: what only the holder of the private key can make
    /// (`SigningKey.signature(of:)`, open to this package only).
    static func signature(of bytes: [UInt8], by keyID: String) -> [UInt8] {
        keys[keyID]!.signature(of: bytes)
    }

    static func signingKey(id: String, seed: UInt8) -> SigningKey {
        let raw = Data(rawKey(seed: seed))
        let file = """
            {"format": "attestation-links ed25519 private key v1", "keyId": "\(id)", "privateKey": "\(raw.base64EncodedString())"}
            """
        return try! SigningKey(fileContents: Data(file.utf8))
    }

    // MARK: People and links (fictitious)

    static let camille = person("Camille", "Dupont", "01/01/1970", "Lyon", "999 avenue de France", "75001", "Paris")
    /// Outside WinAnsi: the PDF embeds the Unicode font.
    static let minh = person(
        "Thị Minh", "Nguyễn", "15/08/1985", "Hô-Chi-Minh-Ville", "12 rue de l’Œuvre", "97200", "Fort-de-France")
    /// Every field at its longest.
    static let long = person(
        String(repeating: "Marie-", count: 8) + "Jo", String(repeating: "Dupont-", count: 7) + "L",
        "29/02/1904", String(repeating: "Saint-", count: 10), String(repeating: "9 chemin des Lilas, ", count: 5),
        "01000", String(repeating: "Ville-", count: 8) + "Jo")

    /// Every free-text field as long as its ASCII form may be, mostly U+FDFA (17 letters once
    /// folded): the largest QR payload a link can ask for.
    static let longestInQRCode: Identity = {
        func value(_ field: Identity.Field) -> String {
            let budget = Identity.maximumQRBytes(field)
            var text = ""
            for piece in ["\u{FDFA}", "a"] {
                while text.count < Identity.maximumLengths[field]!, ASCIIFolding.fold(text + piece).utf8.count <= budget
                {
                    text += piece
                }
            }
            return text
        }
        return try! Identity(
            firstName: value(.firstName), lastName: value(.lastName), birthDate: "01/01/1970",
            birthPlace: value(.birthPlace), address: value(.address), zipCode: "75001",
            city: value(.city), today: today)
    }()

    static func person(
        _ first: String, _ last: String, _ birth: String, _ place: String, _ address: String,
        _ zip: String, _ city: String
    ) -> Identity {
        try! Identity(
            firstName: first, lastName: last, birthDate: birth, birthPlace: place, address: address,
            zipCode: zip, city: city, today: today)
    }

    /// A link of the fixture: the query target writes `t=$N` for the token of `links[N]`, so the
    /// fuzzer spends its time on the other parameters rather than on forging signatures.
    struct Link: Sendable {
        let contents: LinkContents
        let token: String
        /// The status the attestation routes give it whatever the parameters, when not 200/400.
        let refusal: Int?
    }

    static let links: [Link] = [
        link(id: "fuzz-lien-000000", camille, reasons: ["travail"]),
        link(
            id: "fuzz-lien-000001", camille, reasons: ["sante", "achats_culturel_cultuel"], expires: date(2099, 12, 31),
            locked: true),
        link(
            id: "fuzz-lien-000002", minh, form: "deplacement-2020-11-02", reasons: ["achats"],
            zone: "America/Martinique"),
        link(id: "fuzz-lien-000003", camille, reasons: ["travail"], expires: date(2021, 1, 1), refusal: 410),
        link(id: revokedID.description, camille, reasons: ["travail"], refusal: 410),
        link(
            id: "fuzz-lien-000005", long,
            reasons: [
                "travail", "achats_culturel_cultuel", "sante", "famille", "handicap",
                "sport_animaux", "convocation", "missions", "enfants",
            ]),
        link(id: "fuzz-lien-000006", camille, form: "formulaire-absent", reasons: ["travail"], refusal: 503),
        link(id: "fuzz-lien-000007", camille, reasons: ["travail"], zone: "Mars/Olympus", refusal: 500),
        // Reasons of another form: a link minted before its form changed. Unservable, like the two above.
        link(id: "fuzz-lien-000008", camille, reasons: ["sante", "achats"], refusal: 500),
    ]

    static func link(
        id: String, _ identity: Identity, form: String = "deplacement-2020-11-28", reasons: [String],
        expires: Date? = nil, zone: String? = nil, locked: Bool = false, refusal: Int? = nil
    ) -> Link {
        let contents = LinkContents(
            id: LinkID(id)!, issuedAt: issued, expiresAt: expires, formID: form, identity: identity,
            reasons: reasons, timeZone: zone, lockReasons: locked)
        return Link(contents: contents, token: try! LinkToken.sign(contents, with: key), refusal: refusal)
    }

    static func date(_ year: Int, _ month: Int, _ day: Int) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar.date(from: DateComponents(year: year, month: month, day: day))!
    }

    /// The personal values of the fixture's people, which no refusal and no log line may show
    /// unless the request itself carried them.
    static let personalValues: [String] = [camille, minh, long].flatMap {
        [$0.firstName, $0.lastName, $0.birthPlace, $0.address, $0.city, $0.birthDate.description]
    }

    // MARK: The service

    /// The files of the static site the service is given.
    static let publicFiles: [String: String] = [
        "index.html": "<!doctype html><title>Attestation</title>\n",
        "app.js": "console.log('ok');\n",
        "sous-dossier/index.html": "<!doctype html><title>Sous-dossier</title>\n",
        "icone.png": "\u{89}PNG\r\n",
    ]

    /// What `/metrics` answers: the fuzzer has no metrics backend.
    static let metricsText = Array("# aucune métrique\n".utf8)

    static let logLines = LogLines()

    /// The real service, loaded from a configuration file written in a temporary directory,
    /// which is removed once loaded (the service keeps everything in memory).
    static let service: Service = {
        let snapshot = loadSnapshot()
        return Service(
            snapshot: snapshot, logger: Logger(label: "attestation-fuzz") { _ in CapturingLogHandler(sink: logLines) },
            metricsExposition: { metricsText })
    }()

    static var state: ServiceState { service.snapshot.state }

    private static func loadSnapshot() -> ServiceSnapshot {
        let manager = FileManager.default
        let directory = manager.temporaryDirectory.appendingPathComponent(
            "attestation-fuzz-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
        defer { try? manager.removeItem(at: directory) }
        do {
            try manager.createDirectory(at: directory, withIntermediateDirectories: true)
            for (path, text) in publicFiles {
                let file = directory.appendingPathComponent("public/\(path)")
                try manager.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(text.utf8).write(to: file)
            }
            try Data(RevocationList.line(for: revokedID, comment: "fuzz").utf8)
                .write(to: directory.appendingPathComponent("revoked.txt"))
            var server = ServerSettings()
            server.publicDirectory = "public"
            let configuration = Configuration(
                baseURL: "https://attestation.example.org",
                keys: [key, otherKey].map { .init(id: $0.id, publicKey: $0.verificationKey.base64) },
                signingKey: nil, revocationList: "revoked.txt", formsDirectory: nil, offsetBounds: .standard,
                server: server)
            let file = directory.appendingPathComponent("config.json")
            try configuration.fileContents.write(to: file)
            return try ServiceSnapshot.load(configurationFile: file)
        } catch {
            fatalError("attestation-fuzz : configuration de test inutilisable : \(error)")
        }
    }
}

/// The service's log lines, kept for the checks of the request that wrote them.
final class LogLines: Sendable {
    private let lines = Mutex<[String]>([])

    func append(_ line: String) { lines.withLock { $0.append(line) } }

    /// The lines since the last call.
    func take() -> [String] {
        lines.withLock { lines in
            defer { lines = [] }
            return lines
        }
    }
}

/// A log handler that writes nowhere but `LogLines`: the fuzzer checks every line the service
/// would have written (no token, no query, no personal data).
struct CapturingLogHandler: LogHandler {
    let sink: LogLines
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .info

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// The message then each metadata value as `key=value`, keys sorted: all that a log line
    /// would show, whatever its format.
    func log(event: LogEvent) {
        var merged = metadata
        if let extra = event.metadata { merged.merge(extra) { _, new in new } }
        sink.append(
            ([event.message.description] + merged.keys.sorted().map { "\($0)=\(merged[$0]!)" }).joined(separator: " "))
    }
}

/// Whether `text` holds `part`, compared as UTF-8 bytes. Foundation's `String.contains(_:)`
/// traps (String index out of bounds, Swift 6.3.1 on Linux) when `part` continues with a NUL
/// after a prefix that ends a non-ASCII `text`: `"vérifiez.".contains(".\0")`, found by this
/// fuzzer. The service never searches for text it was sent; the checks here do.
func holds(_ text: String, _ part: String) -> Bool {
    Array(text.utf8).firstRange(of: Array(part.utf8)) != nil
}

/// A property of the code under test. On failure the message goes to standard error before
/// the trap: `precondition` drops its message in optimized builds, and the fuzzer is built
/// optimized. The message never holds the input (libFuzzer saves that as the crash file).
func require(
    _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
    file: StaticString = #fileID, line: UInt = #line
) {
    guard !condition() else { return }
    let text = "attestation-fuzz : propriété violée (\(file):\(line)) : \(message())\n"
    FileHandle.standardError.write(Data(text.utf8))
    fatalError(text, file: file, line: line)
}

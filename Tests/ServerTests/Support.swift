import AttestationKit
import Foundation
import LinkTokens
import Synchronization
import TestSupport
import Testing

// MARK: - HTTP through curl

/// One HTTP exchange made by curl: curl's exit code, the status, headers and body.
struct HTTPResult: Sendable {
    let curlExit: Int32
    let status: Int
    /// Body bytes received (0 for a HEAD, whose headers curl `-I` writes as the output).
    let downloaded: Int
    let headers: [Header]
    let body: Data
    let curlError: String

    struct Header: Sendable {
        let name: String
        let value: String
    }

    var text: String { String(decoding: body, as: UTF8.self) }

    /// The last header of that name (case-insensitive).
    func header(_ name: String) -> String? {
        headers.last { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The header names, lowercased, in order.
    var headerNames: [String] { headers.map { $0.name.lowercased() } }

    /// The JSON body as an object.
    func json() throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: body)
        return try #require(object as? [String: Any], "JSON object expected: \(text)")
    }
}

/// Makes one request with curl (`--path-as-is` and friends through `options`).
func curl(_ url: String, _ options: [String] = [], timeout: Int = 30) throws -> HTTPResult {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("curl-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let headerFile = directory.appendingPathComponent("headers")
    let bodyFile = directory.appendingPathComponent("body")
    let result = try Tool.external(
        "curl",
        [
            "-sS", "--max-time", String(timeout), "-D", headerFile.path, "-o", bodyFile.path, "-w",
            "%{http_code} %{size_download}",
        ]
            + options + [url],
        timeout: Double(timeout + 10))
    let headerText = String(decoding: (try? Data(contentsOf: headerFile)) ?? Data(), as: UTF8.self)
    // The last response's block (after any 100 Continue).
    let block = headerText.components(separatedBy: "\r\n\r\n").last { !$0.isEmpty } ?? ""
    let headers = block.components(separatedBy: "\r\n").dropFirst().compactMap { line -> HTTPResult.Header? in
        guard let colon = line.firstIndex(of: ":") else { return nil }
        return HTTPResult.Header(
            name: String(line[..<colon]),
            value: line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
    }
    let written = result.stdout.split(separator: " ")
    return HTTPResult(
        curlExit: result.status, status: written.first.flatMap { Int($0) } ?? 0,
        downloaded: written.last.flatMap { Int($0) } ?? -1, headers: headers,
        body: (try? Data(contentsOf: bodyFile)) ?? Data(), curlError: result.stderr)
}

// MARK: - People and links

/// A fictitious person, as the admin CLI takes one.
struct Person: Sendable, Hashable {
    var firstName: String
    var lastName: String
    var birthDate: String
    var birthPlace: String
    var address: String
    var zip: String
    var city: String

    var options: [String] {
        [
            "--first-name", firstName, "--last-name", lastName, "--birth-date", birthDate, "--birth-place", birthPlace,
            "--address", address, "--zip", zip, "--city", city,
        ]
    }

    /// What must never reach a log: the values as written and as folded into the QR code.
    var secrets: [String] {
        [
            firstName, lastName, birthDate, birthPlace, address, ASCIIFolding.fold(firstName),
            ASCIIFolding.fold(lastName),
            ASCIIFolding.fold(address),
        ]
    }

    var identity: Identity {
        get throws {
            try Identity(
                firstName: firstName, lastName: lastName, birthDate: birthDate, birthPlace: birthPlace,
                address: address, zipCode: zip, city: city, today: CalendarDate(year: 2100, month: 1, day: 1)!)
        }
    }

    static let eloise = Person(
        firstName: "Éloïse", lastName: "Quimperlé", birthDate: "29/02/1988", birthPlace: "Besançon",
        address: "12 rue des Lilas Bleus", zip: "25000", city: "Besançon")
    static let maxime = Person(
        firstName: "Maximilien", lastName: "Oberkampf", birthDate: "17/03/1961", birthPlace: "Colmar",
        address: "3 impasse du Moulin Rouge", zip: "68000", city: "Colmar")
    static let yasmine = Person(
        firstName: "Yasmine", lastName: "Belkacemi", birthDate: "05/11/1993", birthPlace: "Roubaix",
        address: "48 boulevard Vauban Nord", zip: "59100", city: "Roubaix")
}

/// A configuration made by `attestation-admin init` in a scratch directory, with a static site
/// of its own (`site/`), server settings for the tests, and links minted from it.
final class TestSite: Sendable {
    let scratch: Scratch
    let secrets = Mutex<[String]>([])

    var directory: URL { scratch.url }
    var config: String { scratch.path("config.json") }

    /// - Parameter server: the `server` object of the configuration.
    init(server: [String: any Sendable] = [:]) throws {
        scratch = try Scratch(prefix: "server-tests")
        let initialized = try Tool.admin([
            "init", "--config", scratch.path("config.json"), "--base-url", "http://127.0.0.1:8080",
        ])
        try #require(initialized.status == 0, "init failed: \(initialized.stderr)")
        // Reloads on SIGHUP only, so a test changes several files and applies them when it says;
        // the tests of reloads on change turn it on.
        var settings: [String: Any] = ["publicDirectory": "site", "logLevel": "info", "reloadOnChange": false]
        for (key, value) in server { settings[key] = value }
        try editConfig { $0["server"] = settings }

        let manager = FileManager.default
        try manager.createDirectory(atPath: scratch.path("site/sub"), withIntermediateDirectories: true)
        try manager.createDirectory(atPath: scratch.path("site/docs"), withIntermediateDirectories: true)
        try Data("<!doctype html><title>Accueil test</title><p>page d’accueil du site de test</p>\n".utf8)
            .write(to: URL(fileURLWithPath: scratch.path("site/index.html")))
        try Data("<!doctype html><title>Docs</title><p>index des docs</p>\n".utf8)
            .write(to: URL(fileURLWithPath: scratch.path("site/docs/index.html")))
        try Data("fichier de test\n".utf8).write(to: URL(fileURLWithPath: scratch.path("site/sub/note.txt")))
        // Links inside the site leading out of it: never served.
        try manager.createSymbolicLink(atPath: scratch.path("site/config.json"), withDestinationPath: "../config.json")
        try manager.createSymbolicLink(
            atPath: scratch.path("site/sub/key.txt"), withDestinationPath: scratch.path("keys/k1.key"))
        try manager.createSymbolicLink(atPath: scratch.path("site/keys"), withDestinationPath: "../keys")
    }

    /// Rewrites the configuration file through its JSON object.
    func editConfig(_ change: (inout [String: Any]) throws -> Void) throws {
        let url = URL(fileURLWithPath: config)
        var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        try change(&object)
        try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys]).write(to: url)
    }

    /// Mints a link with the admin CLI and returns its token; the token and the person's values
    /// join the secrets no log may hold.
    func mint(_ person: Person, reasons: [String] = ["travail"], _ extra: [String] = []) throws -> String {
        let result = try Tool.admin(
            ["mint", "--config", config] + person.options + reasons.flatMap { ["--reason", $0] } + extra)
        try #require(result.status == 0, "mint failed: \(result.stderr)")
        let token = try #require(Self.token(of: result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        secrets.withLock { $0 += person.secrets + [token] }
        return token
    }

    /// Mints one link per person through `mint --csv --format json`, in the people's order.
    func mintCSV(_ people: [Person], reasons: [String] = ["travail"], form: String? = nil) throws -> [String] {
        var csv = "first_name,last_name,birth_date,birth_place,address,zip,city,reasons\n"
        for p in people {
            csv +=
                [
                    p.firstName, p.lastName, p.birthDate, p.birthPlace, p.address, p.zip, p.city,
                    reasons.joined(separator: " "),
                ]
                .joined(separator: ",") + "\n"
        }
        let file = scratch.path("people-\(UUID().uuidString).csv")
        try Data(csv.utf8).write(to: URL(fileURLWithPath: file))
        let result = try Tool.admin(
            ["mint", "--config", config, "--csv", file, "--format", "json"] + (form.map { ["--form", $0] } ?? []))
        try #require(result.status == 0, "mint --csv failed: \(result.stderr)")
        let links = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        try #require(links.count == people.count)
        var tokens: [String] = []
        for (person, link) in zip(people, links) {
            #expect(
                link["name"] as? String == "\(person.firstName) \(person.lastName)", "mint --csv keeps the rows' order")
            let url = try #require(link["url"] as? String)
            tokens.append(try #require(Self.token(of: url)))
        }
        secrets.withLock { $0 += people.flatMap(\.secrets) + tokens }
        return tokens
    }

    /// A link signed with the configuration's own key, but already expired: the CLI refuses to
    /// mint one (`--expires` takes 1 to 3650 days or a day not yet over), so it is signed here.
    func expiredToken(_ person: Person) throws -> String {
        let key = try SigningKey(fileContents: Data(contentsOf: URL(fileURLWithPath: scratch.path("keys/k1.key"))))
        let now = Date()
        let contents = LinkContents(
            issuedAt: now.addingTimeInterval(-2 * 86_400), expiresAt: now.addingTimeInterval(-3_600),
            formID: "deplacement-2020-11-28", identity: try person.identity, reasons: ["travail"])
        let token = try LinkToken.sign(contents, with: key)
        secrets.withLock { $0 += person.secrets + [token] }
        return token
    }

    /// A well-formed link signed by a key this server does not know.
    func foreignKeyToken(_ person: Person, keyID: String = "k1") throws -> String {
        let key = try SigningKey.generate(id: keyID)
        let contents = LinkContents(
            formID: "deplacement-2020-11-28", identity: try person.identity, reasons: ["travail"])
        let token = try LinkToken.sign(contents, with: key)
        secrets.withLock { $0 += person.secrets + [token] }
        return token
    }

    func revoke(_ token: String) throws {
        let result = try Tool.admin(["revoke", "--config", config, token])
        try #require(result.status == 0, "revoke failed: \(result.stderr)")
    }

    static func token(of link: String) -> String? {
        URLComponents(string: link)?.queryItems?.first { $0.name == "t" }?.value
    }
}

extension ServerProcess {
    /// `BASE/attestation.pdf?t=TOKEN&…`
    func url(_ path: String, token: String? = nil, _ query: String = "") -> String {
        var parts: [String] = []
        if let token { parts.append("t=\(token)") }
        if !query.isEmpty { parts.append(query) }
        return baseURL + path + (parts.isEmpty ? "" : "?" + parts.joined(separator: "&"))
    }
}

/// No secret, no token and no query string in the server's log.
func expectLogHoldsNoSecrets(_ log: String, secrets: [String], sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(!log.isEmpty, "the access log is empty", sourceLocation: sourceLocation)
    for secret in Set(secrets) where secret.count >= 4 {
        #expect(!log.contains(secret), "the log holds « \(secret.prefix(12))… »", sourceLocation: sourceLocation)
    }
    for marker in ["?t=", "&t=", "t=AQ", "offset=", "reasons="] {
        #expect(!log.contains(marker), "the log holds a query string (\(marker))", sourceLocation: sourceLocation)
    }
}

// MARK: - The QR payload

/// The fields of a QR payload (`Cree le: 28/11/2020 a 08h15;\nNom: …;\n…`), by label.
struct QRFields {
    let fields: [String: String]
    let text: String

    init(_ text: String) throws {
        self.text = text
        var fields: [String: String] = [:]
        for line in text.components(separatedBy: ";\n") where !line.isEmpty {
            let parts = line.components(separatedBy: ": ")
            try #require(parts.count >= 2, "unexpected QR line: \(line)")
            fields[parts[0]] = parts.dropFirst().joined(separator: ": ")
        }
        self.fields = fields
    }

    subscript(_ label: String) -> String? { fields[label] }

    /// "Cree le: dd/mm/yyyy a HHhMM" as an instant (Paris).
    var created: Date {
        get throws { try Self.instant(try #require(fields["Cree le"]), timeSeparator: "h") }
    }

    /// "Sortie: dd/mm/yyyy a HH:MM" as an instant (Paris).
    var exit: Date {
        get throws { try Self.instant(try #require(fields["Sortie"]), timeSeparator: ":") }
    }

    var reasons: [String] {
        (fields["Motifs"] ?? "").components(separatedBy: ", ")
    }

    static func instant(_ text: String, timeSeparator: Character) throws -> Date {
        let parts = text.components(separatedBy: " a ")
        try #require(parts.count == 2, "« dd/mm/yyyy a HH\(timeSeparator)MM » expected: \(text)")
        let day = parts[0].split(separator: "/").compactMap { Int($0) }
        let time = parts[1].split(separator: timeSeparator).compactMap { Int($0) }
        try #require(day.count == 3 && time.count == 2, "« dd/mm/yyyy a HH\(timeSeparator)MM » expected: \(text)")
        return try #require(
            Paris.calendar.date(
                from: DateComponents(
                    year: day[2], month: day[1], day: day[0],
                    hour: time[0], minute: time[1])))
    }
}

enum Paris {
    static let zone = TimeZone(identifier: "Europe/Paris")!
    static var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar
    }

    /// `attestation-YYYY-MM-DD_HH-MM.pdf` for that instant.
    static func fileName(_ date: Date, extension ext: String = "pdf") -> String {
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        return String(format: "attestation-%04d-%02d-%02d_%02d-%02d.", c.year!, c.month!, c.day!, c.hour!, c.minute!)
            + ext
    }

    /// `HH:MM` of that instant.
    static func clock(_ date: Date) -> String {
        let c = calendar.dateComponents([.hour, .minute], from: date)
        return String(format: "%02d:%02d", c.hour!, c.minute!)
    }
}

/// The QR code of a PDF (its large copy, page 2) or of a PNG, read back with zbarimg.
func qrCode(of document: Data, in scratch: Scratch, png: Bool = false) throws -> QRFields {
    let file = try write(document, to: "\(UUID().uuidString).\(png ? "png" : "pdf")", in: scratch)
    let payload = try #require(try decodedQRCodes(in: file, scratch: scratch, pages: png ? nil : 2...2).first)
    return try QRFields(payload)
}

/// Writes data to a file of the scratch directory and returns its path.
func write(_ data: Data, to name: String, in scratch: Scratch) throws -> String {
    let path = scratch.path(name)
    try data.write(to: URL(fileURLWithPath: path))
    return path
}

/// One server for a whole suite: started before its first test, stopped (SIGTERM, exit 0
/// expected) after its last, its log then checked for personal data. The tests reach it
/// through `SharedServer.current`.
final class SharedServer: Sendable {
    @TaskLocal static var current: SharedServer?

    let site: TestSite
    let server: ServerProcess
    /// Éloïse's link: travail, expires in 30 days, the form of 28 November 2020 (the shared
    /// server's suites are written against it; CalendarWalkTests has links that follow the
    /// calendar).
    let eloise: String
    /// Maximilien's link: santé, reasons locked, the form of 28 November 2020.
    let locked: String

    init() throws {
        site = try TestSite(server: ["maxConnectionsPerAddress": 512, "shutdownTimeout": 5])
        eloise = try site.mint(.eloise, reasons: ["travail"], ["--expires", "30d"] + Self.pinned)
        locked = try site.mint(.maxime, reasons: ["sante"], ["--lock-reasons"] + Self.pinned)
        server = try ServerProcess(config: site.config)
    }

    /// The form the shared server's links print.
    static let pinned = ["--form", "deplacement-2020-11-28"]

    static func get(sourceLocation: SourceLocation = #_sourceLocation) throws -> SharedServer {
        try #require(
            current, "no shared server: the suite needs the .sharedServer trait", sourceLocation: sourceLocation)
    }

    var secrets: [String] { site.secrets.withLock { $0 } }

    /// SIGTERM: the server must exit 0 (no sanitizer report either) and have logged nothing
    /// personal.
    func finish() {
        server.terminate()
        let status = server.waitForExit(timeout: 20)
        let log = server.logText
        #expect(
            status == 0,
            "the shared server did not stop cleanly (status \(status.map(String.init) ?? "still running")): \(log.suffix(3000))"
        )
        #expect(!log.contains("Sanitizer"), "sanitizer report in the server's log: \(log.suffix(6000))")
        expectLogHoldsNoSecrets(log, secrets: secrets)
    }
}

struct SharedServerTrait: SuiteTrait, TestScoping {
    func provideScope(
        for test: Test, testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        let shared = try SharedServer()
        try await SharedServer.$current.withValue(shared) {
            try await function()
        }
        shared.finish()
    }
}

extension Trait where Self == SharedServerTrait {
    /// The suite's tests share one running server.
    static var sharedServer: Self { Self() }
}

import AttestationKit
import Foundation
import LinkTokens

/// Fixed values shared by the link suites: no test reads the real clock.
public enum LinkFixture {
    /// 2020-11-28T08:15:00Z, the day the 28 November form came into force.
    public static let now = instant("2020-11-28T08:15:00Z")
    /// The day before, when the links are minted.
    public static let issued = instant("2020-11-27T17:42:31Z")
    public static let today = CalendarDate(year: 2020, month: 11, day: 28)!

    public static let defaultFormID = "deplacement-2020-11-28"
    public static let olderFormID = "deplacement-2020-11-02"

    public static let keyID = "cle-2020-11"
    /// One key pair for the whole run: generating one is cheap, but tokens of the same key compare.
    public static let key = try! SigningKey.generate(id: keyID)
    public static let ring = try! KeyRing([key.verificationKey])

    /// Camille Dupont, born 01/01/1970 in Lyon, 999 avenue de France 75001 Paris.
    public static let camille = try! Identity(
        firstName: "Camille", lastName: "Dupont", birthDate: "01/01/1970", birthPlace: "Lyon",
        address: "999 avenue de France", zipCode: "75001", city: "Paris", today: today)

    public static func contents(
        identity: Identity = camille, formID: String = defaultFormID, reasons: [String] = ["travail"],
        expiresAt: Date? = nil, timeZone: String? = nil, lockReasons: Bool = false, id: LinkID = .random()
    ) -> LinkContents {
        LinkContents(
            id: id, issuedAt: issued, expiresAt: expiresAt, formID: formID, identity: identity, reasons: reasons,
            timeZone: timeZone, lockReasons: lockReasons)
    }

    /// A token for Camille, signed with `key`.
    public static func token(_ contents: LinkContents = contents(), key: SigningKey = key) throws -> String {
        try LinkToken.sign(contents, with: key)
    }
}

/// An instant written in ISO 8601 with an explicit offset, e.g. `2020-11-28T08:15:00Z`.
public func instant(_ text: String) -> Date {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    guard let date = formatter.date(from: text) else { fatalError("not an ISO 8601 instant: \(text)") }
    return date
}

/// A fresh empty directory under the system's temporary directory.
public func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("link-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

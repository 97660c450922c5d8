import Foundation

/// The official files the tests compare with, kept in the repository beside the facts of the
/// other forms (Tests/FormSchemaTests/Reference/, copied from ../shared/reference/):
/// `official-2020-11-28.txt` and `official-2020-11-02.txt`, the Ministry's blank templates of
/// November 2020 as `pdftotext -layout` reads them, and `official-LICENCE.txt`, the MIT notice of
/// its generator. A clone holds them: one missing is an error, never a reason to skip.
public enum ReferenceFile {
    public static let directory = ReferenceExample.directory

    /// The path of the file NAME of the folder.
    public static func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// The text of the file NAME of the folder; thrown when it is missing or not UTF-8.
    public static func text(_ name: String) throws -> String {
        let file = Self.path(name)
        guard let data = FileManager.default.contents(atPath: file) else {
            throw Unreadable(description: "\(file) is missing: the repository holds it")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw Unreadable(description: "\(file) is not UTF-8")
        }
        return text
    }

    public struct Unreadable: Error, CustomStringConvertible {
        public let description: String
    }
}

import Foundation

/// The seeds of a fuzz target (Tests/Fuzz/Corpus/TARGET/), which `attestation-fuzz write-seeds`
/// writes and make test's fuzz-replay keeps fresh: the damaged fonts and pictures of issue 38
/// are tested from there, so that the suites and the fuzzer share one set of hostile files.
public enum FuzzCorpus {
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz/Corpus")

    /// The file of the seed `name` of `target`.
    public static func seed(_ target: String, _ name: String) -> URL {
        root.appendingPathComponent(target).appendingPathComponent(name)
    }

    /// Every seed name of `target`, sorted.
    public static func names(_ target: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(target).path).sorted()
    }
}

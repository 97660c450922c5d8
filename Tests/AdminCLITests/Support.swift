import Foundation
import TestSupport
import Testing

// The first hour of a new administrator (issue 14), told by InitListeningTests, MintOutputFileTests,
// LinkRegisterTests, RevokeByNameTests, ConfiguredFormsTests, ShownDatesTests and FrenchHelpTests:
// the port init chooses, what mint says and refuses, the register of links, revoking by name, the
// forms the server has, dates in their zone, and French throughout. What they share:

/// The options of `mint` for a fictitious person of that name.
func personArguments(_ first: String, _ last: String) -> [String] {
    [
        "--first-name", first, "--last-name", last, "--birth-date", "01/01/1970", "--birth-place", "Lyon",
        "--address", "999 avenue de France", "--zip", "75001", "--city", "Paris", "--reason", "travail",
    ]
}

/// A scratch folder after `attestation-admin init`.
func initializedSite(baseURL: String = "https://attestation.example.org") throws -> Scratch {
    let scratch = try Scratch()
    let result = try Tool.admin(["init", "--base-url", baseURL], in: scratch.url)
    try #require(result.status == 0, "init failed: \(result.stderr)")
    return scratch
}

func siteConfiguration(_ scratch: Scratch) throws -> [String: Any] {
    try #require(
        try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: scratch.path("config.json"))))
            as? [String: Any])
}

/// `attestation-admin mint`, which must succeed.
func mintSucceeding(_ arguments: [String], in scratch: Scratch) throws -> ProcessResult {
    let result = try Tool.admin(["mint"] + arguments, in: scratch.url)
    try #require(result.status == 0, "mint failed: \(result.stderr)")
    return result
}

/// The register of minted links (links.jsonl), one object per line.
func registerLines(_ scratch: Scratch) throws -> [[String: Any]] {
    let text = try String(contentsOfFile: scratch.path("links.jsonl"), encoding: .utf8)
    return try text.split(separator: "\n").map {
        try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
}

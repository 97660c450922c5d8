import FormSchema

/// How much `attestation-server` logs (`server.logLevel`, `--log-level`): swift-log's levels,
/// by their names.
public enum LogLevel: String, SettingName {
    case trace, debug, info, notice, warning, error, critical
}

/// How `attestation-server` writes its log (`server.logFormat`, `--log-format`): `text`, a line
/// a record for people, or `json`, an object a line for log collectors.
public enum LogFormat: String, SettingName {
    case text, json
}

/// A setting written as one of a few names. Decoded from config.json, any other name is refused
/// with the names accepted, where Codable would only say the data is corrupt.
public protocol SettingName: RawRepresentable<String>, CaseIterable, Codable, Sendable {}

extension SettingName {
    /// The names accepted, in their order: `text, json`.
    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }

    /// The setting named `name`, or why there is none, in French.
    public init(named name: String) throws(SettingNameError) {
        guard let value = Self(rawValue: name) else {
            throw SettingNameError(message: "« \(name) » inconnu ; un de : \(Self.names) attendu.")
        }
        self = value
    }

    public init(from decoder: any Decoder) throws {
        let name = try decoder.singleValueContainer().decode(String.self)
        do {
            try self.init(named: name)
        } catch {
            // The settings are keys of objects, never elements of a list: the path is their names.
            let path = decoder.codingPath.map(\.stringValue).joined(separator: ".")
            throw StrictJSON.Failure(path: path, message: error.message)
        }
    }
}

/// A name that is none of a setting's, with the names accepted.
public struct SettingNameError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}

import AttestationConfiguration
import Foundation
import Testing

/// `server.logLevel` and `server.logFormat` are read once, when the configuration loads: a name
/// the server does not know is refused there, with its JSON path, the value and the names
/// accepted.
@Suite struct UnknownLogSettingAtLoadTests {
    /// The configuration of `fixture` with `server` as its server object.
    static func load(_ fixture: ServiceFixture, server: String) throws -> ServiceState {
        var object = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: fixture.configurationFile)) as? [String: Any])
        object["server"] = try JSONSerialization.jsonObject(with: Data(server.utf8))
        try JSONSerialization.data(withJSONObject: object).write(to: fixture.configurationFile)
        return try fixture.load()
    }

    @Test(arguments: [
        ("logLevel", #""verbose""#, "« verbose »", "trace, debug, info, notice, warning, error, critical"),
        ("logLevel", #""INFO""#, "« INFO »", "trace, debug, info, notice, warning, error, critical"),
        ("logFormat", #""xml""#, "« xml »", "text, json"),
        ("logFormat", "1", "type inattendu", "texte attendu"),
    ])
    func anUnknownNameIsRefusedAtLoadNamingTheAcceptedOnes(
        key: String, json: String, value: String, names: String
    )
        throws
    {
        let fixture = try ServiceFixture()
        defer { fixture.remove() }
        let error = try #require(throws: ConfigurationError.self) {
            try Self.load(fixture, server: #"{"\#(key)": \#(json)}"#)
        }
        #expect(error.path == "server.\(key)", "\(error)")
        #expect(error.message.contains(value) && error.message.contains(names), "\(error)")
    }

    @Test func everyNameAcceptedLoads() throws {
        let fixture = try ServiceFixture()
        defer { fixture.remove() }
        for level in ["trace", "debug", "info", "notice", "warning", "error", "critical"] {
            for format in ["text", "json"] {
                let state = try Self.load(fixture, server: #"{"logLevel": "\#(level)", "logFormat": "\#(format)"}"#)
                #expect("\(state.serverSettings.logLevel)" == level)
                #expect("\(state.serverSettings.logFormat)" == format)
            }
        }
    }
}

import AttestationConfiguration
import AttestationService
import Foundation
import TestSupport
import Testing

/// A form removed from formsDirectory while links pinned to it exist (issue 38): each route
/// answered 500 while /healthz said ok. The person gets a French message that the link's form is
/// no longer installed (503: unavailable here until it comes back), /healthz says degraded and
/// names the form, and putting the file back mends both at the next reload.
@Suite struct RemovedFormTests {
    @Test func aLinkWhoseFormWasRemovedGets503AndHealthzNamesTheForm() throws {
        let walk = try CalendarWalkTests.Walk()
        let forms = walk.site.scratch.url.appendingPathComponent("forms")
        try FileManager.default.createDirectory(at: forms, withIntermediateDirectories: true)
        var json = try builtInJSONObject("deplacement-2020-11-28")
        json["id"] = "formulaire-local"
        let file = forms.appendingPathComponent("local.json")
        try jsonData(json).write(to: file)
        let config = URL(fileURLWithPath: walk.site.config)
        #expect(
            walk.service.reload(trigger: "test") { () throws(ConfigurationError) in
                try ServiceSnapshot.load(configurationFile: config)
            })
        let token = try walk.token(
            reasons: ["travail"], formID: "formulaire-local", issued: instant("2020-11-28T08:00:00Z"))
        let now = "2020-11-28T10:00"
        #expect(walk.get("/attestation.pdf", at: now, ["t": token]).status == 200)

        try FileManager.default.removeItem(at: file)
        #expect(
            walk.service.reload(trigger: "test") { () throws(ConfigurationError) in
                try ServiceSnapshot.load(configurationFile: config)
            })
        for route in ["/attestation.pdf", "/attestation.png", "/attestation-papier.pdf", "/api/v1/link"] {
            let answer = walk.get(route, at: now, ["t": token])
            #expect(answer.status == 503, "\(route): \(answer.status)")
            let text = String(decoding: answer.body, as: UTF8.self)
            #expect(text.contains("n’est plus installé sur ce serveur"), "\(route): \(text)")
        }
        let health = walk.get("/healthz", at: now, [:])
        let body = try #require(try JSONSerialization.jsonObject(with: Data(health.body)) as? [String: Any])
        #expect(body["status"] as? String == "degraded")
        #expect(body["reason"] as? String == "forms_missing")
        #expect(body["missingForms"] as? [String] == ["formulaire-local"])

        try jsonData(json).write(to: file)
        #expect(
            walk.service.reload(trigger: "test") { () throws(ConfigurationError) in
                try ServiceSnapshot.load(configurationFile: config)
            })
        #expect(String(decoding: walk.get("/healthz", at: now, [:]).body, as: UTF8.self) == "{\"status\":\"ok\"}\n")
        #expect(walk.get("/attestation.pdf", at: now, ["t": token]).status == 200)
    }
}

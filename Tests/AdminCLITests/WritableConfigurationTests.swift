import Foundation
import TestSupport
import Testing

/// Under umask 000, `init` wrote config.json and revoked.txt as 0666, and the server took a
/// configuration anyone could rewrite with their own key (issue 38). The admin writes them for
/// their owner only whatever the umask, and the server refuses one others may write, as sshd's
/// StrictModes does.
@Suite struct WritableConfigurationTests {
    static func mode(_ path: String) throws -> Int {
        try #require(
            ((try FileManager.default.attributesOfItem(atPath: path))[.posixPermissions] as? NSNumber)?.intValue)
    }

    @Test func initAndRevokeUnderUmask000WriteFilesOnlyTheirOwnerMayWrite() throws {
        let scratch = try Scratch()
        let admin = Tool.admin.path
        let created = try Tool.external(
            "sh", ["-c", "umask 000 && exec \(admin) init --base-url https://attestation.example.org"], in: scratch.url)
        #expect(created.status == 0, "\(created.stderr)")
        #expect(try Self.mode(scratch.path("config.json")) == 0o644)
        #expect(try Self.mode(scratch.path("revoked.txt")) == 0o644)
        #expect(try Self.mode(scratch.path("keys")) == 0o700)
        #expect(try Self.mode(scratch.path("keys/k1.key")) == 0o600)
        let check = try Tool.run(Tool.server, ["--config", scratch.path("config.json"), "--check-config"])
        #expect(check.status == 0, "\(check.stderr)")

        // revoke rewrites the list under umask 000 for its owner only; a list others may write
        // it refuses, as the server does, rather than write it back loosened.
        let revoked = try Tool.external(
            "sh", ["-c", "umask 000 && exec \(admin) revoke AAAAAAAAAAAAAAAA"], in: scratch.url)
        #expect(revoked.status == 0, "\(revoked.stderr)")
        #expect(try Self.mode(scratch.path("revoked.txt")) == 0o644)
        #expect(chmod(scratch.path("revoked.txt"), 0o666) == 0)
        let refused = try Tool.external(
            "sh", ["-c", "umask 000 && exec \(admin) revoke BBBBBBBBBBBBBBBB"], in: scratch.url)
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("fichier modifiable par d’autres que son propriétaire (mode 0666)"))
    }

    @Test(arguments: [("config.json", 0o666), ("config.json", 0o664), ("config.json", 0o646), ("revoked.txt", 0o666)])
    func theServerRefusesAConfigurationOrRevocationListOthersMayWrite(file: String, mode: Int) throws {
        let scratch = try initializedSite()
        #expect(chmod(scratch.path(file), mode_t(mode)) == 0)
        let check = try Tool.run(Tool.server, ["--config", scratch.path("config.json"), "--check-config"])
        #expect(check.status == 78, "\(check.stderr)")
        #expect(
            check.stderr.contains(
                "\(scratch.path(file)) : fichier modifiable par d’autres que son propriétaire (mode 0\(String(mode, radix: 8)))"
            ),
            "\(check.stderr)")
        #expect(check.stderr.contains("chmod go-w \(scratch.path(file))"), "\(check.stderr)")
    }

    @Test func theServerRefusesAConfigurationInAFolderOthersMayWriteUnlessSticky() throws {
        let scratch = try initializedSite()
        #expect(chmod(scratch.url.path, 0o777) == 0)
        let open = try Tool.run(Tool.server, ["--config", scratch.path("config.json"), "--check-config"])
        #expect(open.status == 78)
        #expect(open.stderr.contains("dossier \(scratch.url.path) modifiable par d’autres"), "\(open.stderr)")
        #expect(chmod(scratch.url.path, 0o1777) == 0)
        let sticky = try Tool.run(Tool.server, ["--config", scratch.path("config.json"), "--check-config"])
        #expect(sticky.status == 0, "as /tmp: only a file's owner may replace it: \(sticky.stderr)")
        #expect(chmod(scratch.url.path, 0o755) == 0)
    }
}

import Foundation
import Synchronization
import TestSupport
import Testing

@testable import attestation_server

/// Reloads without signals (`server.reloadOnChange`, on by default): Kubernetes, Docker Compose
/// and config tools change mounted files, often by swapping a symbolic link, and send no SIGHUP.
/// Each test measures how long the change took to apply and prints it; the bound it waits is
/// generous (the machine is shared), the design aims at well under 2 s.
@Suite struct ReloadOnChangeTests {
    /// Polls `probe` until it holds; the seconds it took, or nil after `timeout`.
    private func secondsUntil(timeout: Double = 20, _ probe: () throws -> Bool) rethrows -> Double? {
        let start = Date()
        while Date().timeIntervalSince(start) < timeout {
            if try probe() { return Date().timeIntervalSince(start) }
            usleep(20_000)
        }
        return nil
    }

    /// `attestation-admin revoke` rewrites the list in place (a rename): no signal needed.
    @Test func aRevocationAppliesWithoutASignal() throws {
        let site = try TestSite(server: ["reloadOnChange": true])
        let token = try site.mint(.eloise)
        let server = try ServerProcess(config: site.config)
        #expect(try curl(server.url("/attestation.pdf", token: token)).status == 200)
        try site.revoke(token)
        let delay = try secondsUntil { try curl(server.url("/attestation.pdf", token: token)).status == 410 }
        print(
            "revocation in force \(delay.map { String(format: "%.2f", $0) } ?? "never") s after attestation-admin revoke"
        )
        #expect(delay != nil, "the revocation applied without SIGHUP")
        let reloads = server.logRecords.filter { $0["message"] as? String == "configuration reloaded" }
        #expect(reloads.contains { $0["trigger"] as? String == "file change" }, "\(reloads)")
        server.terminate()
        #expect(server.waitForExit(timeout: 20) == 0)
    }

    /// A ConfigMap volume as the kubelet writes it: the files are links through `..data`, a link
    /// to a timestamped directory; an update writes a new directory and renames a new `..data`
    /// link over the old one, then removes the old directory.
    @Test func aKubernetesStyleSwapIsSeen() throws {
        let site = try TestSite(server: ["reloadOnChange": true])
        let token = try site.mint(.eloise)
        let kept = try site.mint(.maxime)
        let manager = FileManager.default
        let mount = site.scratch.url.appendingPathComponent("mount")
        let first = mount.appendingPathComponent("..2026_11_23_10_00_00.000000001")
        try manager.createDirectory(at: first, withIntermediateDirectories: true)
        for name in ["config.json", "revoked.txt"] {
            try manager.copyItem(
                at: site.scratch.url.appendingPathComponent(name), to: first.appendingPathComponent(name))
        }
        try rewriteRelativePaths(in: first.appendingPathComponent("config.json"), site: site)
        try manager.createSymbolicLink(
            atPath: mount.appendingPathComponent("..data").path, withDestinationPath: first.lastPathComponent)
        for name in ["config.json", "revoked.txt"] {
            try manager.createSymbolicLink(
                atPath: mount.appendingPathComponent(name).path, withDestinationPath: "..data/\(name)")
        }
        let server = try ServerProcess(config: mount.appendingPathComponent("config.json").path)
        #expect(try curl(server.url("/attestation.pdf", token: token)).status == 200)

        // The update: the new revocation list in a new directory, then the swap.
        try site.revoke(token)
        let second = mount.appendingPathComponent("..2026_11_23_10_05_00.000000002")
        try manager.createDirectory(at: second, withIntermediateDirectories: true)
        try manager.copyItem(
            at: first.appendingPathComponent("config.json"), to: second.appendingPathComponent("config.json"))
        try manager.copyItem(
            at: site.scratch.url.appendingPathComponent("revoked.txt"), to: second.appendingPathComponent("revoked.txt")
        )
        try manager.createSymbolicLink(
            atPath: mount.appendingPathComponent("..data_tmp").path, withDestinationPath: second.lastPathComponent)
        let swapped = Date()
        #expect(
            rename(mount.appendingPathComponent("..data_tmp").path, mount.appendingPathComponent("..data").path) == 0)
        try manager.removeItem(at: first)

        let delay = try secondsUntil { try curl(server.url("/attestation.pdf", token: token)).status == 410 }
        print(
            "Kubernetes-style swap in force \(delay.map { String(format: "%.2f", $0) } ?? "never") s after the rename "
                + "(\(String(format: "%.2f", Date().timeIntervalSince(swapped))) s measured to the end of the poll)")
        #expect(delay != nil, "the swapped revocation list applied without SIGHUP")
        #expect(try curl(server.url("/attestation.pdf", token: kept)).status == 200)
        #expect(try curl(server.baseURL + "/healthz").json()["status"] as? String == "ok")
        server.terminate()
        #expect(server.waitForExit(timeout: 20) == 0)
    }

    /// A tool that truncates then writes: the empty moment is refused (the revocations stay),
    /// the whole file then applies and the server is healthy again.
    @Test func aFileWrittenInTwoStepsNeverOpensAGap() throws {
        let site = try TestSite(server: ["reloadOnChange": true])
        let revoked = try site.mint(.yasmine)
        try site.revoke(revoked)
        let server = try ServerProcess(config: site.config)
        let list = site.scratch.url.appendingPathComponent("revoked.txt")
        let good = try Data(contentsOf: list)
        let handle = try FileHandle(forWritingTo: list)
        try handle.truncate(atOffset: 0)
        try handle.close()
        let degraded = try secondsUntil {
            try curl(server.baseURL + "/healthz").json()["status"] as? String == "degraded"
        }
        #expect(degraded != nil, "the empty list was seen and refused")
        #expect(try curl(server.url("/attestation.pdf", token: revoked)).status == 410)
        let writer = try FileHandle(forWritingTo: list)
        try writer.write(contentsOf: good)
        try writer.close()
        let recovered = try secondsUntil { try curl(server.baseURL + "/healthz").json()["status"] as? String == "ok" }
        #expect(recovered != nil)
        #expect(try curl(server.url("/attestation.pdf", token: revoked)).status == 410)
        server.terminate()
        #expect(server.waitForExit(timeout: 20) == 0)
    }

    /// Issue 29, item 2: a list rewritten every 0.15 s (a sync tool, revocations back to back)
    /// raised events faster than the watcher's quiet time, and nothing was reloaded until the
    /// writes stopped: a revocation took 12 s. Now it applies within 2 s of being written however
    /// busy the list, and a list that does not load shows on `/healthz` within 2 s too, plus the
    /// time the server's own reloads took on this machine (`duration_ms` of its log, a few
    /// hundredths of a second on an idle machine): under the address sanitizer with three builds
    /// beside it, a reload took seconds, and no watcher can beat the reload it waits for.
    @Test func aRevocationAppliesWithinTwoSecondsWhileTheListIsRewrittenEvery150Milliseconds() throws {
        let site = try TestSite(server: ["reloadOnChange": true])
        let token = try site.mint(.eloise)
        let list = site.scratch.url.appendingPathComponent("revoked.txt")
        let good = try String(contentsOf: list, encoding: .utf8)
        try site.revoke(token)
        let revoked = try String(contentsOf: list, encoding: .utf8)
        try good.write(to: list, atomically: true, encoding: .utf8)
        let server = try ServerProcess(config: site.config)
        #expect(try curl(server.url("/attestation.pdf", token: token)).status == 200)

        let writer = ListRewriter(list: list, content: good)
        writer.start()
        defer { writer.stop() }
        usleep(1_500_000)
        let revocationWritten = try #require(writer.switchTo(revoked))
        let applied = try secondsUntil(timeout: 10) {
            try curl(server.url("/attestation.pdf", token: token)).status == 410
        }
        let delay = applied.map { _ in Date().timeIntervalSince(revocationWritten) }
        print(
            "revocation in force \(delay.map { String(format: "%.2f", $0) } ?? "never") s after it was written, "
                + "the list rewritten every 0.15 s (\(writer.rewrites) rewrites)")
        /// 2 s, plus twice the longest reload the server logged so far (one under way when the
        /// revocation was written, then the one that reads it).
        func bound() -> Double {
            let reloads = server.logRecords.filter { ($0["message"] as? String) == "configuration reloaded" }
            let durations = reloads.compactMap { record in
                (record["duration_ms"] as? String).flatMap(Double.init) ?? (record["duration_ms"] as? Double)
            }
            let longest = durations.max() ?? 0
            return 2 + 2 * longest / 1000
        }
        #expect(
            delay.map { $0 < bound() } == true,
            "in force \(delay.map { String(format: "%.2f", $0) } ?? "never") s after (bound \(bound()) s)")

        // A list that does not load, still rewritten every 0.15 s: /healthz says so.
        let brokenWritten = try #require(writer.switchTo(revoked + "pas un identifiant\n"))
        _ = try secondsUntil(timeout: 10) {
            try curl(server.baseURL + "/healthz").json()["status"] as? String == "degraded"
        }
        let noticed = Date().timeIntervalSince(brokenWritten)
        print(String(format: "broken list reported degraded %.2f s after it was written", noticed))
        #expect(noticed < bound(), "degraded \(String(format: "%.2f", noticed)) s after the broken list was written")
        #expect(try curl(server.url("/attestation.pdf", token: token)).status == 410)
        let fixedWritten = try #require(writer.switchTo(revoked))
        _ = try secondsUntil(timeout: 10) {
            try curl(server.baseURL + "/healthz").json()["status"] as? String == "ok"
        }
        let recovered = Date().timeIntervalSince(fixedWritten)
        #expect(recovered < bound(), "ok again \(String(format: "%.2f", recovered)) s after the list was mended")
        writer.stop()
        server.terminate()
        #expect(server.waitForExit(timeout: 20) == 0)
    }

    /// The forms directory (`formsDirectory`) is watched too: a form dropped in it is served,
    /// and a change to it applies, without a signal.
    @Test func aFormAddedToTheFormsDirectoryOrChangedThereIsServedWithoutASignal() throws {
        let site = try TestSite(server: ["reloadOnChange": true])
        let forms = site.scratch.url.appendingPathComponent("forms")
        try FileManager.default.createDirectory(at: forms, withIntermediateDirectories: true)
        let server = try ServerProcess(config: site.config)
        func served() throws -> [String: String] {
            let list = try curl(server.baseURL + "/api/v1/forms").json()["forms"] as? [[String: Any]] ?? []
            return Dictionary(
                list.compactMap { form in (form["id"] as? String).map { ($0, form["name"] as? String ?? "") } },
                uniquingKeysWith: { first, _ in first })
        }
        #expect(try served()["formulaire-depose"] == nil)

        let builtIn = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(
                "Sources/FormSchema/Forms/deplacement-2020-11-28.json")
        var form = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: builtIn)) as? [String: Any])
        // Written beside, then renamed in: the server never reads half a file.
        func install(name: String) throws {
            form["id"] = "formulaire-depose"
            form["name"] = name
            let written = site.scratch.url.appendingPathComponent("formulaire-depose.json")
            try JSONSerialization.data(withJSONObject: form).write(to: written)
            #expect(rename(written.path, forms.appendingPathComponent("formulaire-depose.json").path) == 0)
        }
        try install(name: "Formulaire déposé")
        let added = try secondsUntil { try served()["formulaire-depose"] == "Formulaire déposé" }
        print("form added, served \(added.map { String(format: "%.2f", $0) } ?? "never") s after it was dropped")
        #expect(added != nil, "the new form is served without SIGHUP")

        try install(name: "Formulaire déposé, corrigé")
        let changed = try secondsUntil { try served()["formulaire-depose"] == "Formulaire déposé, corrigé" }
        #expect(changed != nil, "the changed form is served without SIGHUP")
        let reloads = server.logRecords.filter { $0["message"] as? String == "configuration reloaded" }
        #expect(reloads.allSatisfy { $0["trigger"] as? String == "file change" }, "\(reloads)")
        server.terminate()
        #expect(server.waitForExit(timeout: 20) == 0)
    }

    /// Every `fallbackInterval` (30 s in the server) the watcher compares the files without an
    /// event: here a release's `current` link swapped in a directory it does not watch (it
    /// watches where the paths and their links' final targets are), which raises no event. The
    /// watcher alone, with a short interval, so that no test waits 30 s.
    @Test func aChangeThatRaisesNoEventIsFoundByThePeriodicCheck() throws {
        let scratch = try Scratch(prefix: "watcher")
        let manager = FileManager.default
        for release in ["v1", "v2"] {
            try manager.createDirectory(atPath: scratch.path("releases/\(release)"), withIntermediateDirectories: true)
            try Data("# \(release)\n".utf8).write(
                to: URL(fileURLWithPath: scratch.path("releases/\(release)/revoked.txt")))
        }
        try manager.createDirectory(atPath: scratch.path("etc"), withIntermediateDirectories: true)
        try manager.createSymbolicLink(atPath: scratch.path("current"), withDestinationPath: "releases/v1")
        try manager.createSymbolicLink(
            atPath: scratch.path("etc/revoked.txt"), withDestinationPath: "../current/revoked.txt")
        let list = scratch.path("etc/revoked.txt")
        #expect(
            ConfigurationWatcher.directories(for: [list]) == [scratch.path("etc"), scratch.path("releases/v1")],
            "the directory of the swap is not watched")

        let changes = ChangeCount()
        let made = ConfigurationWatcher(
            paths: { [list] }, settle: .milliseconds(50), fallbackInterval: .milliseconds(200),
            onChange: { changes.count.add(1, ordering: .relaxed) })
        let watcher = try #require(made, "inotify_init1 failed: \(errno)")
        watcher.start()
        defer { watcher.stop() }
        try manager.createSymbolicLink(atPath: scratch.path("current.new"), withDestinationPath: "releases/v2")
        #expect(rename(scratch.path("current.new"), scratch.path("current")) == 0)
        #expect(try String(contentsOfFile: list, encoding: .utf8) == "# v2\n")
        let seen = secondsUntil { changes.count.load(ordering: .relaxed) > 0 }
        print("swap without an event seen \(seen.map { String(format: "%.2f", $0) } ?? "never") s after it")
        #expect(seen != nil, "the periodic check found the swapped list")
    }

    /// Off, only SIGHUP reloads: an administrator editing several files applies them together.
    @Test func offOnlyASignalReloads() throws {
        let site = try TestSite(server: ["reloadOnChange": false])
        let token = try site.mint(.eloise)
        let server = try ServerProcess(config: site.config)
        try site.revoke(token)
        usleep(2_500_000)
        #expect(try curl(server.url("/attestation.pdf", token: token)).status == 200, "not applied before the signal")
        #expect(server.reload())
        #expect(try curl(server.url("/attestation.pdf", token: token)).status == 410)
        server.terminate()
        #expect(server.waitForExit(timeout: 20) == 0)
    }

    /// The mounted copy names the site and the keys of the original directory.
    private func rewriteRelativePaths(in file: URL, site: TestSite) throws {
        var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        var server = object["server"] as? [String: Any] ?? [:]
        server["publicDirectory"] = site.scratch.path("site")
        object["server"] = server
        object["signingKey"] = site.scratch.path("keys/k1.key")
        try JSONSerialization.data(withJSONObject: object).write(to: file)
    }
}

/// Rewrites a revocation list every 0.15 s, as a sync tool would: its content and a comment
/// that changes each time, written beside then renamed into place.
private final class ListRewriter: Sendable {
    private struct State {
        var content: String
        /// When the content last set was first written.
        var written: Date?
        var rewrites = 0
        var stopped = false
    }
    private let list: URL
    private let state: Mutex<State>

    init(list: URL, content: String) {
        self.list = list
        state = Mutex(State(content: content))
    }

    var rewrites: Int { state.withLock { $0.rewrites } }

    func start() {
        Thread { [self] in
            while true {
                let (content, count, stopped) = state.withLock { ($0.content, $0.rewrites, $0.stopped) }
                if stopped { return }
                let beside = list.deletingLastPathComponent().appendingPathComponent(".revoked.txt.new")
                try? (content + "# réécriture \(count)\n").write(to: beside, atomically: false, encoding: .utf8)
                rename(beside.path, list.path)
                state.withLock { state in
                    state.rewrites += 1
                    if state.written == nil, state.content == content { state.written = Date() }
                }
                usleep(150_000)
            }
        }.start()
    }

    /// Sets the content and waits until it has been written; when it was.
    func switchTo(_ content: String) -> Date? {
        state.withLock {
            $0.content = content
            $0.written = nil
        }
        for _ in 0..<1000 {
            if let written = state.withLock({ $0.written }) { return written }
            usleep(10_000)
        }
        return nil
    }

    func stop() {
        state.withLock { $0.stopped = true }
    }
}

/// How many times a watcher asked for a reload.
private final class ChangeCount: Sendable {
    let count = Atomic<Int>(0)
}

import Foundation
import Synchronization
import TestSupport
import Testing

/// Many clients at once, and a stop in the middle of them; one at a time, each with its own
/// server, so that they do not slow each other down.
@Suite(.serialized) struct LoadTests {
    /// 200 people, a distinct name each: "Alixaaa Martinaaa", "Alixaab Martinaab"…
    static func people(_ count: Int) -> [Person] {
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        return (0..<count).map { i in
            let suffix = String([letters[i / 676 % 26], letters[i / 26 % 26], letters[i % 26]])
            return Person(
                firstName: "Alix" + suffix, lastName: "Martin" + suffix,
                birthDate: String(format: "%02d/%02d/%04d", i % 28 + 1, i % 12 + 1, 1940 + i % 60),
                birthPlace: "Ville" + suffix, address: "\(i + 1) rue du Test" + suffix, zip: "75011", city: "Paris")
        }
    }

    @Test func twoHundredPeopleAtOnceEachGetTheirOwnAttestation() throws {
        let site = try TestSite(server: ["maxConnectionsPerAddress": 1000, "maxConnections": 2000])
        let people = Self.people(200)
        // A version whose QR code holds the place of birth, which the check below reads.
        let tokens = try site.mintCSV(people, form: "deplacement-2021-03-23-couvre-feu")
        let server = try ServerProcess(config: site.config)
        let scratch = try Scratch(prefix: "server-load")

        var config = ""
        for (index, token) in tokens.enumerated() {
            config +=
                "url = \"\(server.url("/attestation.pdf", token: token))\"\noutput = \"\(scratch.path("p\(index).pdf"))\"\n"
        }
        let configFile = try write(Data(config.utf8), to: "curl.conf", in: scratch)
        let start = Date()
        let r = try Tool.external(
            "curl",
            [
                "-sS", "--parallel", "--parallel-immediate", "--parallel-max", "200", "--max-time", "60", "-K",
                configFile,
                "-w", "%{http_code} %{exitcode} %{num_connects} %{content_type} %{filename_effective}\\n",
            ], timeout: 120)
        let elapsed = Date().timeIntervalSince(start)
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.count == 200, "\(r.stderr)")
        let failed = lines.filter { !$0.hasPrefix("200 0 ") || !$0.contains("application/pdf") }
        #expect(failed.isEmpty, "\(failed.count) of 200 failed: \(failed.prefix(5)) \(r.stderr.prefix(500))")
        #expect(
            lines.filter { $0.hasPrefix("200 0 1 ") }.count == 200,
            "each request on a connection of its own, all at once")
        print("200 concurrent PDFs in \(String(format: "%.2f", elapsed)) s")

        // Each document is its person's: the name in the text of all 200, the QR code of a sample.
        let mismatches = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: people.count) { index in
            let person = people[index]
            let text = (try? Tool.external("pdftotext", [scratch.path("p\(index).pdf"), "-"]))?.stdout ?? ""
            let others = [people[(index + 1) % people.count], people[(index + 199) % people.count]]
            if !text.contains(person.firstName) || !text.contains(person.lastName) || !text.contains(person.address)
                || others.contains(where: { text.contains($0.lastName) })
            {
                mismatches.withLock { $0.append("p\(index).pdf text is not \(person.firstName) \(person.lastName)'s") }
            }
        }
        let sample = Array(stride(from: 0, to: people.count, by: 8)) + [199]
        DispatchQueue.concurrentPerform(iterations: sample.count) { n in
            let index = sample[n]
            let person = people[index]
            let file = scratch.path("p\(index).pdf")
            let payload = (try? decodedQRCodes(in: file, scratch: scratch, pages: 2...2, resolution: 100))?.first
            let qr = payload.flatMap { try? QRFields($0) }
            if qr?["Nom"] != person.lastName || qr?["Prenom"] != person.firstName
                || qr?["Naissance"] != "\(person.birthDate) a \(person.birthPlace)"
            {
                mismatches.withLock {
                    $0.append("p\(index).pdf QR code: \(payload ?? "unreadable") for \(person.lastName)")
                }
            }
        }
        let found = mismatches.withLock { $0 }
        #expect(found.count == 0, "documents not their person's: \(found.prefix(5))")

        server.terminate()
        #expect(server.waitForExit(timeout: 20) == 0, "\(server.logText.suffix(3000))")
        expectLogHoldsNoSecrets(server.logText, secrets: site.secrets.withLock { $0 })
        #expect(server.requests(route: "/attestation.pdf", status: 200).count == 200)
    }

    /// SIGTERM while 50 clients ask for documents one after another: every response is whole,
    /// requests after the stop find the port closed, and the server exits 0. A load balancer's
    /// probe on a kept-alive connection gets 200 before the stop, 503 during it.
    ///
    /// Nothing depends on the machine's speed. The probe is answered before the load starts (the
    /// curl probe it replaces, started with the load, once first connected after the stop had
    /// closed the port: its 5,000 requests were all refused). The stop comes once 150 documents
    /// are answered. The probe's last request is sent half before the stop and finished once the
    /// port is closed, so the server reads it while it drains (a probe between two requests at
    /// that moment is closed as idle, and sees no 503). The shutdown timeout leaves the requests
    /// in flight all the time they need.
    @Test func sigtermUnderLoadFinishesTheRequestsInFlight() throws {
        let shutdownTimeout = 120
        let site = try TestSite(server: [
            "maxConnectionsPerAddress": 0, "shutdownTimeout": shutdownTimeout, "connectionTimeout": 120,
        ])
        let people = Self.people(5)
        let tokens = try site.mintCSV(people)
        let server = try ServerProcess(config: site.config)
        let scratch = try Scratch(prefix: "server-stop")
        let curlPath = try Tool.externalPath("curl")

        let probe = try RawConnection(port: server.port, readLimitSeconds: 120)
        let healthz = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        try probe.send(healthz + "\r\n")
        #expect(probe.readResponse()?.status == 200, "/healthz before the load")

        let clients = 50
        let requestsEach = 40
        var running: [RunningProcess] = []
        for client in 0..<clients {
            var arguments = [
                "-sS", "--max-time", "120", "-w", "%{http_code} %{exitcode} %{size_download} %{filename_effective}\\n",
            ]
            for request in 0..<requestsEach {
                let token = tokens[(client + request) % tokens.count]
                // Every fifth a large PNG, slower to make.
                let url =
                    request % 5 == 4
                    ? server.url("/attestation.png", token: token, "size=4096")
                    : server.url("/attestation.pdf", token: token, "offset=-\(request % 30)")
                arguments += [url, "-o", scratch.path("c\(client)-\(request)" + (request % 5 == 4 ? ".png" : ".pdf"))]
            }
            running.append(try RunningProcess(curlPath, arguments))
        }
        // Under way: a good number of documents already sent.
        func answered() -> Int {
            server.requests(route: "/attestation.pdf", status: 200).count
                + server.requests(route: "/attestation.png", status: 200).count
        }
        let deadline = Date().addingTimeInterval(120)
        while answered() < 150, Date() < deadline { usleep(20_000) }
        try probe.send(healthz + "\r\n")
        #expect(probe.readResponse()?.status == 200, "/healthz under load")
        try probe.send(healthz)
        let answeredBeforeStop = answered()
        let stopped = Date()
        server.terminate()
        // The port closes once the stop has begun, /healthz already saying 503.
        var portClosed = false
        while !portClosed, Date().timeIntervalSince(stopped) < 60 {
            portClosed = try curl(server.baseURL + "/healthz", timeout: 10).curlExit == 7
            if !portClosed { usleep(10_000) }
        }
        #expect(portClosed, "the port closes once the stop begins")
        try probe.send("\r\n")
        let (drainingBytes, probeClosed) = probe.readToEnd()
        let draining = RawResponse.all(in: drainingBytes)
        #expect(draining.map(\.status) == [503], "/healthz says 503 while the server drains")
        #expect(draining.first?.header("Connection") == "close")
        #expect(probeClosed, "then the server closes the probe's connection")
        let status = server.waitForExit(timeout: Double(shutdownTimeout + 10))
        let stopDuration = Date().timeIntervalSince(stopped)
        let results = running.map { $0.wait(timeout: 300) }

        var complete = 0
        var refused = 0
        var closedBeforeRead = 0
        var failures: [String] = []
        for result in results {
            for line in result.stdout.split(separator: "\n") {
                let fields = line.split(separator: " ")
                guard fields.count == 4 else {
                    failures.append(String(line))
                    continue
                }
                let (code, exit, size, file) = (fields[0], fields[1], Int(fields[2]) ?? -1, String(fields[3]))
                if code == "200", exit == "0" {
                    let data = (try? Data(contentsOf: URL(fileURLWithPath: file))) ?? Data()
                    let whole =
                        file.hasSuffix(".pdf")
                        ? data.starts(with: Data("%PDF-".utf8))
                            && String(decoding: data.suffix(16), as: UTF8.self).contains("%%EOF")
                        : data.starts(with: [0x89, 0x50, 0x4E, 0x47])
                            && data.suffix(12).starts(with: [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44])
                    if whole && data.count == size {
                        complete += 1
                    } else {
                        failures.append("\(line): incomplete document")
                    }
                } else if code == "000", exit == "7" {
                    refused += 1
                } else if code == "000", exit == "56", size == 0 {
                    // The stop closed this client's kept-alive connection as idle (nothing of a
                    // request read) while the client's next request was on its way: nothing was
                    // received, and RFC 9112 §9.3.1 leaves the retry to the client, which curl
                    // does not make. Seen once in a fresh clone's Debian 13 run (libmicrohttpd
                    // 1.0.1). A request the server had read would be answered, or logged as
                    // unfinished (checked below); a client has one such connection at most.
                    closedBeforeRead += 1
                } else {
                    failures.append("\(line)")
                }
            }
        }
        print(
            "SIGTERM after \(answeredBeforeStop) answers: \(complete) complete, \(refused) refused after the stop, \(closedBeforeRead) closed before being read, \(failures.count) failed; stopped in \(String(format: "%.2f", stopDuration)) s"
        )
        #expect(
            status == 0,
            "the server exits 0 after SIGTERM (\(status.map(String.init) ?? "still running")): \(server.logText.suffix(3000))"
        )
        #expect(failures.isEmpty, "\(failures.count) requests cut or failed: \(failures.prefix(8))")
        #expect(closedBeforeRead <= clients, "at most one request per client met its idle connection's close")
        #expect(
            complete + refused + closedBeforeRead + failures.count == clients * requestsEach, "one result per request")
        #expect(complete >= 150, "the load was under way")
        #expect(refused > 0, "the stop came while requests were still being made")
        let messages = server.logRecords.compactMap { $0["message"] as? String }
        #expect(
            !messages.contains { $0.contains("unfinished") },
            "no request left unfinished: \(server.logText.suffix(1000))")
        #expect(messages.contains { $0.hasPrefix("stopping") } && messages.contains("stopped"))
    }
}

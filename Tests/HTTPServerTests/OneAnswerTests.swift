import Foundation
import TestSupport
import Testing

@testable import HTTPServer

/// Issue 22, item 4: requests that libmicrohttpd 0.9.75 (Debian 12) read otherwise than RFC 9112,
/// replayed with raw bytes. On every libmicrohttpd each gets one refusal (or, where 0.9.75 would
/// answer twice, none: the connection is dropped), the connection closed, and no handler call.
@Suite struct OneAnswerTests {
    typealias SeenPaths = HTTPHardeningTests.SeenPaths

    /// Status lines in what the server sent: a response whose head came twice counts twice,
    /// where `RawResponse.all` would read the second head as the first one's body.
    static func statusLines(_ bytes: [UInt8]) -> [Int] {
        let text = String(decoding: bytes, as: UTF8.self)
        return text.components(separatedBy: "HTTP/1.1 ").dropFirst().compactMap { Int($0.prefix(3)) }
    }

    static func exchange(_ port: Int, _ request: [UInt8]) throws -> (statuses: [Int], closed: Bool) {
        let connection = try RawConnection(port: port)
        try connection.send(request)
        let (bytes, closed) = connection.readToEnd()
        return (statusLines(bytes), closed)
    }

    /// 0.9.75 took the line `: x` for the end of the headers and the bytes after it for a second
    /// request: `/first` and `/second` were both answered.
    @Test func aHeaderLineWithAnEmptyNameNeverStartsASecondRequest() throws {
        let seen = SeenPaths()
        let server = try HTTPServer(configuration: HTTPServerConfiguration.forTests(), handler: seen.handler)
        defer { server.stop(gracePeriod: 1) }
        for line in [": x", ":x", ":  ", ": x: y"] {
            let request = "GET /first HTTP/1.1\r\nHost: a\r\n\(line)\r\n\r\nGET /second HTTP/1.1\r\nHost: a\r\n\r\n"
            let (statuses, closed) = try Self.exchange(server.port, Array(request.utf8))
            #expect(statuses == [400], "\(line.debugDescription)")
            #expect(closed, "\(line.debugDescription)")
        }
        #expect(seen.all.isEmpty)
    }

    /// Issue 29, item 1: a line of a colon and a bare LF (`:\n`) is as long as the blank line
    /// that ends a head, and 0.9.75 took it for one: the bytes after it were served as a second
    /// request, past any Content-Length or Transfer-Encoding after it. Both were answered 200.
    @Test func aColonAndABareLineFeedNeverStartASecondRequest() throws {
        let seen = SeenPaths()
        let server = try HTTPServer(configuration: HTTPServerConfiguration.forTests(), handler: seen.handler)
        defer { server.stop(gracePeriod: 1) }
        let second = "GET /second HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        for head in [
            "GET /first HTTP/1.1\r\nHost: x\r\n:\n", "GET /first HTTP/1.1\r\nHost: x\r\nX-A: b\r\n:\n",
            "GET /first HTTP/1.0\r\nX-A: b\r\n:\n", "GET /first HTTP/1.1\r\nHost: x\r\n: \n",
            "GET /first HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n:\n",
        ] {
            let (statuses, closed) = try Self.exchange(server.port, Array((head + second).utf8))
            #expect(statuses == [400], "\(head.debugDescription)")
            #expect(closed, "\(head.debugDescription)")
        }
        // Sent in two parts, the second after the first has been read.
        let connection = try RawConnection(port: server.port)
        try connection.send("GET /first HTTP/1.1\r\nHost: x\r\n")
        usleep(100_000)
        try connection.send(":\n" + second)
        let (bytes, closed) = connection.readToEnd()
        #expect(Self.statusLines(bytes) == [400])
        #expect(closed)
        #expect(seen.all.isEmpty, "\(seen.all)")
    }

    /// A line that ends in LF alone: 0.9.75 read it as CRLF, where other parsers may not (the
    /// strictest level of 1.0 refuses it too). Then nothing tells `\r\n:\n` from `\r\n\r\n`.
    @Test func aBareLineFeedIsRefused() throws {
        let seen = SeenPaths()
        let server = try HTTPServer(configuration: HTTPServerConfiguration.forTests(), handler: seen.handler)
        defer { server.stop(gracePeriod: 1) }
        for request in [
            "GET /a HTTP/1.1\nHost: a\n\n", "GET /a HTTP/1.1\r\nHost: a\n\r\n", "GET /a HTTP/1.1\r\nHost: a\r\n\n",
            "GET /a HTTP/1.1\nHost: a\r\n\r\n", "GET /a HTTP/1.0\n\n",
        ] {
            let (statuses, closed) = try Self.exchange(server.port, Array(request.utf8))
            #expect(statuses == [400], "\(request.debugDescription)")
            #expect(closed, "\(request.debugDescription)")
        }
        #expect(seen.all.isEmpty)
    }

    /// What the layout check must not refuse: empty values, spaces around a value, no headers
    /// at all in HTTP/1.0, many headers.
    @Test func wellFormedHeadsOfEveryShapeAreServed() throws {
        let seen = SeenPaths()
        let server = try HTTPServer(configuration: HTTPServerConfiguration.forTests(), handler: seen.handler)
        defer { server.stop(gracePeriod: 1) }
        let many = (0..<40).map { "X-H\($0): v\($0)\r\n" }.joined()
        for request in [
            "GET /plain HTTP/1.1\r\nHost: a\r\n\r\n", "GET /empty HTTP/1.1\r\nHost: a\r\nX-Empty:\r\n\r\n",
            "GET /spaces HTTP/1.1\r\nHost:   a   \r\nX-Tab:\tb\t\r\nX-Blank:   \r\n\r\n", "GET /bare HTTP/1.0\r\n\r\n",
            "GET /many HTTP/1.1\r\n\(many)Host: a\r\n\r\n", "GET /query?x=1&y=%41 HTTP/1.1\r\nHost: a\r\n\r\n",
            "GET /enc%41d HTTP/1.1\r\nHost: a\r\n\r\n",
        ] {
            let connection = try RawConnection(port: server.port)
            try connection.send(request)
            #expect(connection.readResponse()?.status == 200, "\(request.debugDescription)")
        }
        #expect(seen.all == ["/plain", "/empty", "/spaces", "/bare", "/many", "/query", "/encAd"])
    }

    /// A raw NUL in the target ended it for 0.9.75: `/metrics\0/x` was served as `/metrics`,
    /// and the parameters after it were never checked. Now one 400; libmicrohttpd 1.0 closes
    /// the connection by itself without an answer.
    @Test func aRawNulInTheTargetIsRefused() throws {
        let seen = SeenPaths()
        let server = try HTTPServer(configuration: HTTPServerConfiguration.forTests(), handler: seen.handler)
        defer { server.stop(gracePeriod: 1) }
        for target in ["/metrics\0/x", "/a?t=1\0&offset=99999", "/a?\0", "/a\0 HTTP/1.1 x"] {
            let (statuses, closed) = try Self.exchange(
                server.port, Array("GET \(target) HTTP/1.1\r\nHost: a\r\n\r\n".utf8))
            #expect(
                statuses == [400] || (HTTPServer.libraryParsesStrictly && statuses.isEmpty),
                "\(target.debugDescription): \(statuses)")
            #expect(closed, "\(target.debugDescription)")
        }
        #expect(seen.all.isEmpty)
    }

    /// Content-Length values libmicrohttpd cannot read, and a Cookie header of more pairs than
    /// its memory holds: 0.9.75 sent its refusal's status line and headers twice before one body.
    /// Now one refusal (libmicrohttpd 1.0) or none, the connection dropped (0.9.75, whose refusal
    /// the server cannot replace); never two, never the handler.
    @Test func framingLibmicrohttpdRefusesItselfGetsAtMostOneAnswer() throws {
        let seen = SeenPaths()
        let server = try HTTPServer(configuration: HTTPServerConfiguration.forTests(), handler: seen.handler)
        defer { server.stop(gracePeriod: 1) }
        let cookie = (0..<3000).map { "a\($0)=b" }.joined(separator: "; ")
        let cases: [(header: String, status: Int)] = [
            ("Content-Length: 0, 5", 400), ("Content-Length: -1", 400), ("Content-Length: 5x", 400),
            ("Content-Length: 99999999999999999999999", 413), ("Cookie: \(cookie)", 431),
        ]
        for (header, status) in cases {
            let request = "GET /h HTTP/1.1\r\nHost: a\r\n\(header)\r\n\r\nGET /second HTTP/1.1\r\nHost: a\r\n\r\n"
            let (statuses, closed) = try Self.exchange(server.port, Array(request.utf8))
            let label = String(header.prefix(40))
            #expect(statuses.count <= 1, "\(label): \(statuses)")
            #expect(statuses.allSatisfy { $0 == status || $0 == 400 }, "\(label): \(statuses)")
            if HTTPServer.libraryParsesStrictly { #expect(statuses.count == 1, "\(label)") }
            #expect(closed, "\(label)")
        }
        #expect(seen.all.isEmpty)
    }

    /// libmicrohttpd's own log lines went out as bare format strings ("HTTP response code is
    /// %u ('%s')"): now with their numbers, and still without the client's bytes.
    @Test func libraryMessagesHaveTheirNumbersAndNoneOfTheClientsBytes() throws {
        let messages = Locked<[String]>([])
        let observer = HTTPServerObserver(libraryMessage: { message in messages.withLock { $0.append(message) } })
        let server = try HTTPServer(
            configuration: HTTPServerConfiguration.forTests(), observer: observer, handler: HTTPServerTests.echo)
        defer { server.stop(gracePeriod: 1) }
        let request = "GET /Dupont HTTP/1.1\r\nHost: a\r\nX-Name: Camille\r\nContent-Length: 5x\r\n\r\n"
        _ = try Self.exchange(server.port, Array(request.utf8))
        // The client may see the connection dropped before the messages after the drop are in.
        let expected = HTTPServer.libraryParsesStrictly ? 1 : 3
        for _ in 0..<200 where messages.withLock({ $0.count < expected }) { usleep(10_000) }
        let logged = messages.withLock { $0 }
        #expect(!logged.isEmpty)
        for message in logged {
            #expect(!message.contains("%"), "\(message)")
            #expect(
                !message.contains("Dupont") && !message.contains("Camille") && !message.contains("5x"), "\(message)")
        }
        if !HTTPServer.libraryParsesStrictly {
            #expect(logged.contains { $0.contains("HTTP response code is 400 ('…')") }, "\(logged)")
            #expect(logged.contains { $0.contains("Connection dropped") }, "\(logged)")
        }
    }

    /// RFC 9112 §3.2.2: a server must accept a target in absolute form; it got 404.
    @Test func aTargetInAbsoluteFormIsServedAsItsPath() throws {
        let seen = SeenPaths()
        let server = try HTTPServer(configuration: HTTPServerConfiguration.forTests(), handler: seen.handler)
        defer { server.stop(gracePeriod: 1) }
        for target in ["http://a/healthz", "HTTP://a:8080/api/v1/forms?x=1", "https://a", "/plain"] {
            let connection = try RawConnection(port: server.port)
            try connection.send("GET \(target) HTTP/1.1\r\nHost: a\r\n\r\n")
            #expect(connection.readResponse()?.status == 200, "\(target)")
        }
        #expect(seen.all == ["/healthz", "/api/v1/forms", "/", "/plain"])
    }
}

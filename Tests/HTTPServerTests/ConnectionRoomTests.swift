import Foundation
import TestSupport
import Testing

@testable import HTTPServer

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 22, item 2: idle connections that fill `maxConnections` must give way to new ones.
/// The connection timeout is a minute, far longer than any read here: on the old server, the new
/// client waited for that minute, and its read (limited to 10 s) came back empty.
@Suite struct ConnectionRoomTests {
    static func waitForOpen(_ server: HTTPServer, _ count: Int) {
        for _ in 0..<1000 where server.openConnections < count { usleep(2000) }
    }

    /// `count` connections that send nothing, each open on the server before the next, so that
    /// the first has waited longest; `already` are open before them.
    static func openIdle(_ count: Int, on server: HTTPServer, already: Int = 0) throws -> [RawConnection] {
        var idle: [RawConnection] = []
        for _ in 0..<count {
            idle.append(try RawConnection(port: server.port, readLimitSeconds: 10))
            waitForOpen(server, already + idle.count)
        }
        return idle
    }

    @Test func aNewClientTakesThePlaceOfTheLongestIdleConnection() throws {
        let evictions = Locked(0)
        let server = try HTTPServer(
            configuration: HTTPServerConfiguration.forTests(
                maxConnections: 20, maxConnectionsPerAddress: 0, connectionTimeout: 60),
            observer: HTTPServerObserver(connectionEvicted: { evictions.withLock { $0 += 1 } }),
            handler: HTTPServerTests.echo)
        defer { server.stop(gracePeriod: 1) }
        let idle = try Self.openIdle(20, on: server)
        #expect(server.openConnections == 20)

        let client = try RawConnection(port: server.port, readLimitSeconds: 10)
        try client.send("GET /good HTTP/1.1\r\nHost: a\r\n\r\n")
        let answer = client.readResponse()
        #expect(answer?.status == 200)
        #expect(answer?.text.contains("path=/good") == true)
        #expect(evictions.withLock { $0 } == 1)
        // The first opened has waited longest: it is the one closed, with nothing sent.
        let (bytes, closed) = idle[0].readToEnd()
        #expect(bytes.isEmpty && closed)
        #expect(server.openConnections <= 20)
    }

    /// A kept-alive client between two requests waited less than the idle ones opened before:
    /// it keeps its connection when a newcomer needs room.
    @Test func aConnectionThatJustGotItsAnswerIsNotTheOneClosed() throws {
        let server = try HTTPServer(
            configuration: HTTPServerConfiguration.forTests(
                maxConnections: 10, maxConnectionsPerAddress: 0, connectionTimeout: 60),
            handler: HTTPServerTests.echo)
        defer { server.stop(gracePeriod: 1) }
        // Held open for the whole test: they fill the table.
        let idle = try Self.openIdle(9, on: server)
        defer { withExtendedLifetime(idle) {} }
        let regular = try RawConnection(port: server.port, readLimitSeconds: 10)
        try regular.send("GET /first HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(regular.readResponse()?.status == 200)
        for round in 0..<3 {
            // The server counts a request out once it has re-armed its connection for the next
            // one: waiting for that, the newcomer always finds the regular waiting again, and the
            // test no longer depends on which thread runs first (it caught a mutation 2 runs in 8).
            for _ in 0..<1000 where server.requestsInFlight > 0 { usleep(1000) }
            let newcomer = try RawConnection(port: server.port, readLimitSeconds: 10)
            try newcomer.send("GET /new\(round) HTTP/1.1\r\nHost: a\r\n\r\n")
            #expect(newcomer.readResponse()?.status == 200)
            try regular.send("GET /again\(round) HTTP/1.1\r\nHost: a\r\n\r\n")
            #expect(regular.readResponse()?.status == 200, "round \(round)")
        }
    }

    /// A connection whose request is being handled is never the one given up, whoever waited
    /// longest: here its handler holds until a newcomer has taken the place of an idle one, so
    /// the busy connection is in the table, without a deadline, at the very moment of choosing.
    @Test func aConnectionBeingAnsweredIsNeverTheOneClosed() throws {
        let evicted = Locked(false)
        let observer = HTTPServerObserver(connectionEvicted: {
            evicted.withLock { $0 = true }
            evicted.broadcast()
        })
        let server = try HTTPServer(
            configuration: HTTPServerConfiguration.forTests(
                threads: 1, maxConnections: 10, maxConnectionsPerAddress: 0, connectionTimeout: 60),
            observer: observer,
            handler: { request in
                if request.path == "/busy" {
                    evicted.wait(until: .now + .seconds(20), for: { $0 }, then: { _ in })
                }
                return HTTPServerTests.echo(request)
            })
        defer { server.stop(gracePeriod: 1) }
        // Opened first: of all, it has waited longest for its request. The others are part-way
        // through their headers (no idle one to give up first), read by the server before the
        // busy request holds its only worker.
        let busy = try RawConnection(port: server.port, readLimitSeconds: 20)
        Self.waitForOpen(server, 1)
        let slow = try Self.openIdle(9, on: server, already: 1)
        defer { withExtendedLifetime(slow) {} }
        for connection in slow { try connection.send("GET /slow HTTP/1.1\r\n") }
        usleep(200_000)
        try busy.send("GET /busy HTTP/1.1\r\nHost: a\r\n\r\n")
        for _ in 0..<1000 where server.requestsInFlight < 1 { usleep(2000) }
        let newcomer = try RawConnection(port: server.port, readLimitSeconds: 20)
        try newcomer.send("GET /new HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(busy.readResponse()?.text.contains("path=/busy") == true)
        #expect(newcomer.readResponse()?.status == 200)
        let (bytes, closed) = slow[0].readToEnd()
        #expect(bytes.isEmpty && closed)
    }

    /// A client part-way through its headers is busier than an idle one opened after it: the
    /// idle one goes first.
    @Test func anIdleConnectionGoesBeforeOneSendingItsHeaders() throws {
        let server = try HTTPServer(
            configuration: HTTPServerConfiguration.forTests(
                maxConnections: 5, maxConnectionsPerAddress: 0, connectionTimeout: 60),
            handler: HTTPServerTests.echo)
        defer { server.stop(gracePeriod: 1) }
        let sending = try RawConnection(port: server.port, readLimitSeconds: 10)
        try sending.send("GET /sending HTTP/1.1\r\n")
        Self.waitForOpen(server, 1)
        let idle = try Self.openIdle(4, on: server, already: 1)
        usleep(100_000)
        let newcomer = try RawConnection(port: server.port, readLimitSeconds: 10)
        try newcomer.send("GET /new HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(newcomer.readResponse()?.status == 200)
        let (bytes, closed) = idle[0].readToEnd()
        #expect(bytes.isEmpty && closed)
        try sending.send("Host: a\r\n\r\n")
        #expect(sending.readResponse()?.text.contains("path=/sending") == true)
    }
}

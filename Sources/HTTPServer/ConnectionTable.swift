import CMicroHTTPD

#if canImport(Glibc)
    import Glibc
#endif

/// The open connections, by socket, with what the server must decide about each without
/// libmicrohttpd's help:
///
/// - Header deadlines. libmicrohttpd's connection timeout counts idle time only: a client
///   sending a byte a second keeps its connection forever, and a few hundred such clients hold
///   every connection. Here each connection gets the same number of seconds to deliver a
///   request's headers, counted from its opening or from the end of its previous response;
///   `sweep` shuts down the socket of any that has not, and libmicrohttpd then closes it as it
///   would a client's hang-up.
/// - Connections per address. libmicrohttpd's own limit logs a line per refused connection
///   (saying, wrongly, that the server is full): one client flooded the log with 129,701 lines in
///   20 s. Here the accept policy refuses quietly and counts; the owner logs the count once per
///   interval. libmicrohttpd's limit stays above this one, as a backstop for connections admitted
///   (by `ConnectionAcceptor`) before the ones just ahead of them have started on their worker.
/// - Idleness, for stopping. A kept-alive connection between requests holds nothing: the stop
///   shuts it down (a client that was just sending sees the close before its request was read,
///   and retries). One whose next request has partly arrived is busy: the stop waits for its
///   response. libmicrohttpd does not tell how much of a request it has read, but the kernel
///   does: bytes received minus bytes queued (`cmhd_consumed_bytes`), compared with the count
///   when the previous response ended.
///
/// - Room when full. At `maxConnections`, a new connection waiting to be accepted takes the place
///   of the one that has waited longest for a request (idle, or slow to send its headers): the
///   table no longer stays full of connections that do nothing until their timeout. 1,100 idle
///   connections from 11 addresses, reopened as they closed, held the table for their 15 s
///   timeout: a good client got 6 answers in 40 s (issue 22).
///
/// An entry leaves before libmicrohttpd closes its socket (the close notification comes first
/// and takes the lock that `sweep` holds), so a descriptor shut down here is always still that
/// connection's.
final class ConnectionTable: Sendable {
    struct Entry {
        /// The peer's address, as counted for the per-address limit.
        var address: String?
        /// When the headers of the next request must be in; nil while a request is being handled.
        var deadline: ContinuousClock.Instant?
        /// The deadline was moved once already for this request (bytes unread at the first one).
        var deadlineMoved = false
        /// Bytes the server had read from the socket when it started waiting for a request.
        var consumedWhenArmed: Int64
        /// libmicrohttpd's connection, and the worker thread that serves it (the only one that
        /// may ask libmicrohttpd about it).
        var connection: OpaquePointer?
        var thread: pthread_t
        /// Shut down to make room (`evictLongestWaiting`), not yet closed by libmicrohttpd.
        var evicted = false
    }

    struct State {
        var entries: [Int32: Entry] = [:]
        var perAddress: [String: Int] = [:]
        /// Connections refused at accept, for the next report.
        var refusals = ReportedCount()
        /// Set by `beginDraining`: idle connections are shut down as soon as they are seen.
        var draining = false
        /// Connections closed to make room, for the next report.
        var evictions = ReportedCount()
    }

    private let headerLimit: Duration
    private let maxPerAddress: Int
    private let state = Locked(State())

    init(headerSeconds: Int, maxPerAddress: Int) {
        headerLimit = .seconds(headerSeconds)
        self.maxPerAddress = maxPerAddress
    }

    // MARK: - Accepting

    /// Whether a connection from that address may open; counts the refusals.
    func admits(_ address: String?) -> Bool {
        guard maxPerAddress > 0, let address else { return true }
        return state.withLock { state in
            if state.perAddress[address, default: 0] < maxPerAddress { return true }
            state.refusals.count += 1
            return false
        }
    }

    /// The connections refused since the previous report, when `interval` has passed since it.
    func refusalsToReport(interval: Duration, now: ContinuousClock.Instant = .now) -> Int? {
        state.withLock { $0.refusals.due(interval: interval, now: now) }
    }

    /// Called on the worker thread that serves the connection.
    func opened(_ socket: Int32, address: String?, connection: OpaquePointer? = nil) {
        guard socket >= 0 else { return }
        let entry = Entry(
            address: address, deadline: ContinuousClock.now + headerLimit,
            consumedWhenArmed: cmhd_consumed_bytes(socket), connection: connection, thread: pthread_self())
        state.withLock { state in
            state.entries[socket] = entry
            if let address { state.perAddress[address, default: 0] += 1 }
        }
    }

    /// Returns whether the connection had been closed to make room (`evictLongestWaiting`).
    @discardableResult
    func closed(_ socket: Int32) -> Bool {
        guard socket >= 0 else { return false }
        let evicted = state.withLock { state -> Bool in
            guard let entry = state.entries.removeValue(forKey: socket) else { return false }
            if let address = entry.address {
                let remaining = state.perAddress[address, default: 1] - 1
                state.perAddress[address] = remaining > 0 ? remaining : nil
            }
            return entry.evicted
        }
        state.broadcast()
        return evicted
    }

    // MARK: - Room

    /// Shuts down the connection that has waited longest for a request's headers (the earliest
    /// deadline), for a new one to take its place: an idle one (nothing of a request read) first,
    /// else one slow with its headers. Never one with bytes the server has not read yet: its
    /// client is sending, the server is behind (stress-fairness saw the good client's new
    /// connections reset so while a churn of idle ones went on). False when every connection is
    /// busy with a request.
    func evictLongestWaiting() -> Bool {
        state.withLock { state in
            var waiting: [(socket: Int32, deadline: ContinuousClock.Instant, consumedWhenArmed: Int64)] = []
            for (socket, entry) in state.entries where !entry.evicted {
                if let deadline = entry.deadline { waiting.append((socket, deadline, entry.consumedWhenArmed)) }
            }
            waiting.sort { $0.deadline < $1.deadline }
            var slow: Int32?
            var chosen: Int32?
            // The oldest few, each costing two system calls: under a flood of new connections the
            // table is all young idle ones, and the first is almost always the one.
            for candidate in waiting.prefix(64) where cmhd_unread_bytes(candidate.socket) == 0 {
                if cmhd_consumed_bytes(candidate.socket) == candidate.consumedWhenArmed {
                    chosen = candidate.socket
                    break
                }
                if slow == nil { slow = candidate.socket }
            }
            guard let socket = chosen ?? slow else { return false }
            Self.shutDown(socket)
            state.entries[socket]?.deadline = nil
            state.entries[socket]?.evicted = true
            state.evictions.count += 1
            return true
        }
    }

    /// The connections evicted since the previous report, when `interval` has passed since it.
    func evictionsToReport(interval: Duration, now: ContinuousClock.Instant = .now) -> Int? {
        state.withLock { $0.evictions.due(interval: interval, now: now) }
    }

    // MARK: - Requests

    /// The connection waits for a request's headers from now.
    func arm(_ socket: Int32) {
        guard socket >= 0 else { return }
        let deadline = ContinuousClock.now + headerLimit
        let consumed = cmhd_consumed_bytes(socket)
        state.withLock { state in
            state.entries[socket]?.deadline = deadline
            state.entries[socket]?.deadlineMoved = false
            state.entries[socket]?.consumedWhenArmed = consumed
        }
        state.broadcast()
    }

    /// The headers are in.
    func disarm(_ socket: Int32) {
        guard socket >= 0 else { return }
        state.withLock { $0.entries[socket]?.deadline = nil }
    }

    /// Shuts down the sockets past their deadline and, once draining, the idle ones; returns
    /// how many. A socket with bytes the server has not read yet is given more time, once: then
    /// the server is behind, not the client. Not twice: a client trickling a byte a second,
    /// read a little late each time by a busy server, would have bytes unread at every sweep and
    /// keep its connection for good (stress-hostile's slowloris kept 16 of 100 past 11 s).
    @discardableResult
    func sweep(now: ContinuousClock.Instant = .now) -> Int {
        state.withLock { state in
            var closed = 0
            for (socket, entry) in state.entries {
                guard let deadline = entry.deadline else { continue }
                if state.draining, Self.isIdle(socket, entry) {
                    Self.shutDown(socket)
                    state.entries[socket]?.deadline = nil
                    closed += 1
                } else if deadline <= now {
                    if !entry.deadlineMoved, cmhd_unread_bytes(socket) > 0 {
                        state.entries[socket]?.deadline = now + headerLimit
                        state.entries[socket]?.deadlineMoved = true
                    } else {
                        Self.shutDown(socket)
                        state.entries[socket]?.deadline = nil
                        closed += 1
                    }
                }
            }
            return closed
        }
    }

    /// Shuts down the connection of the calling worker thread whose request's headers are in
    /// but not yet handed to `Callbacks.access`: the one libmicrohttpd 0.9.75 is refusing by
    /// itself as it parses them (see `Callbacks.libraryMessage`). On a worker thread, no other
    /// connection is in that state at that moment: libmicrohttpd goes from the parsed headers
    /// to `access` without returning to its loop. Returns how many (0 or 1).
    func dropRefusedTwice() -> Int {
        let thread = pthread_self()
        return state.withLock { state in
            var dropped = 0
            for (socket, entry) in state.entries
            where entry.deadline != nil && pthread_equal(entry.thread, thread) != 0 {
                guard let connection = entry.connection, cmhd_request_header_size(connection) > 0 else { continue }
                Self.shutDown(socket)
                state.entries[socket]?.deadline = nil
                dropped += 1
            }
            return dropped
        }
    }

    /// The connection of the calling worker thread still reading a request's head of more than
    /// `minimum` bytes (read from its socket since it began waiting), the largest if several:
    /// the one libmicrohttpd 0.9.75 found no room for (see `DirectAnswer`). Taken out of the
    /// sweep, the caller answers and shuts it down.
    func takeOversizedHead(minimum: Int64) -> Int32? {
        let thread = pthread_self()
        return state.withLock { state in
            var chosen: (socket: Int32, read: Int64)?
            for (socket, entry) in state.entries
            where entry.deadline != nil && pthread_equal(entry.thread, thread) != 0 {
                let read = cmhd_consumed_bytes(socket) - entry.consumedWhenArmed
                if read > minimum, read > chosen?.read ?? 0 { chosen = (socket, read) }
            }
            if let chosen { state.entries[chosen.socket]?.deadline = nil }
            return chosen?.socket
        }
    }

    // MARK: - Stopping

    /// From now on idle connections are shut down (now, and by every later `sweep`).
    func beginDraining() {
        state.withLock { $0.draining = true }
        sweep()
    }

    /// Waits until every connection is closed or the deadline passes; returns how many are still
    /// open then, each with a request under way.
    func waitUntilClosed(deadline: ContinuousClock.Instant) -> Int {
        state.wait(until: deadline, for: { $0.entries.isEmpty }, then: { $0.entries.count })
    }

    /// Waiting for a request, with nothing of it read or queued.
    private static func isIdle(_ socket: Int32, _ entry: Entry) -> Bool {
        let consumed = cmhd_consumed_bytes(socket)
        return consumed >= 0 && consumed == entry.consumedWhenArmed && cmhd_unread_bytes(socket) == 0
    }

    /// Both directions: libmicrohttpd's next read sees the end and closes the connection. A
    /// failure means the socket is already shut down or reset, which ends it all the same.
    private static func shutDown(_ socket: Int32) {
        _ = shutdown(socket, Int32(SHUT_RDWR))
    }
}

/// Events counted between two log reports, at most one report per interval.
struct ReportedCount {
    var count = 0
    var lastReport = ContinuousClock.now

    /// The count since the previous report, when `interval` has passed since it (and it is not 0).
    mutating func due(interval: Duration, now: ContinuousClock.Instant) -> Int? {
        guard now - lastReport >= interval else { return nil }
        lastReport = now
        defer { count = 0 }
        return count > 0 ? count : nil
    }
}

import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// libmicrohttpd's connection timeout counts idle time only: a client sending a byte a second
/// keeps its connection forever, and a few hundred such clients hold every connection. Here each
/// connection gets the same number of seconds to deliver a request's headers, counted from its
/// opening or from the end of its previous response; `sweep` shuts down the socket of any that
/// has not, and libmicrohttpd then closes it as it would a client's hang-up.
final class HeaderDeadlines: Sendable {
    private let limit: Duration
    /// Sockets waiting for a request, by descriptor. An entry leaves before libmicrohttpd closes
    /// its socket (the close notification comes first and takes the lock that `sweep` holds), so
    /// a descriptor shut down here is always still that connection's.
    private let waiting = Mutex<[Int32: ContinuousClock.Instant]>([:])

    init(seconds: Int) {
        limit = .seconds(seconds)
    }

    /// The connection waits for a request's headers from now.
    func arm(_ socket: Int32) {
        guard socket >= 0 else { return }
        let deadline = ContinuousClock.now + limit
        waiting.withLock { $0[socket] = deadline }
    }

    /// The headers are in, or the connection is closing.
    func disarm(_ socket: Int32) {
        guard socket >= 0 else { return }
        _ = waiting.withLock { $0.removeValue(forKey: socket) }
    }

    /// Shuts down the sockets past their deadline and returns how many.
    @discardableResult
    func sweep(now: ContinuousClock.Instant = .now) -> Int {
        waiting.withLock { entries in
            let late = entries.filter { $0.value <= now }.map(\.key)
            for socket in late {
                shutdown(socket, Int32(SHUT_RDWR))
                entries[socket] = nil
            }
            return late.count
        }
    }

    var count: Int { waiting.withLock { $0.count } }
}

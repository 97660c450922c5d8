import CMicroHTTPD
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
    private let waiting = PThreadLocked<[Int32: ContinuousClock.Instant]>([:])

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

    /// Shuts down the sockets past their deadline and returns how many. A socket with bytes the
    /// server has not read yet is given more time: then the server is behind, not the client.
    @discardableResult
    func sweep(now: ContinuousClock.Instant = .now) -> Int {
        waiting.withLock { entries in
            var closed = 0
            for (socket, deadline) in entries where deadline <= now {
                if cmhd_unread_bytes(socket) > 0 {
                    entries[socket] = now + limit
                } else {
                    shutdown(socket, Int32(SHUT_RDWR))
                    entries[socket] = nil
                    closed += 1
                }
            }
            return closed
        }
    }
}

/// A value behind a pthread mutex. Synchronization's `Mutex` is a bare futex on Linux, which the
/// thread sanitizer does not see, so it reports every access it guards as a race.
final class PThreadLocked<Value>: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var value: Value

    init(_ value: Value) {
        self.value = value
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}

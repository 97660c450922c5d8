import CMicroHTTPD
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Accepts the connections on the listening socket, on a thread of its own, and hands each
/// (MHD_add_connection) to the daemon that carries the fewest (`WorkerLoad`); each daemon has
/// one worker thread.
///
/// Why not libmicrohttpd's own thread pool: each of its workers watches the listening socket
/// and takes up to ten connections at a time, so a burst of new connections lands mostly on
/// one worker, which then serves them alone, one request after another, while the other waits;
/// and the pool's own hand-over of added connections goes by descriptor number, which other
/// files opened meanwhile make uneven.
///
/// Measured under wrk (2 cores, 2 workers, scripts/stress/bench-server.sh): at 16 connections, some runs
/// served 2,204 PDF/s with p99 10.2 ms, the others 4,320 PDF/s with p99 6.2 ms; at 64,
/// p99 from 21.8 to 31.9 ms over five runs, and one run of 2,318 PDF/s where a single worker
/// had all 64 (its CPU time alone grew); 20 connections opened together all went to one worker
/// in 4 tries of 6. With this acceptor: 4,296 to 4,457 PDF/s at 16 connections over six runs,
/// p99 6.7 to 7.2 ms, both workers equally busy; make bench 4,241 PDF/s p99 7.3 ms at 16,
/// 4,228 PDF/s p99 21.4 ms at 64.
///
/// At `maxConnections`, a connection waiting to be accepted takes the place of the one that has
/// waited longest for a request (`ConnectionTable.evictLongestWaiting`); when every connection
/// is busy with a request, it waits in the kernel's backlog until one closes, as with
/// libmicrohttpd's own accepting.
final class ConnectionAcceptor: Sendable {
    /// A pipe: a byte written to its end `wake.write` wakes the thread, which watches `wake.read`.
    private let wake: (read: Int32, write: Int32)
    private let finished = Locked(false)

    /// Starts accepting on `socket` (non-blocking, listening) for the daemons of `core.workers`.
    /// MHD_add_connection may be called from any thread when the daemon runs its own, with
    /// MHD_USE_ITC (microhttpd.h).
    init(socket: Int32, core: ServerCore) throws(HTTPServerError) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw .startFailed }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        let wake = (read: ends[0], write: ends[1])
        self.wake = wake
        let thread = Thread { [finished] in
            Self.run(socket: socket, wake: wake.read, core: core)
            finished.withLock { $0 = true }
            finished.broadcast()
        }
        thread.name = "http-server.accept"
        thread.start()
    }

    /// Stops accepting and waits until the thread no longer touches the socket or the daemons.
    func stop() {
        var byte: UInt8 = 1
        _ = write(wake.write, &byte, 1)
        finished.wait(until: .now + .seconds(3600), for: { $0 }, then: { _ in })
        closeDiscardingError(wake.read)
        closeDiscardingError(wake.write)
    }

    /// Connections shut down to make room that may be on their way out at once: the server goes
    /// over `maxConnections` by at most this many, for the moments their workers take to close
    /// them (libmicrohttpd's own limit is set above by as many, see `RunningDaemon`).
    static let maxEvicting = 64

    private enum Outcome {
        /// Nothing more waiting.
        case drained
        /// Full, with nothing to evict: every connection is busy with a request.
        case full
        /// The system ran short (descriptors, memory).
        case failed
    }

    private static func run(socket: Int32, wake: Int32, core: ServerCore) {
        var watched = [
            pollfd(fd: socket, events: Int16(POLLIN), revents: 0), pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
        ]
        // Full, or short of descriptors: the listening socket is not watched, only the wake-up,
        // and it is tried again after a pause.
        var pausing = false
        while true {
            watched[0].fd = pausing ? -1 : socket
            watched[0].revents = 0
            _ = poll(&watched, nfds_t(watched.count), pausing ? 10 : -1)
            if watched[1].revents != 0 { return }
            if pausing {
                pausing = false
                continue
            }
            if watched[0].revents == 0 { continue }
            pausing = accept(from: socket, core: core) != .drained
        }
    }

    /// Accepts what is waiting; at the limit, makes room for each first.
    private static func accept(from socket: Int32, core: ServerCore) -> Outcome {
        var first = true
        while true {
            if !core.workers.hasRoom {
                // Only for a connection that is there: poll said so for the first.
                guard first || isWaiting(socket) else { return .drained }
                guard core.workers.evicting < maxEvicting, core.connections.evictLongestWaiting() else { return .full }
                // Counted before the next look at the room: this thread alone looks.
                core.workers.evicted()
                core.observer.connectionEvicted()
            }
            first = false
            var address = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let client = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.accept(socket, $0, &length)
                }
            }
            guard client >= 0 else {
                switch errno {
                case EAGAIN, EWOULDBLOCK: return .drained
                case EINTR, ECONNABORTED, EPROTO: continue
                default:
                    let reason = String(cString: strerror(errno))
                    let message = "Error accepting connection: \(reason)"
                    if core.messages.admits(message) { core.observer.libraryMessage(message) }
                    return .failed
                }
            }
            // Non-blocking: MHD_add_connection makes it so. Closed on exec, as libmicrohttpd's
            // own accepting makes its connections (accept4 is out of Glibc's Swift module).
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            guard let daemon = core.workers.take() else {
                closeDiscardingError(client)
                continue
            }
            // Refused (accept policy, limits) or not: libmicrohttpd closes the socket itself.
            let added = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { MHD_add_connection(daemon, client, $0, length) }
            }
            if added != .YES { core.workers.release(daemon) }
        }
    }

    /// Whether a connection waits on the listening socket.
    private static func isWaiting(_ socket: Int32) -> Bool {
        var watched = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        return poll(&watched, 1, 0) > 0 && watched.revents & Int16(POLLIN) != 0
    }
}

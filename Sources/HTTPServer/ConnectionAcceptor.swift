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
/// Measured under wrk (2 cores, 2 workers, scripts/bench-server): at 16 connections, some runs
/// served 2,204 PDF/s with p99 10.2 ms, the others 4,320 PDF/s with p99 6.2 ms; at 64,
/// p99 from 21.8 to 31.9 ms over five runs, and one run of 2,318 PDF/s where a single worker
/// had all 64 (its CPU time alone grew); 20 connections opened together all went to one worker
/// in 4 tries of 6. With this acceptor: 4,296 to 4,457 PDF/s at 16 connections over six runs,
/// p99 6.7 to 7.2 ms, both workers equally busy; make bench 4,241 PDF/s p99 7.3 ms at 16,
/// 4,228 PDF/s p99 21.4 ms at 64.
///
/// At `maxConnections` it stops accepting, as libmicrohttpd does: the next connections wait in
/// the kernel's backlog until one closes, rather than being accepted and closed at once.
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

    private static func run(socket: Int32, wake: Int32, core: ServerCore) {
        var watched = [
            pollfd(fd: socket, events: Int16(POLLIN), revents: 0), pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
        ]
        // Full: the listening socket is not watched, only the wake-up, again after a pause.
        var pause: Int32 = -1
        while true {
            let full = !core.workers.hasRoom
            watched[0].fd = full ? -1 : socket
            let ready = poll(&watched, nfds_t(watched.count), full ? 10 : pause)
            if ready < 0, errno != EINTR { pause = 10 }
            if watched[1].revents != 0 { return }
            if full || watched[0].revents == 0 { continue }
            pause = accept(from: socket, core: core) ? -1 : 10
        }
    }

    /// Accepts what is waiting, up to the limit; false when the system ran short (descriptors,
    /// memory), so that the loop pauses rather than spins.
    private static func accept(from socket: Int32, core: ServerCore) -> Bool {
        while core.workers.hasRoom {
            var address = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let client = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.accept(socket, $0, &length)
                }
            }
            guard client >= 0 else {
                switch errno {
                case EAGAIN, EWOULDBLOCK: return true
                case EINTR, ECONNABORTED, EPROTO: continue
                default:
                    let reason = String(cString: strerror(errno))
                    let message = "Error accepting connection: \(reason)"
                    if core.messages.admits(message) { core.observer.libraryMessage(message) }
                    return false
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
        return true
    }
}

import CMicroHTTPD

/// The connections each daemon (one worker thread) carries, for `ConnectionAcceptor` to give
/// the next connection to the one with the fewest, and to hold all of them under the server's
/// `maxConnections`. A connection counts from its hand-over, so that a burst of new connections
/// is spread and limited before any of them has started, until libmicrohttpd reports it closed
/// (or refuses it). One it drops for want of memory before starting it stays counted: the limit
/// then errs towards fewer connections.
final class WorkerLoad: Sendable {
    private struct State {
        /// The daemons' addresses, which identify them in libmicrohttpd's notifications.
        var daemons: [UInt] = []
        var connections: [Int] = []
        var total = 0
        var limit = 0
        /// Connections closed to make room and not yet gone (`ConnectionTable`): counted here,
        /// with `total`, so that room is read from one consistent state. Read from two counts
        /// under two locks, a close between the reads showed more room than there was (a burst
        /// of ten idle connections against a limit of four left five open) or less (one more
        /// connection closed than needed).
        var evicting = 0
        /// Where the search for the fewest starts: ties go to each daemon in turn.
        var next = 0
    }

    private let state = Locked(State())

    /// The daemons to share at most `limit` connections between, none carrying any yet.
    func serve(_ daemons: [OpaquePointer], limit: Int) {
        state.withLock {
            $0.daemons = daemons.map { UInt(bitPattern: $0) }
            $0.connections = Array(repeating: 0, count: daemons.count)
            $0.total = 0
            $0.limit = limit
        }
    }

    /// Whether another connection fits under the limit, raised by the connections on their way
    /// out.
    var hasRoom: Bool { state.withLock { $0.total < $0.limit + $0.evicting } }

    /// Connections closed to make room and not yet gone.
    var evicting: Int { state.withLock { $0.evicting } }

    /// One more connection is on its way out, closed to make room.
    func evicted() {
        state.withLock { $0.evicting += 1 }
    }

    /// The daemon for a connection accepted after `hasRoom` said yes, counted as carrying it; nil
    /// before `serve`. No second look at the limit: a connection already accepted is handed over
    /// (libmicrohttpd's own limit is the backstop). Closing it instead reset clients whose request
    /// had arrived: `evicting` can fall between the check and the hand-over (a connection on its
    /// way out leaving), and stress-fairness saw 2 to 7 resets in 40 s.
    func take() -> OpaquePointer? {
        state.withLock { state in
            let count = state.daemons.count
            guard count > 0 else { return nil }
            var chosen = state.next % count
            for step in 1..<max(1, count) {
                let index = (state.next + step) % count
                if state.connections[index] < state.connections[chosen] { chosen = index }
            }
            state.next = chosen + 1
            state.connections[chosen] += 1
            state.total += 1
            return OpaquePointer(bitPattern: state.daemons[chosen])
        }
    }

    /// A connection the daemon refused, or one it carried and closed (`evicted`: one closed to
    /// make room).
    func release(_ daemon: OpaquePointer?, evicted: Bool = false) {
        state.withLock { state in
            if evicted { state.evicting -= 1 }
            guard let daemon else { return }
            let address = UInt(bitPattern: daemon)
            if let index = state.daemons.firstIndex(of: address), state.connections[index] > 0 {
                state.connections[index] -= 1
                state.total -= 1
            }
        }
    }

    /// Connections counted per daemon, in the order given to `serve`.
    var connections: [Int] { state.withLock { $0.connections } }
}

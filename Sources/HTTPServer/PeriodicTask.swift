import Foundation

/// Runs a piece of work every `interval` on a thread of its own until `stop`, which returns once
/// the work can no longer run.
///
/// A plain thread rather than a Dispatch timer: libdispatch's worker threads set their priority
/// (`setpriority`) when they start, a system call that the systemd unit's seccomp filter
/// (`SystemCallFilter=~@resources`) answers by killing the process.
final class PeriodicTask: Sendable {
    private struct State {
        var stopping = false
        var finished = false
    }

    private let state = Locked(State())

    init(name: String, interval: Duration, _ work: @escaping @Sendable () -> Void) {
        let thread = Thread { [state] in
            while true {
                let stopping = state.wait(until: .now + interval, for: { $0.stopping }, then: { $0.stopping })
                if stopping { break }
                work()
            }
            state.withLock { $0.finished = true }
            state.broadcast()
        }
        thread.name = name
        thread.start()
    }

    /// Stops the task and waits for the work in progress, if any, to end.
    func stop() {
        state.withLock { $0.stopping = true }
        state.broadcast()
        state.wait(until: .now + .seconds(3600), for: { $0.finished }, then: { _ in })
    }
}

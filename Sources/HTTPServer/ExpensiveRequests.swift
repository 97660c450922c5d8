import CMicroHTTPD
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Requests the owner marks as expensive (`HTTPServer.init`'s `isExpensive`), handled on threads
/// of their own, at a lower priority, so that they cannot take the workers from cheap ones.
///
/// A worker thread serves all of its daemon's connections in turn: a page image at 300 dpi
/// (37 ms of CPU) handled there held every other request of that worker behind it. Measured on
/// 2 cores with `wrk -c64` on page images at 300 dpi, `/healthz` took a median of 216 ms and at
/// worst 2.6 s (issue 22). Here the worker suspends the connection (MHD_suspend_connection) and
/// hands the request over; one of these threads answers it and resumes the connection, which the
/// worker then sends. At most `threads` run at once, `capacity` more wait; beyond, the owner's
/// 503 with `Retry-After` goes out at once (`HTTPRefusal.Reason.overloaded`). The threads run at
/// nice 10: while a worker has something to do, the scheduler gives it the CPU first.
final class ExpensiveRequests: Sendable {
    private struct Job {
        let request: HTTPRequest
        let connection: UInt
        /// The connection's socket, to see whether its client is still there.
        let socket: Int32
    }

    private struct State {
        var waiting: [Job] = []
        var running = 0
        /// Responses ready, by connection, until the worker takes them on resuming.
        var ready: [UInt: HTTPResponse] = [:]
        var finished = false
        var threadsRunning = 0
    }

    let capacity: Int
    private let handler: HTTPHandler
    private let abandoned: @Sendable (HTTPRequest) -> Void
    private let state = Locked(State())

    /// - Parameter abandoned: called for each request whose client left before it was handled
    ///   (not handled, its connection resumed without an answer, which closes it).
    init(
        threads: Int, capacity: Int, handler: @escaping HTTPHandler,
        abandoned: @escaping @Sendable (HTTPRequest) -> Void = { _ in }
    ) {
        self.capacity = capacity
        self.handler = handler
        self.abandoned = abandoned
        state.withLock { $0.threadsRunning = threads }
        for index in 0..<threads {
            let thread = Thread { [self] in
                Self.lowerPriority()
                run()
            }
            thread.name = "http-server.expensive-\(index)"
            thread.start()
        }
    }

    /// Takes the request on: the caller (`Callbacks.access`, on the connection's worker) has
    /// suspended the connection, and `response(for:)` gives the answer once it is resumed. False
    /// when `capacity` requests already wait, or once stopped: the caller answers itself.
    /// The queue full, the requests in it whose clients left are dropped first (issue 29: one
    /// address kept the queue full of them without holding a single connection).
    func admit(_ request: HTTPRequest, connection: OpaquePointer, socket: Int32, suspend: () -> Void) -> Bool {
        var dropped: [Job] = []
        let admitted = state.withLock { state in
            guard !state.finished else { return false }
            if state.waiting.count >= capacity {
                dropped = state.waiting.filter { Self.clientLeft($0.socket) }
                state.waiting.removeAll { job in dropped.contains { $0.connection == job.connection } }
            }
            guard state.waiting.count < capacity else { return false }
            // Suspended before any thread can take the job, and so resume it.
            suspend()
            state.waiting.append(Job(request: request, connection: UInt(bitPattern: connection), socket: socket))
            return true
        }
        for job in dropped { drop(job) }
        if admitted { state.broadcast() }
        return admitted
    }

    /// Whether the client of a connection waiting for its answer has gone: the end of its stream
    /// (or a reset) is there to read, with no request before it. Bytes waiting (a next request)
    /// or nothing at all: it is there.
    static func clientLeft(_ socket: Int32) -> Bool {
        var byte: UInt8 = 0
        let count = recv(socket, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        return count == 0 || (count < 0 && (errno == ECONNRESET || errno == EPIPE || errno == ENOTCONN))
    }

    /// A request nobody waits for: not handled; its connection resumed with no answer in, which
    /// closes it (`Callbacks.access`).
    private func drop(_ job: Job) {
        abandoned(job.request)
        if let connection = OpaquePointer(bitPattern: job.connection) { MHD_resume_connection(connection) }
    }

    /// The answer for a resumed connection, taken once.
    func response(for connection: OpaquePointer) -> HTTPResponse? {
        state.withLock { $0.ready.removeValue(forKey: UInt(bitPattern: connection)) }
    }

    /// Requests waiting or being handled.
    var pending: Int { state.withLock { $0.waiting.count + $0.running } }

    /// Takes no more requests, answers those still waiting with `stopping` (the owner's 503),
    /// lets the running ones finish, and returns once every connection handed over is resumed
    /// and the threads are gone: libmicrohttpd must not be stopped with a connection suspended
    /// (MHD_stop_daemon aborts the process then).
    func finish(stopping: @escaping (HTTPRequest) -> HTTPResponse) {
        let abandoned = state.withLock { state in
            state.finished = true
            defer { state.waiting = [] }
            return state.waiting
        }
        state.broadcast()
        for job in abandoned {
            state.withLock { $0.ready[job.connection] = stopping(job.request) }
            if let connection = OpaquePointer(bitPattern: job.connection) { MHD_resume_connection(connection) }
        }
        state.wait(until: .now + .seconds(3600), for: { $0.threadsRunning == 0 }, then: { _ in })
    }

    private func run() {
        while true {
            let job: Job? = state.wait(
                until: .now + .seconds(3600), for: { !$0.waiting.isEmpty || $0.finished },
                then: { state in
                    guard !state.waiting.isEmpty else { return nil }
                    state.running += 1
                    return state.waiting.removeFirst()
                })
            guard let job else {
                let done = state.withLock { state -> Bool in
                    guard state.finished else { return false }
                    state.threadsRunning -= 1
                    return true
                }
                if done {
                    state.broadcast()
                    return
                }
                continue
            }
            if Self.clientLeft(job.socket) {
                state.withLock { $0.running -= 1 }
                drop(job)
                state.broadcast()
                continue
            }
            let response = handler(job.request)
            state.withLock { state in
                state.ready[job.connection] = response
                state.running -= 1
            }
            // After the response is in place: the worker may take it as soon as this returns.
            if let connection = OpaquePointer(bitPattern: job.connection) { MHD_resume_connection(connection) }
            state.broadcast()
        }
    }

    /// Nice 10 for the calling thread: on Linux the nice value is each thread's own, and `who` 0
    /// names the calling thread (setpriority(2), BUGS). The scheduler then gives a worker thread
    /// that has work about ten times the CPU of one of these. Lowering one's priority needs no
    /// privilege; a failure leaves the thread at the workers' priority, which only costs fairness.
    private static func lowerPriority() {
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
    }
}

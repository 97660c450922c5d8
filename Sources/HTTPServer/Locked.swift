#if canImport(Glibc)
    import Glibc
#endif

/// The one lock of this module: a value behind a pthread mutex, with a condition to wait on.
///
/// Why not Synchronization's `Mutex`: on Linux (Swift 6.3.1) it is a bare futex that the thread
/// sanitizer does not see, so it reports every access it guards as a race. Measured: four
/// threads adding 10,000 times to a counter inside `Mutex.withLock`, the main thread reading it
/// inside `withLock` too, built with `swiftc -sanitize=thread`: "ThreadSanitizer: data race" and
/// "Swift access race" on the counter. The same program with this lock reports nothing. This
/// module's locks guard what libmicrohttpd's threads share, which `make test-tsan` must check,
/// and `stop` must wait for a condition, which `Mutex` does not offer.
final class Locked<Value: ~Copyable>: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var value: Value

    init(_ value: consuming Value) {
        self.value = value
        // Both calls fail only on bad attributes or exhausted memory; nothing here can run on.
        precondition(pthread_mutex_init(mutex, nil) == 0, "pthread_mutex_init failed")
        var attributes = pthread_condattr_t()
        precondition(pthread_condattr_init(&attributes) == 0, "pthread_condattr_init failed")
        // Deadlines on the monotonic clock: a change of the wall clock must not cut or stretch a wait.
        precondition(pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC) == 0, "pthread_condattr_setclock failed")
        precondition(pthread_cond_init(condition, &attributes) == 0, "pthread_cond_init failed")
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    func withLock<Result: ~Copyable, Failure: Error>(
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }

    /// Wakes every thread in `wait`, to look at the value again.
    func broadcast() {
        pthread_cond_broadcast(condition)
    }

    /// Sleeps until `done` holds (checked under the lock each time `broadcast` is called) or the
    /// deadline passes; returns what `result` says of the value then.
    func wait<Result>(
        until deadline: ContinuousClock.Instant, for done: (borrowing Value) -> Bool,
        then result: (inout Value) -> Result
    ) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while !done(value) {
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else { break }
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            let (seconds, attoseconds) = remaining.components
            let nanoseconds = Int(now.tv_nsec) + Int(attoseconds / 1_000_000_000)
            var until = timespec(
                tv_sec: now.tv_sec + Int(seconds) + nanoseconds / 1_000_000_000,
                tv_nsec: nanoseconds % 1_000_000_000)
            // ETIMEDOUT and spurious wake-ups both lead back to the check above.
            _ = pthread_cond_timedwait(condition, mutex, &until)
        }
        return result(&value)
    }
}

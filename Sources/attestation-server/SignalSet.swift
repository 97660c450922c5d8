#if canImport(Glibc)
    import Glibc
#endif

/// Signals taken out of asynchronous delivery and read one at a time with `sigwait`, so the
/// reaction (reload, stop) runs as ordinary code on the main thread.
struct SignalSet {
    private var set = sigset_t()

    /// Blocks the signals in this thread and in every thread started after.
    static func blocking(_ signals: [Int32]) -> SignalSet {
        var result = SignalSet()
        sigemptyset(&result.set)
        for signal in signals { sigaddset(&result.set, signal) }
        pthread_sigmask(SIG_BLOCK, &result.set, nil)
        return result
    }

    /// Waits for the next of the signals.
    func wait() -> Int32 {
        var set = set
        var received: Int32 = 0
        while sigwait(&set, &received) != 0 {}
        return received
    }
}

/// libmicrohttpd's messages, at a bounded rate: the first of each kind (its format string) in an
/// interval goes out at once, the others are counted and reported once the interval is over, in
/// one line. Some messages come once per hostile request or connection ("Error processing
/// request", "Server reached connection limit"); passed on one by one, a single client could fill
/// the disk with them.
final class MessageThrottle: Sendable {
    private struct Kind {
        var since: ContinuousClock.Instant
        var suppressed = 0
    }

    private let interval: Duration
    private let kinds = Locked<[String: Kind]>([:])

    init(interval: Duration) {
        self.interval = interval
    }

    /// Whether this message goes out now.
    func admits(_ message: String, now: ContinuousClock.Instant = .now) -> Bool {
        kinds.withLock { kinds in
            if var kind = kinds[message], now - kind.since < interval {
                kind.suppressed += 1
                kinds[message] = kind
                return false
            }
            kinds[message] = Kind(since: now)
            return true
        }
    }

    /// The messages held back in intervals now over, with how many times each came; their kinds
    /// start afresh.
    func due(now: ContinuousClock.Instant = .now) -> [(message: String, count: Int)] {
        kinds.withLock { kinds in
            var due: [(message: String, count: Int)] = []
            for (message, kind) in kinds where now - kind.since >= interval {
                if kind.suppressed > 0 { due.append((message, kind.suppressed)) }
                kinds[message] = nil
            }
            return due
        }
    }
}

import Foundation
import Synchronization
import TestSupport
import Testing

@testable import HTTPServer

#if canImport(Glibc)
    import Glibc
#endif

/// libmicrohttpd's repeated messages, through the throttle alone (no clock of its own).
@Suite struct MessageThrottleTests {
    @Test func aRepeatedMessageGoesOutOnceThenAsACount() {
        let throttle = MessageThrottle(interval: .seconds(10))
        let start = ContinuousClock.now
        #expect(throttle.admits("Server reached connection limit.", now: start))
        for second in 1...5 {
            #expect(!throttle.admits("Server reached connection limit.", now: start + .seconds(second)))
        }
        #expect(throttle.admits("Another message.", now: start + .seconds(1)))
        #expect(throttle.due(now: start + .seconds(9)).isEmpty)
        let due = throttle.due(now: start + .seconds(10))
        #expect(due.map(\.message) == ["Server reached connection limit."])
        #expect(due.map(\.count) == [5])
        // A new interval starts with the next one.
        #expect(throttle.admits("Server reached connection limit.", now: start + .seconds(12)))
    }
}

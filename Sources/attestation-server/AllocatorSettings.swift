import CMalloc

// glibc's allocator raises its mmap threshold each time it frees a large mapped block (up to
// 32 MiB). After the first PDF with an embedded font subset or the first page image, blocks of
// that size then come from the heap, whose freed pages the process keeps. Fixing both
// thresholds at glibc's initial 128 KiB keeps such blocks mapped and returned when freed.
// Measured with `scripts/stress/bench-server.sh` (1,000 people, 1 in 40 with a name outside CP1252, the
// server built with --static-swift-stdlib as the container ships it, RSS flat over 40,000
// requests in each case): 40.2–40.8 MB with glibc's defaults, 37.2 MB with these thresholds
// (set through MALLOC_MMAP_THRESHOLD_ and MALLOC_TRIM_THRESHOLD_); once cairo was linked (2.7 MB
// more at start-up), 39.4–39.6 MB with them. Throughput within the machine's noise.

/// The allocator settings of a long-running server, applied before any thread starts.
enum AllocatorSettings {
    static let largeBlockThreshold: Int32 = 128 * 1024

    /// False if glibc refused a setting: the server then runs with its defaults, only larger.
    static func apply() -> Bool {
        mallopt(M_MMAP_THRESHOLD, largeBlockThreshold) == 1 && mallopt(M_TRIM_THRESHOLD, largeBlockThreshold) == 1
    }
}

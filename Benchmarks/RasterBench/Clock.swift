import Glibc

/// Monotonic time in nanoseconds (CLOCK_MONOTONIC: not affected by clock adjustments).
func monotonicNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) &* 1_000_000_000 &+ UInt64(now.tv_nsec)
}

/// Summary of per-frame times.
struct FrameTimes {
    /// Milliseconds per frame, in measurement order.
    private(set) var samples: [Double] = []

    mutating func append(milliseconds: Double) { samples.append(milliseconds) }

    var count: Int { samples.count }

    /// The middle value (mean of the two middle values for an even count).
    var median: Double {
        let sorted = samples.sorted()
        guard !sorted.isEmpty else { return .nan }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// The 95th percentile, nearest-rank definition (the smallest sample ≥ 95 % of all samples).
    var p95: Double {
        let sorted = samples.sorted()
        guard !sorted.isEmpty else { return .nan }
        let rank = Int((0.95 * Double(sorted.count)).rounded(.up))
        return sorted[max(rank, 1) - 1]
    }
}

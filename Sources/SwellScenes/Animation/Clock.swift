#if canImport(Glibc)
    import Glibc
#endif

/// Where frame times come from: the real monotonic clock for a screen, or fixed steps for
/// dumps and tests (frame n is at start + n / fps, exactly, whatever the machine's speed).
public protocol SceneClock {
    /// Seconds since the clock started.
    mutating func now() -> Double
}

/// CLOCK_MONOTONIC, zero at creation (never jumps with the wall clock).
public struct MonotonicClock: SceneClock {
    private let origin: Double

    public init() { origin = Self.raw() }

    static func raw() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) * 1e-9
    }

    public mutating func now() -> Double { Self.raw() - origin }
}

/// Fixed time per frame: each `now()` returns the next frame's time.
public struct SteppedClock: SceneClock {
    public let framesPerSecond: Double
    public private(set) var frame: Int

    public init(framesPerSecond: Double, firstFrame: Int = 0) {
        precondition(framesPerSecond > 0, "frames per second must be positive")
        self.framesPerSecond = framesPerSecond
        self.frame = firstFrame
    }

    /// The time of frame `n` (a product, not a running sum, so no rounding drift).
    public func time(ofFrame n: Int) -> Double { Double(n) / framesPerSecond }

    public mutating func now() -> Double {
        defer { frame += 1 }
        return time(ofFrame: frame)
    }
}

/// Fixed time per frame, for dumps and tests: frame n is at n / fps, exactly, whatever the
/// machine's speed; each `now()` returns the next frame's time. (A screen's frame times come from
/// SwellSystem's `monotonicSeconds()`, through the kiosk loop's clock.)
public struct SteppedClock {
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

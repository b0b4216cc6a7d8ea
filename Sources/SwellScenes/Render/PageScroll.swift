#if canImport(Glibc)
    import Glibc
#endif

/// A page taller than the screen, scrolled by a finger: the content follows the finger while it
/// is down, and after release coasts with UIScrollView's momentum, its speed decaying by 0.998
/// every millisecond (v(t) = v₀·e^{kt}, k = 1000·ln 0.998 ≈ −2 /s), until it falls below 1 px/s.
/// The offset is clamped to the page's ends. Computed from the touches' times alone, so frames
/// are deterministic in time and input.
public struct PageScroll: Equatable, Sendable {
    public static let decelerationPerMillisecond = 0.998
    static let decay = 1000 * log(decelerationPerMillisecond)
    /// Below this speed (px/s) the page has stopped.
    static let restingSpeed = 1.0
    /// A release this long after the last move throws nothing.
    static let throwWindow = 0.1

    /// How far the page is scrolled (px from its top) when no finger is down and it coasts from.
    public private(set) var restingOffset = 0.0
    var finger: Int?
    var grabOffset = 0.0
    var grabY = 0.0
    var last = (y: 0.0, time: 0.0)
    var speed = 0.0
    var releaseTime: Double?

    public init() {}

    public static func == (a: PageScroll, b: PageScroll) -> Bool {
        a.restingOffset == b.restingOffset && a.finger == b.finger && a.speed == b.speed
            && a.releaseTime == b.releaseTime && a.grabY == b.grabY && a.last == b.last
    }

    /// Follows one finger; `limit` is the largest offset (page height − screen height).
    public mutating func handle(_ event: TouchEvent, limit: Double) {
        switch event.phase {
        case .began where finger == nil:
            restingOffset = offset(at: event.time, limit: limit)
            (finger, grabOffset, grabY, last, speed, releaseTime) =
                (event.finger, restingOffset, event.y, (event.y, event.time), 0, nil)
        case .moved where finger == event.finger:
            let dt = event.time - last.time
            if dt > 0 { speed = (last.y - event.y) / dt }
            last = (event.y, event.time)
            restingOffset = clamp(grabOffset + grabY - event.y, limit)
        case .ended where finger == event.finger:
            finger = nil
            if event.time - last.time > Self.throwWindow { speed = 0 }
            releaseTime = event.time
        default: break
        }
    }

    /// The offset at `time`: where the finger holds it, or where the throw has carried it.
    public func offset(at time: Double, limit: Double) -> Double {
        guard finger == nil, let release = releaseTime, abs(speed) > Self.restingSpeed else {
            return clamp(restingOffset, limit)
        }
        let elapsed = min(max(time - release, 0), stopsAfter)
        return clamp(restingOffset + speed * (exp(Self.decay * elapsed) - 1) / Self.decay, limit)
    }

    /// Seconds after release until the speed falls to the resting speed.
    var stopsAfter: Double { log(Self.restingSpeed / abs(speed)) / Self.decay }

    public func isIdle(at time: Double) -> Bool {
        guard finger == nil else { return false }
        guard let release = releaseTime, abs(speed) > Self.restingSpeed else { return true }
        return time >= release + stopsAfter
    }

    private func clamp(_ offset: Double, _ limit: Double) -> Double { min(max(offset, 0), max(limit, 0)) }
}

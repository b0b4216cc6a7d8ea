/// How a value moves from one target to the next: a timing curve over a duration or a spring,
/// optionally repeated (as Core Animation's `repeatCount` / SwiftUI's `repeatForever`).
public struct Animation: Equatable, Sendable {
    public enum Motion: Equatable, Sendable {
        case curve(TimingCurve, duration: Double)
        case spring(Spring)
    }

    public enum Repetition: Equatable, Sendable {
        case once
        /// Runs again and again; with `autoreverses` every other cycle plays backwards.
        case forever(autoreverses: Bool)
    }

    public var motion: Motion
    public var repetition: Repetition

    public init(_ motion: Motion, repetition: Repetition = .once) {
        self.motion = motion
        self.repetition = repetition
    }

    public static func linear(duration: Double) -> Animation { Animation(.curve(.linear, duration: duration)) }
    public static func easeIn(duration: Double) -> Animation { Animation(.curve(.easeIn, duration: duration)) }
    public static func easeOut(duration: Double) -> Animation { Animation(.curve(.easeOut, duration: duration)) }
    public static func easeInOut(duration: Double) -> Animation { Animation(.curve(.easeInOut, duration: duration)) }
    public static func spring(_ spring: Spring) -> Animation { Animation(.spring(spring)) }

    public func repeatForever(autoreverses: Bool = true) -> Animation {
        Animation(motion, repetition: .forever(autoreverses: autoreverses))
    }

    /// The length of one cycle in seconds.
    public var cycleDuration: Double {
        switch motion {
        case .curve(_, let duration): return duration
        case .spring(let spring): return spring.duration
        }
    }

    func progressInCycle(_ t: Double) -> Double {
        switch motion {
        case .curve(let curve, let duration): return duration <= 0 ? 1 : curve.value(at: t / duration)
        case .spring(let spring): return spring.progress(at: t)
        }
    }

    /// Progress (0 at the start, 1 at the end; springs may overshoot) `elapsed` seconds in.
    public func progress(at elapsed: Double) -> Double {
        if elapsed <= 0 { return 0 }
        let cycle = cycleDuration
        switch repetition {
        case .once:
            return elapsed >= cycle ? 1 : progressInCycle(elapsed)
        case .forever(let autoreverses):
            guard cycle > 0, cycle.isFinite else { return progressInCycle(elapsed) }
            let index = (elapsed / cycle).rounded(.down)
            let local = elapsed - index * cycle
            let backwards = autoreverses && Int64(index) % 2 == 1
            return progressInCycle(backwards ? cycle - local : local)
        }
    }

    /// Whether the animation has come to rest `elapsed` seconds in (never, when repeating).
    public func isFinished(at elapsed: Double) -> Bool {
        switch repetition {
        case .once: return elapsed >= cycleDuration
        case .forever: return false
        }
    }
}

/// A `Double` that animates between targets: `value(at:)` is a pure function of time, so a
/// frame at time t looks the same whatever frames were drawn before it.
public struct AnimatedValue: Equatable, Sendable {
    public private(set) var from: Double
    public private(set) var to: Double
    public private(set) var start: Double
    public private(set) var animation: Animation?

    public init(_ value: Double) {
        from = value
        to = value
        start = 0
        animation = nil
    }

    public func value(at time: Double) -> Double {
        guard let animation else { return to }
        let p = animation.progress(at: time - start)
        return from + (to - from) * p
    }

    public func isAnimating(at time: Double) -> Bool {
        guard let animation else { return false }
        return !animation.isFinished(at: time - start)
    }

    /// Starts moving from the value shown at `time` to `target`.
    public mutating func animate(to target: Double, at time: Double, with animation: Animation) {
        from = value(at: time)
        to = target
        start = time
        self.animation = animation
    }

    /// Jumps to `value` with no animation.
    public mutating func set(_ value: Double) {
        from = value
        to = value
        animation = nil
    }
}

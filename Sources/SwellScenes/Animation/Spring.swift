#if canImport(Glibc)
    import Glibc
#endif

/// A damped harmonic oscillator moving progress from 0 to 1, solved in closed form:
/// x = p − 1 obeys x″ + 2ζω·x′ + ω²·x = 0 with x(0) = −1, x′(0) = v₀ (v₀ in progress per second,
/// UIKit's "1 = the whole distance in one second"). Evaluating at any time is exact, so the
/// motion is the same at any frame rate (no integrator to drift).
public struct Spring: Equatable, Sendable {
    /// Undamped angular frequency ω (rad/s).
    public let angularFrequency: Double
    /// ζ: < 1 oscillates, 1 is critical, > 1 creeps.
    public let dampingRatio: Double
    public let initialVelocity: Double
    /// UIKit springs end exactly at their duration (progress is 1 from then on); SwiftUI springs
    /// run until they settle within `settleTolerance`.
    public let duration: Double

    /// How close to rest counts as settled (Core Animation's settling threshold is similar).
    public static let settleTolerance = 0.001

    /// UIKit form (`UIView.animate(withDuration:…usingSpringWithDamping:initialSpringVelocity:)`):
    /// the oscillator is chosen so that its motion dies down to `settleTolerance` exactly at
    /// `duration`, and the animation completes then.
    public init(duration: Double, dampingRatio: Double, initialVelocity: Double) {
        precondition(duration > 0 && dampingRatio > 0, "a spring needs a positive duration and damping ratio")
        // The settling time scales as 1/ω for a fixed ζ and v₀/ω; solve ω by fixed-point iteration
        // on that scaling (converges in a few steps because the dependence on v₀/ω is weak).
        var omega = 10.0
        for _ in 0..<60 {
            let probe = Spring(
                omega: omega, dampingRatio: dampingRatio, initialVelocity: initialVelocity, duration: .infinity)
            let settle = probe.settlingTime()
            let next = omega * settle / duration
            if abs(next - omega) < 1e-12 * omega {
                omega = next
                break
            }
            omega = next
        }
        self.init(omega: omega, dampingRatio: dampingRatio, initialVelocity: initialVelocity, duration: duration)
    }

    /// SwiftUI form (`.spring(response:dampingFraction:)`): stiffness (2π/response)², mass 1.
    public init(response: Double, dampingFraction: Double, initialVelocity: Double = 0) {
        precondition(response > 0 && dampingFraction > 0, "a spring needs a positive response and damping fraction")
        let probe = Spring(
            omega: 2 * Double.pi / response, dampingRatio: dampingFraction, initialVelocity: initialVelocity,
            duration: .infinity)
        self.init(
            omega: probe.angularFrequency, dampingRatio: dampingFraction, initialVelocity: initialVelocity,
            duration: probe.settlingTime())
    }

    init(omega: Double, dampingRatio: Double, initialVelocity: Double, duration: Double) {
        self.angularFrequency = omega
        self.dampingRatio = dampingRatio
        self.initialVelocity = initialVelocity
        self.duration = duration
    }

    /// Displacement from rest x(t) and velocity x′(t) of the free oscillator.
    public func displacement(at t: Double) -> (position: Double, velocity: Double) {
        let w = angularFrequency
        let z = dampingRatio
        let x0 = -1.0
        let v0 = initialVelocity
        if z < 1 {
            let wd = w * (1 - z * z).squareRoot()
            let a = x0
            let b = (v0 + z * w * x0) / wd
            let decay = exp(-z * w * t)
            let c = cos(wd * t)
            let s = sin(wd * t)
            let position = decay * (a * c + b * s)
            let velocity = decay * ((b * wd - z * w * a) * c - (a * wd + z * w * b) * s)
            return (position, velocity)
        } else if z == 1 {
            let b = v0 + w * x0
            let decay = exp(-w * t)
            return (decay * (x0 + b * t), decay * (b - w * (x0 + b * t)))
        } else {
            let root = (z * z - 1).squareRoot()
            let r1 = -w * (z - root)
            let r2 = -w * (z + root)
            let c2 = (v0 - r1 * x0) / (r2 - r1)
            let c1 = x0 - c2
            let e1 = exp(r1 * t)
            let e2 = exp(r2 * t)
            return (c1 * e1 + c2 * e2, c1 * r1 * e1 + c2 * r2 * e2)
        }
    }

    /// Progress at `t` seconds after the start: 0 at the start, 1 at rest (may overshoot).
    public func progress(at t: Double) -> Double {
        if t <= 0 { return 0 }
        if t >= duration { return 1 }
        return 1 + displacement(at: t).position
    }

    /// A bound on |x(t)| that only decreases once past its peak.
    func envelope(at t: Double) -> Double {
        let w = angularFrequency
        let z = dampingRatio
        let v0 = initialVelocity
        if z < 1 {
            let wd = w * (1 - z * z).squareRoot()
            let b = (v0 - z * w) / wd
            return (1 + b * b).squareRoot() * exp(-z * w * t)
        } else if z == 1 {
            return (1 + abs(v0 - w) * t) * exp(-w * t)
        } else {
            let root = (z * z - 1).squareRoot()
            let r1 = -w * (z - root)
            let r2 = -w * (z + root)
            let c2 = (v0 + r1) / (r2 - r1)
            return abs(-1 - c2) * exp(r1 * t) + abs(c2) * exp(r2 * t)
        }
    }

    /// The time after which the envelope stays below `settleTolerance`.
    func settlingTime() -> Double {
        let step = 0.125 / angularFrequency
        var t = 0.0
        // The envelope of a critically or over-damped spring may rise first: walk past its peak.
        while envelope(at: t) >= Self.settleTolerance || envelope(at: t + step) > envelope(at: t) {
            t += step
            if t > 1e6 { return t }
        }
        var low = max(0, t - step)
        var high = t
        if envelope(at: low) < Self.settleTolerance { return low }
        for _ in 0..<60 {
            let mid = (low + high) / 2
            if envelope(at: mid) < Self.settleTolerance { high = mid } else { low = mid }
        }
        return high
    }
}

extension Spring {
    /// The settling time of the free oscillator (for tests of the UIKit duration mapping).
    public var settlingTimeForTesting: Double {
        Spring(
            omega: angularFrequency, dampingRatio: dampingRatio, initialVelocity: initialVelocity, duration: .infinity
        )
        .settlingTime()
    }
}

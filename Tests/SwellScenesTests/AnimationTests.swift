import SwellScenes
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct TimingCurveTests {
    /// An independent solve: bisection on a dense parameter grid of the Bézier's x.
    static func slowValue(_ curve: TimingCurve, _ x: Double) -> Double {
        func coordinate(_ t: Double, _ p1: Double, _ p2: Double) -> Double {
            let u = 1 - t
            return 3 * u * u * t * p1 + 3 * u * t * t * p2 + t * t * t
        }
        var low = 0.0
        var high = 1.0
        for _ in 0..<200 {
            let mid = (low + high) / 2
            if coordinate(mid, curve.x1, curve.x2) < x { low = mid } else { high = mid }
        }
        return coordinate((low + high) / 2, curve.y1, curve.y2)
    }

    @Test func midpointsAndSymmetry() {
        #expect(abs(TimingCurve.easeInOut.value(at: 0.5) - 0.5) < 1e-12)
        #expect(TimingCurve.linear.value(at: 0.3) == 0.3)
        // easeIn and easeOut mirror each other: easeOut(x) = 1 − easeIn(1 − x).
        for x in stride(from: 0.0, through: 1.0, by: 0.05) {
            #expect(abs(TimingCurve.easeOut.value(at: x) - (1 - TimingCurve.easeIn.value(at: 1 - x))) < 1e-12)
        }
        // Known values of CSS/Core Animation ease-in at 0.5 (0.3153…) and ease-out (0.6847…).
        #expect(abs(TimingCurve.easeIn.value(at: 0.5) - 0.315_358) < 1e-5)
        #expect(abs(TimingCurve.easeOut.value(at: 0.5) - 0.684_642) < 1e-5)
    }

    @Test func newtonSolveMatchesBisectionEverywhere() {
        for curve in [TimingCurve.easeIn, .easeOut, .easeInOut, TimingCurve(x1: 0.9, y1: -0.3, x2: 0.1, y2: 1.4)] {
            var previous = -Double.infinity
            for i in 0...1000 {
                let x = Double(i) / 1000
                let value = curve.value(at: x)
                #expect(abs(value - Self.slowValue(curve, x)) < 1e-9, "\(curve) at \(x)")
                if curve.y1 >= 0 && curve.y2 <= 1 {
                    #expect(value >= previous)
                    previous = value
                }
            }
        }
        #expect(TimingCurve.easeInOut.value(at: -1) == 0)
        #expect(TimingCurve.easeInOut.value(at: 2) == 1)
    }

    @Test func repeatForeverWithAndWithoutAutoreverse() {
        let forward = Animation.linear(duration: 2).repeatForever(autoreverses: false)
        #expect(abs(forward.progress(at: 0.5) - 0.25) < 1e-12)
        #expect(abs(forward.progress(at: 2.5) - 0.25) < 1e-12)
        #expect(abs(forward.progress(at: 7.0) - 0.5) < 1e-12)
        let reversing = Animation.easeInOut(duration: 2).repeatForever(autoreverses: true)
        let eased = TimingCurve.easeInOut.value(at: 0.25)
        #expect(abs(reversing.progress(at: 0.5) - eased) < 1e-12)
        #expect(abs(reversing.progress(at: 3.5) - eased) < 1e-12)  // second cycle runs backwards
        #expect(abs(reversing.progress(at: 2.5) - TimingCurve.easeInOut.value(at: 0.75)) < 1e-12)
        #expect(!reversing.isFinished(at: 1e6))
        #expect(Animation.easeIn(duration: 1).isFinished(at: 1))
    }

    @Test func animatedValueRetargetsFromWhatIsShown() {
        var value = AnimatedValue(10)
        value.animate(to: 20, at: 1, with: .linear(duration: 2))
        #expect(value.value(at: 0.5) == 10)
        #expect(abs(value.value(at: 2) - 15) < 1e-12)
        value.animate(to: 0, at: 2, with: .linear(duration: 1))
        #expect(abs(value.value(at: 2) - 15) < 1e-12)
        #expect(abs(value.value(at: 2.5) - 7.5) < 1e-12)
        #expect(value.isAnimating(at: 2.9))
        #expect(!value.isAnimating(at: 3))
        #expect(value.value(at: 10) == 0)
    }
}

@Suite struct SpringTests {
    /// x″ = −2ζω x′ − ω² x integrated with classic RK4 at a fine step.
    static func integrate(_ spring: Spring, until end: Double, step: Double = 1e-5) -> [(t: Double, x: Double)] {
        let w = spring.angularFrequency
        let z = spring.dampingRatio
        func accel(_ x: Double, _ v: Double) -> Double { -2 * z * w * v - w * w * x }
        var x = -1.0
        var v = spring.initialVelocity
        var t = 0.0
        var samples: [(Double, Double)] = [(0, x)]
        let sampleEvery = Int((0.01 / step).rounded())
        var n = 0
        while t < end {
            let k1x = v
            let k1v = accel(x, v)
            let k2x = v + 0.5 * step * k1v
            let k2v = accel(x + 0.5 * step * k1x, v + 0.5 * step * k1v)
            let k3x = v + 0.5 * step * k2v
            let k3v = accel(x + 0.5 * step * k2x, v + 0.5 * step * k2v)
            let k4x = v + step * k3v
            let k4v = accel(x + step * k3x, v + step * k3v)
            x += step / 6 * (k1x + 2 * k2x + 2 * k3x + k4x)
            v += step / 6 * (k1v + 2 * k2v + 2 * k3v + k4v)
            t += step
            n += 1
            if n % sampleEvery == 0 { samples.append((t, x)) }
        }
        return samples
    }

    @Test(arguments: [0.15, 0.5, 0.9, 1.0, 1.7])
    func closedFormMatchesIntegratedODE(damping: Double) {
        let spring = Spring(response: 0.5, dampingFraction: damping, initialVelocity: 3)
        for (t, x) in Self.integrate(spring, until: 1.5) {
            #expect(abs(spring.displacement(at: t).position - x) < 1e-7, "ζ \(damping) at \(t)")
        }
    }

    @Test func swiftUIFormUsesTheResponseAsPeriod() {
        let spring = Spring(response: 0.4, dampingFraction: 0.5)
        #expect(abs(spring.angularFrequency - 2 * Double.pi / 0.4) < 1e-12)
        #expect(spring.progress(at: 0) == 0)
        #expect(spring.progress(at: 0.3) > 1)  // underdamped: overshoots
        #expect(abs(spring.progress(at: spring.duration * 0.999) - 1) < 0.0011)
        #expect(spring.progress(at: spring.duration) == 1)
        let critical = Spring(response: 0.4, dampingFraction: 1)
        for i in 1..<Int(critical.duration * 100) { #expect(critical.progress(at: Double(i) * 0.01) < 1) }
    }

    @Test(arguments: [(0.25, 0.9, 1.5), (0.45, 0.15, 5.5), (0.6, 1.0, 0.0), (1.0, 2.0, 0.0)])
    func uiKitFormSettlesExactlyAtItsDuration(duration: Double, damping: Double, velocity: Double) {
        let spring = Spring(duration: duration, dampingRatio: damping, initialVelocity: velocity)
        #expect(abs(spring.settlingTimeForTesting - duration) < 1e-6 * duration)
        #expect(spring.progress(at: duration) == 1)
        // Initial velocity is in "whole distances per second".
        let h = 1e-7
        #expect(abs(spring.progress(at: h) / h - velocity) < 1e-3 * max(1, velocity) + spring.angularFrequency * 1e-5)
        // Just before the end the motion is within the settle tolerance.
        #expect(abs(spring.progress(at: duration * 0.9999) - 1) <= 0.0011)
    }
}

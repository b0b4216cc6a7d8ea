/// A cubic-Bézier timing curve from (0, 0) to (1, 1) with control points (x1, y1) and (x2, y2),
/// the model Core Animation and SwiftUI use for `linear`, `easeIn`, `easeOut` and `easeInOut`.
///
/// `value(at:)` maps elapsed fraction x to progress y: it solves x(t) = x for the curve
/// parameter t (Newton's method, falling back to bisection where the slope is flat) and
/// returns y(t), so the result matches the curve to ~1e-12, not a lookup table's accuracy.
public struct TimingCurve: Equatable, Sendable {
    public let x1: Double
    public let y1: Double
    public let x2: Double
    public let y2: Double

    /// Control-point x values must lie in 0...1 so x(t) is monotonic and the solve is unique.
    public init(x1: Double, y1: Double, x2: Double, y2: Double) {
        precondition((0...1).contains(x1) && (0...1).contains(x2), "timing-curve x control values must lie in 0...1")
        self.x1 = x1
        self.y1 = y1
        self.x2 = x2
        self.y2 = y2
    }

    public static let linear = TimingCurve(x1: 0, y1: 0, x2: 1, y2: 1)
    public static let easeIn = TimingCurve(x1: 0.42, y1: 0, x2: 1, y2: 1)
    public static let easeOut = TimingCurve(x1: 0, y1: 0, x2: 0.58, y2: 1)
    public static let easeInOut = TimingCurve(x1: 0.42, y1: 0, x2: 0.58, y2: 1)

    /// One coordinate of the Bézier with end values 0 and 1: 3(1−t)²t·p1 + 3(1−t)t²·p2 + t³.
    @inline(__always)
    static func bezier(_ t: Double, _ p1: Double, _ p2: Double) -> Double {
        let u = 1 - t
        return 3 * u * u * t * p1 + 3 * u * t * t * p2 + t * t * t
    }

    @inline(__always)
    static func bezierSlope(_ t: Double, _ p1: Double, _ p2: Double) -> Double {
        let u = 1 - t
        return 3 * u * u * p1 + 6 * u * t * (p2 - p1) + 3 * t * t * (1 - p2)
    }

    /// The curve parameter t with x(t) = x.
    func parameter(forX x: Double) -> Double {
        var t = x
        for _ in 0..<8 {
            let error = Self.bezier(t, x1, x2) - x
            if abs(error) < 1e-14 { return t }
            let slope = Self.bezierSlope(t, x1, x2)
            if abs(slope) < 1e-9 { break }
            t -= error / slope
            if t < 0 || t > 1 { break }
        }
        // Bisection: x(t) is monotonic on 0...1, so this always converges.
        var low = 0.0
        var high = 1.0
        t = x
        for _ in 0..<60 {
            let value = Self.bezier(t, x1, x2)
            if abs(value - x) < 1e-14 { break }
            if value < x { low = t } else { high = t }
            t = (low + high) / 2
        }
        return t
    }

    /// The progress at elapsed fraction `x` (clamped to 0...1).
    public func value(at x: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        if self == .linear { return x }
        return Self.bezier(parameter(forX: x), y1, y2)
    }
}

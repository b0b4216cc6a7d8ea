import SwellDisplay
import SwellService

/// A touch controller's correction: the affine map from where the device says a touch is to
/// where it is on the panel, both normalised to 0...1 across the axis ranges and the panel
/// (before `--rotate`, which is the mounting, not the controller):
///
///     panel x = a·x + b·y + c        panel y = d·x + e·y + f
///
/// The same six numbers, in the same order and space, as libinput's
/// `LIBINPUT_CALIBRATION_MATRIX` udev property, so a calibration made for a desktop (or by
/// `swell touch-test --calibrate`) carries over either way. Touch overlays bought separately from
/// their panel often need one: swapped axes ("0 1 0 1 0 0"), a mirrored axis ("-1 0 1 0 1 0"), or a
/// sensor larger than the visible area. Relative mice are not calibrated (libinput does not either).
public struct TouchCalibration: Sendable, Equatable, CustomStringConvertible {
    public var a, b, c, d, e, f: Double

    public init(_ a: Double, _ b: Double, _ c: Double, _ d: Double, _ e: Double, _ f: Double) {
        (self.a, self.b, self.c, self.d, self.e, self.f) = (a, b, c, d, e, f)
    }

    public static let identity = TouchCalibration(1, 0, 0, 0, 1, 0)

    public var isIdentity: Bool { self == .identity }

    /// Reads six finite numbers separated by commas or spaces, as `description` writes them
    /// ("0,1,0,1,0,0") or libinput's udev property spells them ("0 1 0 1 0 0"); nil otherwise.
    public init?(text: String) {
        let fields = text.split(whereSeparator: { $0 == "," || $0 == " " })
        let numbers = fields.compactMap { Double($0) }.filter(\.isFinite)
        guard fields.count == 6, numbers.count == 6 else { return nil }
        self.init(numbers[0], numbers[1], numbers[2], numbers[3], numbers[4], numbers[5])
    }

    /// Whether it maps the whole touch screen onto a line (no inverse): a bad measurement.
    public var isDegenerate: Bool { abs(a * e - b * d) <= 1e-6 }

    /// The corrected position of a device position (both normalised).
    public func apply(x: Double, y: Double) -> (x: Double, y: Double) {
        (a * x + b * y + c, d * x + e * y + f)
    }

    /// "a,b,c,d,e,f" with six decimals at most, trailing zeros dropped: what `--touch-matrix` takes.
    public var description: String {
        [a, b, c, d, e, f].map(Self.short).joined(separator: ",")
    }

    /// The libinput udev property's spelling, "a b c d e f".
    public var libinputProperty: String {
        [a, b, c, d, e, f].map(Self.short).joined(separator: " ")
    }

    /// The calibration that takes each `measured` device position to its `target` panel
    /// position (both normalised) with the least squared error: at least three taps that do not
    /// lie on one line, else nil.
    public static func fitted(measured: [(x: Double, y: Double)], targets: [(x: Double, y: Double)])
        -> TouchCalibration?
    {
        guard measured.count == targets.count, measured.count >= 3 else { return nil }
        // Normal equations of the least-squares fit, one per output axis, sharing AᵀA with A's
        // rows (x, y, 1).
        var normal = [[Double]](repeating: [0, 0, 0], count: 3)
        var rightX = [0.0, 0, 0]
        var rightY = [0.0, 0, 0]
        for (point, target) in zip(measured, targets) {
            let row = [point.x, point.y, 1]
            for i in 0..<3 {
                for j in 0..<3 { normal[i][j] += row[i] * row[j] }
                rightX[i] += row[i] * target.x
                rightY[i] += row[i] * target.y
            }
        }
        guard let first = solve3(normal, rightX), let second = solve3(normal, rightY) else { return nil }
        return TouchCalibration(first[0], first[1], first[2], second[0], second[1], second[2])
    }

    /// Solves the 3×3 system m·p = r by Cramer's rule; nil when m is (nearly) singular, which for
    /// these normal equations means the taps lie on one line.
    static func solve3(_ m: [[Double]], _ r: [Double]) -> [Double]? {
        func determinant(_ m: [[Double]]) -> Double {
            m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
                + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
        }
        let whole = determinant(m)
        // The entries are sums of products of numbers near 0...1: a determinant this small is a line.
        guard abs(whole) > 1e-9 * max(1, m[2][2] * m[2][2] * m[2][2]) else { return nil }
        return (0..<3).map { column in
            var replaced = m
            for row in 0..<3 { replaced[row][column] = r[row] }
            return determinant(replaced) / whole
        }
    }

    private static func short(_ value: Double) -> String {
        let scaled = (value * 1_000_000).rounded()
        if scaled == 0 { return "0" }
        let sign = scaled < 0 ? "-" : ""
        let magnitude = Int(abs(scaled))
        var fraction = String(magnitude % 1_000_000)
        fraction = String(repeating: "0", count: 6 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return sign + String(magnitude / 1_000_000) + (fraction.isEmpty ? "" : "." + fraction)
    }
}

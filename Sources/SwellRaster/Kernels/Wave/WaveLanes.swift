/// Lane helpers shared by the wave kernels. Minimum, maximum and clamp are written with
/// compares and `replace(with:where:)` because the standard library's `pointwiseMin` and
/// friends compile to long generic sequences (docs: swift-simd notes, pitfall 3).

@inlinable @inline(__always)
func laneMin(_ a: LaneFloats, _ b: LaneFloats) -> LaneFloats {
    var r = a
    r.replace(with: b, where: b .< a)
    return r
}

@inlinable @inline(__always)
func laneMax(_ a: LaneFloats, _ b: LaneFloats) -> LaneFloats {
    var r = a
    r.replace(with: b, where: b .> a)
    return r
}

@inlinable @inline(__always)
func laneClamp01(_ a: LaneFloats) -> LaneFloats {
    laneMin(laneMax(a, LaneFloats(repeating: 0)), LaneFloats(repeating: 1))
}

/// 0, 1, …, 15: the column offset of each lane within a group.
@inlinable @inline(__always)
var laneOffsets: LaneFloats {
    LaneFloats(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
}

/// The mean over t in [0, 1] of clamp(u(t), 0, 1) for u linear from `start` to `end`, per lane.
///
/// This is the fraction of a pixel row covered by the region below a straight boundary
/// across one (sub-)column: with u = (bottom of the row) − y(t), clamp(u, 0, 1) is how much of
/// the row's height at t lies below the boundary. The integral of clamp is piecewise
/// polynomial; it is split as ∫ over [0, 1] of u du plus the length above 1, which keeps
/// every term bounded by the part of [lo, hi] that meets [0, 1], so Float cancellation stays
/// below 1e-4 even where the boundary is far from the row. When the line is nearly flat
/// (|end − start| < 1e-3) the midpoint value is used instead (error < 1.3e-4).
@inlinable @inline(__always)
func meanClampedLine(_ start: LaneFloats, _ end: LaneFloats) -> LaneFloats {
    let one = LaneFloats(repeating: 1)
    let lo = laneMin(start, end)
    let hi = laneMax(start, end)
    let cl = laneClamp01(lo)
    let ch = laneClamp01(hi)
    let inside = (ch - cl) * (ch + cl) * 0.5
    let above = laneMax(hi, one) - laneMax(lo, one)
    let span = hi - lo
    let flat = span .< 1e-3
    var mean = (inside + above) / laneMax(span, LaneFloats(repeating: 1e-3))
    mean.replace(with: laneClamp01((hi + lo) * 0.5), where: flat)
    return laneClamp01(mean)
}

/// x − floor(x), in Double (used once per group or per op, never per pixel).
@inlinable @inline(__always)
func fractionalPart(_ x: Double) -> Double {
    x - x.rounded(.down)
}

/// Converts a finite row bound to Int after clamping it to [low, high].
@inlinable @inline(__always)
func clampedRow(_ value: Float, low: Int, high: Int) -> Int {
    if !(value > Float(low)) { return low }
    if !(value < Float(high)) { return high }
    return Int(value)
}

/// Lane helpers shared by the wave kernels, written without lane masks.
///
/// `replace(with:where:)` and `pointwiseMin` compile to mask round trips and lane extracts in
/// these kernels (measured: 47 % of a stroke frame went to mask shuffling in the row loop), so
/// the hot paths select with integer bit operations instead: the sign bit of a − b, spread over
/// the lane by an arithmetic shift, picks a or b. Exact for finite inputs (and infinities).

@usableFromInline @_transparent
func laneAbs(_ a: LaneFloats) -> LaneFloats {
    unsafeBitCast(unsafeBitCast(a, to: PixelVector.self) & PixelVector(repeating: 0x7FFF_FFFF), to: LaneFloats.self)
}

/// Per lane: a where `selector` is negative, else b.
@usableFromInline @_transparent
func laneSelectNegative(_ selector: LaneFloats, _ a: LaneFloats, _ b: LaneFloats) -> LaneFloats {
    let mask = unsafeBitCast(selector, to: LaneInts.self) &>> 31
    let ai = unsafeBitCast(a, to: LaneInts.self)
    let bi = unsafeBitCast(b, to: LaneInts.self)
    return unsafeBitCast(bi ^ ((ai ^ bi) & mask), to: LaneFloats.self)
}

@usableFromInline @_transparent
func laneMin(_ a: LaneFloats, _ b: LaneFloats) -> LaneFloats {
    laneSelectNegative(a - b, a, b)
}

@usableFromInline @_transparent
func laneMax(_ a: LaneFloats, _ b: LaneFloats) -> LaneFloats {
    laneSelectNegative(a - b, b, a)
}

@usableFromInline @_transparent
func laneClamp01(_ a: LaneFloats) -> LaneFloats {
    laneMin(laneMax(a, LaneFloats(repeating: 0)), LaneFloats(repeating: 1))
}

/// 0, 1, …, 15: the column offset of each lane within a group.
@usableFromInline @_transparent
var laneOffsets: LaneFloats {
    LaneFloats(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
}

/// The mean over t in [0, 1] of clamp(u(t), 0, 1) for u linear from `start` to `end`, per lane.
///
/// This is the fraction of a pixel row covered by the region below a straight boundary
/// across one (sub-)column: with u = (bottom of the row) − y(t), clamp(u, 0, 1) is how much of
/// the row's height at t lies below the boundary. The integral of clamp over [lo, hi] is split
/// as ∫ u du over the part inside [0, 1] plus the length above 1, which keeps every term
/// bounded by the part of [lo, hi] that meets [0, 1], so Float cancellation stays small even
/// where the boundary is far from the row (a line entirely above 1 gives exactly 1, since
/// max(hi, 1) − max(lo, 1) is then the same subtraction as hi − lo). Dividing by (hi − lo + ε)
/// after adding ε·clamp(mid) makes a nearly flat line fall back to its midpoint value without
/// a branch: the bias is at most ε/8 and the rounding error ~1e-7/ε, both ≤ 1e-3 (ε = 1e-4).
@usableFromInline @_transparent
func meanClampedLine(_ start: LaneFloats, _ end: LaneFloats) -> LaneFloats {
    let lo = laneMin(start, end)
    let hi = laneMax(start, end)
    let mid = 0.5 * (start + end)
    let cl = laneClamp01(lo)
    let ch = laneClamp01(hi)
    let inside = (ch - cl) * (ch + cl) * 0.5
    let one = LaneFloats(repeating: 1)
    let above = laneMax(hi, one) - laneMax(lo, one)
    let epsilon: Float = 1e-4
    let mean = (inside + above + epsilon * laneClamp01(mid)) / (hi - lo + epsilon)
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

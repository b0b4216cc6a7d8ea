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

/// The smallest lane: the halves folded with one sign-bit select (8 lanes left), then scalar
/// minima in two chains. `SIMD.min()` is a branchy generic loop of ~150 instructions; a tree of
/// selects over lane swaps (and the SIMD8/4 `replacing(with:where:)` folds) compiled to ~60 xmm
/// instructions with mask moves and horizontal subtracts per reduction, four per stroke group:
/// ~20 % of the stroke kernel. Exact for finite lanes.
@usableFromInline @_transparent
func laneMinimum(_ v: LaneFloats) -> Float {
    let m = laneMin(v, LaneFloats(lowHalf: v.highHalf, highHalf: v.lowHalf))
    let a = scalarMin(scalarMin(m[0], m[2]), scalarMin(m[4], m[6]))
    let b = scalarMin(scalarMin(m[1], m[3]), scalarMin(m[5], m[7]))
    return scalarMin(a, b)
}

/// The largest lane (see `laneMinimum`).
@usableFromInline @_transparent
func laneMaximum(_ v: LaneFloats) -> Float {
    let m = laneMax(v, LaneFloats(lowHalf: v.highHalf, highHalf: v.lowHalf))
    let a = scalarMax(scalarMax(m[0], m[2]), scalarMax(m[4], m[6]))
    let b = scalarMax(scalarMax(m[1], m[3]), scalarMax(m[5], m[7]))
    return scalarMax(a, b)
}

@usableFromInline @_transparent
func scalarMin(_ a: Float, _ b: Float) -> Float { b < a ? b : a }

@usableFromInline @_transparent
func scalarMax(_ a: Float, _ b: Float) -> Float { b > a ? b : a }

/// 0, 1, …, 15: the column offset of each lane within a group.
@usableFromInline @_transparent
var laneOffsets: LaneFloats {
    LaneFloats(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
}

/// The mean over t in [0, 1] of clamp(u(t), 0, 1) for u linear from `start` to `end`, per lane
/// (not clamped to [0, 1]: it may overshoot by rounding, so callers clamp the final coverage).
///
/// This is the fraction of a pixel row covered by the region below a straight boundary
/// across one (sub-)column: with u = (bottom of the row) − y(t), clamp(u, 0, 1) is how much of
/// the row's height at t lies below the boundary. With m = max(u, 0) and c = min(m, 1), an
/// antiderivative of clamp is G(u) = c²/2 + (m − c), and the mean is (G(end) − G(start)) /
/// (end − start), whichever way round the line runs. The two parts are subtracted separately:
/// ½(c₁ − c₀)(c₁ + c₀) vanishes exactly when both ends are beyond the row, and m − c = u − 1 is
/// exact for u ≥ 1, so a line entirely below the row gives exactly the same subtraction as
/// end − start, i.e. 1, however far away it is. Adding ε·(c₀ + c₁)/2 to the numerator and ε
/// (with the sign of end − start) to the denominator turns a nearly flat line into its
/// trapezoid value without a branch: bias ≤ ε/4, rounding ≤ ~1e-7/ε, both ≤ 1e-3 (ε = 1e-4).
@usableFromInline @_transparent
func meanClampedLine(_ start: LaneFloats, _ end: LaneFloats) -> LaneFloats {
    let run = end - start
    return clampedLineIntegral(start, end, run: run) / signedEpsilonRun(run)
}

/// ε = 1e-4 with the sign of `run` (+ε for a run of exactly 0), per lane.
@usableFromInline @_transparent
func signedEpsilon(_ run: LaneFloats) -> LaneFloats {
    let signBit = unsafeBitCast(run, to: PixelVector.self) & PixelVector(repeating: 0x8000_0000)
    return unsafeBitCast(signBit | PixelVector(repeating: (1e-4 as Float).bitPattern), to: LaneFloats.self)
}

/// run + ε(run): the denominator of `meanClampedLine`.
@usableFromInline @_transparent
func signedEpsilonRun(_ run: LaneFloats) -> LaneFloats {
    run + signedEpsilon(run)
}

/// The numerator of `meanClampedLine` for a line from `start` to `end` whose run (end − start)
/// is `run`: multiplied by 1 / signedEpsilonRun(run) it gives the mean clamped value.
@usableFromInline @_transparent
func clampedLineIntegral(_ start: LaneFloats, _ end: LaneFloats, run: LaneFloats) -> LaneFloats {
    let zero = LaneFloats(repeating: 0)
    let one = LaneFloats(repeating: 1)
    let m0 = laneMax(start, zero)
    let m1 = laneMax(end, zero)
    let c0 = laneMin(m0, one)
    let c1 = laneMin(m1, one)
    // Named parts, in the same order of evaluation (Swift 6.2 times out on the whole expression).
    let clampedArea = 0.5 * (c1 - c0) * (c1 + c0)
    let beyondOne = (m1 - c1) - (m0 - c0)
    let numerator = clampedArea + beyondOne
    return numerator + signedEpsilon(run) * 0.5 * (c0 + c1)
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

/// The smallest lane of `lanes.low` and the largest of `lanes.high`, in one fold: the largest
/// is taken as the negated smallest of −high, and both halve together (16 → 8 + 8 → 4 + 4 →
/// 2 + 2 → 1 + 1 lanes) with sign-bit selects on whole vectors. Two separate
/// `laneMinimum`/`laneMaximum` folds end in scalar minima (7 each).
@usableFromInline @_transparent
func laneBounds(_ lanes: (low: LaneFloats, high: LaneFloats)) -> ChordBounds {
    let negatedHigh = -lanes.high
    let left = LaneFloats(lowHalf: lanes.low.lowHalf, highHalf: negatedHigh.lowHalf)
    let right = LaneFloats(lowHalf: lanes.low.highHalf, highHalf: negatedHigh.highHalf)
    let sixteen = laneMin(left, right)  // 8 of low | 8 of −high
    let eight = laneMin8(sixteen.evenHalf, sixteen.oddHalf)  // 4 | 4
    let four = laneMin4(eight.evenHalf, eight.oddHalf)  // 2 | 2
    let two = scalarMin(four[0], four[1])
    let negated = scalarMin(four[2], four[3])
    return ChordBounds(low: two, high: -negated)
}

/// `laneBounds` of two boundaries at once (the stroke's low and high curves): four extremes in
/// one fold.
@usableFromInline @_transparent
func laneBounds(
    _ first: (low: LaneFloats, high: LaneFloats), _ second: (low: LaneFloats, high: LaneFloats)
) -> (ChordBounds, ChordBounds) {
    let firstHigh = -first.high
    let secondHigh = -second.high
    let a = laneMin(
        LaneFloats(lowHalf: first.low.lowHalf, highHalf: firstHigh.lowHalf),
        LaneFloats(lowHalf: first.low.highHalf, highHalf: firstHigh.highHalf))  // 8 | 8
    let b = laneMin(
        LaneFloats(lowHalf: second.low.lowHalf, highHalf: secondHigh.lowHalf),
        LaneFloats(lowHalf: second.low.highHalf, highHalf: secondHigh.highHalf))  // 8 | 8
    // 4 × 4
    let sixteen = laneMin(
        LaneFloats(lowHalf: a.evenHalf, highHalf: b.evenHalf), LaneFloats(lowHalf: a.oddHalf, highHalf: b.oddHalf))
    let eight = laneMin8(sixteen.evenHalf, sixteen.oddHalf)  // 4 × 2
    let four = laneMin4(eight.evenHalf, eight.oddHalf)  // 4 × 1
    return (ChordBounds(low: four[0], high: -four[1]), ChordBounds(low: four[2], high: -four[3]))
}

@usableFromInline @_transparent
func laneMin8(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> {
    let mask = unsafeBitCast(a - b, to: SIMD8<Int32>.self) &>> 31
    let ai = unsafeBitCast(a, to: SIMD8<Int32>.self)
    let bi = unsafeBitCast(b, to: SIMD8<Int32>.self)
    return unsafeBitCast(bi ^ ((ai ^ bi) & mask), to: SIMD8<Float>.self)
}

@usableFromInline @_transparent
func laneMin4(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> SIMD4<Float> {
    let mask = unsafeBitCast(a - b, to: SIMD4<Int32>.self) &>> 31
    let ai = unsafeBitCast(a, to: SIMD4<Int32>.self)
    let bi = unsafeBitCast(b, to: SIMD4<Int32>.self)
    return unsafeBitCast(bi ^ ((ai ^ bi) & mask), to: SIMD4<Float>.self)
}

/// Where a ring meets eight consecutive pixel rows, computed for the eight rows at once in
/// `SIMD8<Double>` (four square roots per row were the cost of thin rings when done row by row).
///
/// For row j (y in [j, j+1]) and a circle of radius R, the row's points are within x-distance
/// √(R² − dyMin²) of the centre at most and √(R² − dyMax²) at least, where dyMin/dyMax are the
/// nearest/farthest y-distances of the row. From those, per row, half-open pixel ranges:
/// - touch: pixels the outer disc reaches at all;
/// - full: pixels wholly inside the outer disc;
/// - inner: pixels the inner disc reaches (empty when it misses the row);
/// - hole: pixels wholly inside the inner disc.
/// Ranges are widened (touch, inner) or narrowed (full, hole) by a rounding margin, so a pixel
/// is only ever moved to the exact per-pixel path, never skipped. Bounds are clamped to one
/// pixel beyond the clip, so they always fit in an `Int32`-sized integer.
@frozen @usableFromInline
struct RowSpans {
    @usableFromInline var touchStart: SIMD8<Int64>
    @usableFromInline var touchEnd: SIMD8<Int64>
    @usableFromInline var fullStart: SIMD8<Int64>
    @usableFromInline var fullEnd: SIMD8<Int64>
    @usableFromInline var innerStart: SIMD8<Int64>
    @usableFromInline var innerEnd: SIMD8<Int64>
    @usableFromInline var holeStart: SIMD8<Int64>
    @usableFromInline var holeEnd: SIMD8<Int64>

    /// The touch and hole ranges of the eight rows from `firstRow` (all a steep block needs);
    /// `addFullAndInner` completes the rest for the general path. (Split because the square
    /// roots of the full and inner ranges were a third of the ring time spent here.)
    @inlinable
    init(firstRow: Int, centerX: Double, centerY: Double, outer: Double, inner: Double, clip: ClipRect) {
        let (rows, margin, low, high) = RowSpans.setUp(
            firstRow: firstRow, centerX: centerX, centerY: centerY, outer: outer, clip: clip)
        let reachOuter = RowSpans.halfChord(outer, rows.nearest)
        // A disc (inner 0) has no hole.
        let fullInner = inner > 0 ? RowSpans.halfChord(inner, rows.farthest) : SIMD8<Double>(repeating: -1)
        let cx = SIMD8<Double>(repeating: centerX)
        touchStart = RowSpans.floor(cx - reachOuter - margin, low, high)
        touchEnd = RowSpans.ceil(cx + reachOuter + margin, low, high)
        holeStart = RowSpans.ceil(cx - fullInner + margin, low, high)
        holeEnd = RowSpans.floor(cx + fullInner - margin, low, high)
        fullStart = .zero
        fullEnd = .zero
        innerStart = .zero
        innerEnd = .zero
    }

    /// Computes the full and inner ranges (same arguments as `init`).
    @inlinable
    mutating func addFullAndInner(
        firstRow: Int, centerX: Double, centerY: Double, outer: Double, inner: Double, clip: ClipRect
    ) {
        let (rows, margin, low, high) = RowSpans.setUp(
            firstRow: firstRow, centerX: centerX, centerY: centerY, outer: outer, clip: clip)
        let fullOuter = RowSpans.halfChord(outer, rows.farthest)
        // A disc (inner 0) has no inner circle, not a point one that would "touch" the centre's row.
        let reachInner = inner > 0 ? RowSpans.halfChord(inner, rows.nearest) : SIMD8<Double>(repeating: -1)
        let cx = SIMD8<Double>(repeating: centerX)
        fullStart = RowSpans.ceil(cx - fullOuter + margin, low, high)
        fullEnd = RowSpans.floor(cx + fullOuter - margin, low, high)
        innerStart = RowSpans.floor(cx - reachInner - margin, low, high)
        innerEnd = RowSpans.ceil(cx + reachInner + margin, low, high)
    }

    /// The columns of `frame` that the eight rows' touch ranges reach (a superset of every
    /// steep window of the block).
    @inlinable
    func columnsReached(within frame: ClipRect) -> Range<Int> {
        let start = max(Int(touchStart.min()), frame.x0)
        return start..<max(min(Int(touchEnd.max()), frame.x1), start)
    }

    /// Each row's nearest y-distance from the centre (0 when the row contains the centre's y)
    /// and farthest.
    @inlinable @inline(__always)
    static func distances(firstRow: Int, centerY: Double) -> (nearest: SIMD8<Double>, farthest: SIMD8<Double>) {
        let rowOffsets = SIMD8<Double>(0, 1, 2, 3, 4, 5, 6, 7)
        let top = SIMD8<Double>(repeating: Double(firstRow) - centerY) + rowOffsets
        let bottom = top + 1
        let absTop = RowSpans.magnitude(top)
        let absBottom = RowSpans.magnitude(bottom)
        return (
            RowSpans.positivePart(top) + RowSpans.positivePart(0 - bottom),
            (absTop + absBottom + RowSpans.magnitude(absTop - absBottom)) * 0.5
        )
    }

    /// What both halves of the computation start from: the rows' distances from the centre, the
    /// rounding margin by which ranges are widened or narrowed, and the clamping bounds.
    @inlinable @inline(__always)
    static func setUp(firstRow: Int, centerX: Double, centerY: Double, outer: Double, clip: ClipRect) -> (
        rows: (nearest: SIMD8<Double>, farthest: SIMD8<Double>), margin: Double, low: Double, high: Double
    ) {
        (
            distances(firstRow: firstRow, centerY: centerY), 1e-7 + 1e-13 * (abs(centerX) + outer),
            Double(clip.x0 - 1), Double(clip.x1 + 1)
        )
    }

    // Branch-free, select-free lane helpers (see LaneMath.swift for why).

    @inlinable @inline(__always)
    static func magnitude(_ x: SIMD8<Double>) -> SIMD8<Double> {
        unsafeBitCast(
            unsafeBitCast(x, to: SIMD8<UInt64>.self) & SIMD8<UInt64>(repeating: 0x7FFF_FFFF_FFFF_FFFF),
            to: SIMD8<Double>.self)
    }

    /// max(x, 0), exactly: (x + |x|)·0.5 is 2x·0.5 for x ≥ 0 and +0 otherwise, with no rounding.
    /// In `Double` arithmetic, since x86 has no 64-bit signed max or arithmetic shift below
    /// AVX-512: the integer form (bits & ~(bits >> 63)) was ~6 emulating instructions a lane pair
    /// on SSE2 and AVX2 builds, where RowSpans was 16 % of the ring kernel's instructions.
    @inlinable @inline(__always)
    static func positivePart(_ x: SIMD8<Double>) -> SIMD8<Double> {
        (x + magnitude(x)) * 0.5
    }

    /// The signed half chord sign(s)·√|s| with s = R² − d²: √(R² − d²) where the circle reaches
    /// distance d, and negative where it does not, which makes every range built from it empty.
    @inlinable @inline(__always)
    static func halfChord(_ radius: Double, _ distance: SIMD8<Double>) -> SIMD8<Double> {
        let r = SIMD8<Double>(repeating: radius)
        let squared = (r - distance) * (r + distance)
        let bits = unsafeBitCast(squared, to: SIMD8<UInt64>.self)
        let root = unsafeBitCast(magnitude(squared).squareRoot(), to: SIMD8<UInt64>.self)
        return unsafeBitCast(root | (bits & SIMD8<UInt64>(repeating: 0x8000_0000_0000_0000)), to: SIMD8<Double>.self)
    }

    /// ⌊v⌋ of v clamped to low...high, via the 1.5·2^52 rounding constant (the standard library's
    /// vector float→int conversions run lane by lane): round to nearest, then subtract one where
    /// that rounded up (the sign bit of v − rounded).
    @inlinable @inline(__always)
    static func floor(_ value: SIMD8<Double>, _ low: Double, _ high: Double) -> SIMD8<Int64> {
        let lowered = value - positivePart(value - high)
        let v = lowered + positivePart(low - lowered)
        let magic = SIMD8<Double>(repeating: 6_755_399_441_055_744.0)
        let shifted = v + magic
        // 1 where that rounded up: the sign bit by a logical shift (x86 has no 64-bit arithmetic
        // shift below AVX-512).
        let roundedUp = unsafeBitCast(
            unsafeBitCast(v - (shifted - magic), to: SIMD8<UInt64>.self) &>> 63, to: SIMD8<Int64>.self)
        return unsafeBitCast(shifted, to: SIMD8<Int64>.self) &- unsafeBitCast(magic, to: SIMD8<Int64>.self) &- roundedUp
    }

    /// ⌈v⌉ of v clamped to low...high.
    @inlinable @inline(__always)
    static func ceil(_ value: SIMD8<Double>, _ low: Double, _ high: Double) -> SIMD8<Int64> {
        SIMD8<Int64>(repeating: 0) &- floor(0 - value, -high, -low)
    }
}

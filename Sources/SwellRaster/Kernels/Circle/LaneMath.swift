/// Branch-free lane arithmetic built only from operations the standard library lowers to single
/// vector instructions (add, multiply, bitwise and, shifts, square root).
///
/// Why not `.replacing(with:where:)`, `pointwiseMin` or `SIMDMask` bit casts: those are per-lane
/// loops that LLVM has to re-vectorise, which it did for small functions but not inside the
/// inlined coverage kernel, where they became hundreds of mask shuffles and lane extracts.
/// `x & 0x7FFF_FFFF` on the bits is recognised as `fabs`, which also lets `sqrt` skip its
/// errno check (a scalar libm call per lane otherwise).

/// |x| per lane.
@inlinable @inline(__always)
func magnitude(_ x: LaneFloats) -> LaneFloats {
    unsafeBitCast(unsafeBitCast(x, to: PixelVector.self) & PixelVector(repeating: 0x7FFF_FFFF), to: LaneFloats.self)
}

/// max(x, 0) per lane, exactly (negatives and −0 become +0): the bits cleared where the sign
/// bit is set. LLVM turns this into one signed integer max (vpmaxsd); the float form
/// (x + |x|)·0.5 took three instructions and gives the same values.
@inlinable @inline(__always)
func positivePart(_ x: LaneFloats) -> LaneFloats {
    let bits = unsafeBitCast(x, to: LaneInts.self)
    return unsafeBitCast(bits & ~(bits &>> 31), to: LaneFloats.self)
}

/// min(x, limit) per lane (to within an ulp).
@inlinable @inline(__always)
func capped(_ x: LaneFloats, _ limit: LaneFloats) -> LaneFloats {
    x - positivePart(x - limit)
}

/// x with its sign flipped where `sign` is negative (copysign-style, on the bits).
@inlinable @inline(__always)
func flippedWhereNegative(_ x: LaneFloats, _ sign: LaneFloats) -> LaneFloats {
    let signBit = unsafeBitCast(sign, to: PixelVector.self) & PixelVector(repeating: 0x8000_0000)
    return unsafeBitCast(unsafeBitCast(x, to: PixelVector.self) ^ signBit, to: LaneFloats.self)
}

/// All-ones in lanes whose bit in `mask` is clear, zeros where it is set: each lane's bit
/// isolated (0 or a positive power of two) minus one, its sign spread by a shift.
@inlinable @inline(__always)
func lanesNotIn(_ mask: Int32) -> PixelVector {
    let bits = LaneInts(1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768)
    return unsafeBitCast(((LaneInts(repeating: mask) & bits) &- 1) &>> 31, to: PixelVector.self)
}

/// Source-over of `before` at `coverage` × the source's alpha, with the lanes of zero coverage,
/// and those set in `keep`, left as they were (not rewritten with X = 0xFF).
@inlinable @inline(__always)
func blendCovered(
    _ before: PixelVector, _ coverage: LaneFloats, _ source: SourceColor, keeping keep: PixelVector = PixelVector()
) -> PixelVector {
    let after = blend(before, source, alpha: coverage * source.alpha)
    let kept = keep | zeroLanes(coverage)
    return (after & ~kept) | (before & kept)
}

/// All-ones in lanes whose coverage is exactly +0 (coverage is never negative): such pixels are
/// left as they were, not rewritten with X = 0xFF.
@inlinable @inline(__always)
func zeroLanes(_ coverage: LaneFloats) -> PixelVector {
    unsafeBitCast((unsafeBitCast(coverage, to: LaneInts.self) &- 1) &>> 31, to: PixelVector.self)
}

/// A SIMD sine for the wave kernels: sin(2π·t) of sixteen lanes at once, with `t` in turns.
///
/// Range reduction works in half turns: h = 2t, n = nearest integer to h (the 1.5·2^23 rounding
/// trick, valid for |t| < 2^21), f = h − n in [−½, ½], and sin(π·h) = (−1)^n · sin(π·f); the sign
/// flip is an XOR of n's lowest bit into the sign bit. sin(π·f) is the Taylor polynomial of
/// degree 11 (truncation error at π/2: 5.7e-8), so the result is within a few Float ulps of
/// sin (SineTests: max error 1.4e-7 over ±1000 turns). Only arithmetic and bit operations: no
/// lane masks, no libm call. Callers keep `t` small (the wave kernels reduce the per-group base
/// turn in Double) because a Float `t` itself only carries 24 bits.
@inlinable @inline(__always)
public func sineOfTurns(_ turns: SIMD16<Float>) -> SIMD16<Float> {
    let magic = SIMD16<Float>(repeating: 12_582_912.0)
    let halfTurns = turns + turns
    let shifted = halfTurns + magic
    let nearest = shifted - magic
    let parity = unsafeBitCast(shifted, to: SIMD16<UInt32>.self) &<< 31
    let x = (halfTurns - nearest) * Float.pi
    let x2 = x * x
    var p = SIMD16<Float>(repeating: -1.0 / 39_916_800.0)
    p = p * x2 + 1.0 / 362_880.0
    p = p * x2 - 1.0 / 5_040.0
    p = p * x2 + 1.0 / 120.0
    p = p * x2 - 1.0 / 6.0
    let sine = x + x * x2 * p
    return unsafeBitCast(unsafeBitCast(sine, to: SIMD16<UInt32>.self) ^ parity, to: SIMD16<Float>.self)
}

/// `sineOfTurns` as a call of its own, for callers where LLVM mangles the inlined polynomial:
/// inlined twice into the stroke's `crossSection` (sine and cosine), it interleaved the two into
/// a mix of scalar, xmm and ymm code; alone it is straight zmm code (same operations, same bits).
@inlinable @inline(never)
func outlinedSineOfTurns(_ turns: SIMD16<Float>) -> SIMD16<Float> { sineOfTurns(turns) }

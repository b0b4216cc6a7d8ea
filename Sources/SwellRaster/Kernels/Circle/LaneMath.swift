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
///
/// In 16-bit lanes on the interleaved pixels ("lowp", as in tiny-skia's lowp pipeline and
/// Blend2D): the coverage becomes one byte a = round(255·coverage·alpha) per pixel; red and blue
/// are masked into the two 16-bit halves of each word, green (with X) shifted into them; each
/// half is out = round((d·(255 − a) + s·a) / 255), as t = x + 128, (t + t >> 8) >> 8. No
/// channel is widened to 32 bits, converted to `Float` or transposed, and each step is one
/// instruction on 8 channels (SSE2: pmullw, paddw, psrlw; NEON alike), 16 (AVX2) or 32
/// (AVX-512). The source is its opaque pixel, each channel rounded to a byte as a fully covered
/// opaque pixel is anyway. Half the instructions of the `Float` blend (`blend`): 294 → 191 for
/// sixteen pixels on SSE2, 189 → 102 on AVX2, 140 → 68 on AVX-512.
///
/// Codegen: `SIMD32<UInt16>` operators with a scalar or a vector shift count run lane by lane
/// (a 32-iteration loop through the stack); vector `&+`/`&*` and the 32-bit-lane shifts and
/// masks below are single instructions, so every 16-bit shift is a 32-bit one plus a mask.
@inlinable @inline(__always)
func blendCovered(
    _ before: PixelVector, _ coverage: LaneFloats, _ source: SourceColor, keeping keep: PixelVector = PixelVector()
) -> PixelVector {
    let halves = PixelVector(repeating: 0x00FF_00FF)
    let a = roundedLowBits(coverage * source.byteAlpha) & PixelVector(repeating: 0xFF)
    let alphas = a | (a &<< 16)
    let keepFactor = lowpHalves(halves &- alphas)
    let alphaFactor = lowpHalves(alphas)
    let redBlue =
        lowpHalves(before & halves) &* keepFactor
        &+ lowpHalves(PixelVector(repeating: source.redBlueHalves)) &* alphaFactor
    let green =
        lowpHalves((before &>> 8) & halves) &* keepFactor
        &+ lowpHalves(PixelVector(repeating: source.greenHalves)) &* alphaFactor
    // Each 16-bit lane's result is the high byte of its rounded sum: red and blue shifted down,
    // green already in place (X is set to 0xFF anyway).
    let after =
        ((lowpRoundedSum(redBlue) &>> 8) & halves)
        | (lowpRoundedSum(green) & PixelVector(repeating: 0xFF00_FF00)) | PixelVector(repeating: 0xFF00_0000)
    let kept = keep | zeroLanes(coverage)
    return (after & ~kept) | (before & kept)
}

/// One pixel blended exactly as a lane of `blendCovered` whose `coverage * source.byteAlpha` is
/// `scaledAlpha` (0...255): the scalar ends of the ring kernel (`paintEdgePixels`,
/// `lowpBlendSpan`'s tail) and `BlendPrecision.lowp`, so a pixel's bytes do not depend on the
/// path, clip or band that painted it.
@inlinable @inline(__always)
public func lowpBlendPixel(_ destination: UInt32, _ source: SourceColor, scaledAlpha: Float) -> UInt32 {
    let a = (scaledAlpha + 12_582_912.0).bitPattern & 0xFF
    let keep = 255 - a
    let s = source.opaquePixel
    @inline(__always) func channel(_ d: UInt32, _ s: UInt32) -> UInt32 {
        let t = (d & 0xFF) * keep + (s & 0xFF) * a + 128
        return (t + (t >> 8)) >> 8
    }
    return 0xFF00_0000 | channel(destination >> 16, s >> 16) << 16 | channel(destination >> 8, s >> 8) << 8
        | channel(destination, s)
}

/// Composites `source` at its own alpha over pixels x0..<x1 of `row` in the ring kernel's
/// precision (`blendCovered` at coverage 1): the inside runs of rings and discs. An opaque source
/// is a plain store (the same bytes).
@inlinable
func lowpBlendSpan(_ row: UnsafeMutablePointer<UInt32>, from x0: Int, to x1: Int, _ source: SourceColor) {
    guard x1 > x0 else { return }
    if source.alpha >= 1 {
        (row + x0).update(repeating: source.opaquePixel, count: x1 - x0)
        return
    }
    let full = LaneFloats(repeating: 1)
    updateSpan(
        row, from: x0, to: x1, sixteen: { blendCovered($0, full, source) },
        one: { lowpBlendPixel($0, source, scaledAlpha: source.byteAlpha) })
}

/// Sixteen pixels' words as thirty-two 16-bit lanes (each word's low half first).
public typealias LowpHalves = SIMD32<UInt16>

@inlinable @inline(__always)
func lowpHalves(_ words: PixelVector) -> LowpHalves { unsafeBitCast(words, to: LowpHalves.self) }

@inlinable @inline(__always)
func lowpWords(_ halves: LowpHalves) -> PixelVector { unsafeBitCast(halves, to: PixelVector.self) }

/// t + (t >> 8) per 16-bit lane, t = x + 128: its high byte is round(x / 255), exactly for x
/// in 0...255·255.
@inlinable @inline(__always)
func lowpRoundedSum(_ x: LowpHalves) -> PixelVector {
    let t = x &+ LowpHalves(repeating: 128)
    return lowpWords(t &+ lowpHalves((lowpWords(t) &>> 8) & PixelVector(repeating: 0x00FF_00FF)))
}

/// All-ones in lanes whose coverage is exactly +0 (coverage is never negative): such pixels are
/// left as they were, not rewritten with X = 0xFF.
@inlinable @inline(__always)
func zeroLanes(_ coverage: LaneFloats) -> PixelVector {
    unsafeBitCast((unsafeBitCast(coverage, to: LaneInts.self) &- 1) &>> 31, to: PixelVector.self)
}

/// Source-over compositing of a straight-alpha source onto XRGB8888 pixels, in sRGB space:
/// `out = round(dst + (src - dst) * alpha)` per channel, computed in `Float` (exact to far
/// below 1/255 for 8-bit values) and rounded to nearest with the 1.5·2^23 trick, because the
/// standard library's SIMD float→int conversions run lane by lane (see docs/simd-notes).
/// The X byte of every written pixel is 0xFF.

/// Sixteen pixels, the width of every SIMD kernel (one AVX-512 register, two AVX2 registers).
public typealias PixelVector = SIMD16<UInt32>
/// Sixteen per-pixel coverages or alphas in 0...1.
public typealias LaneFloats = SIMD16<Float>
/// Sixteen lane indices or integer coordinates.
public typealias LaneInts = SIMD16<Int32>

public let laneCount = 16

/// Rounds each lane of `value` (which must lie in -2^22...2^22) to the nearest integer and
/// returns its low bits; for values in 0...255 the result is exactly that byte.
@inlinable @inline(__always)
public func roundedLowBits(_ value: LaneFloats) -> PixelVector {
    unsafeBitCast(value + 12_582_912.0, to: PixelVector.self)
}

/// Each lane's value (0...2^23) as a `Float`, exactly: the bits 2^23 + v read as a float, minus
/// 2^23. The standard library's `SIMD16<Float>(Int32 lanes)` was an out-of-line call per
/// conversion in the ring kernel, split into four 128-bit pieces.
@inlinable @inline(__always)
public func byteAsFloat(_ value: PixelVector) -> LaneFloats {
    unsafeBitCast(value | PixelVector(repeating: 0x4B00_0000), to: LaneFloats.self) - 8_388_608.0
}

/// Blends `source` over sixteen destination pixels with a per-lane alpha in 0...1
/// (already multiplied by the source alpha).
@inlinable @inline(__always)
public func blend(_ destination: PixelVector, _ source: SourceColor, alpha: LaneFloats) -> PixelVector {
    let byte = PixelVector(repeating: 0xFF)
    let dr = byteAsFloat((destination &>> 16) & byte)
    let dg = byteAsFloat((destination &>> 8) & byte)
    let db = byteAsFloat(destination & byte)
    // Each rounded channel's bits are 0x4B40_00vv: shifted left by 16 only vv survives; shifted
    // by 8, the stray 0x40 lands in the X byte, which is set to 0xFF anyway; blue needs a mask.
    let r = roundedLowBits(dr + (source.red - dr) * alpha)
    let g = roundedLowBits(dg + (source.green - dg) * alpha)
    let b = roundedLowBits(db + (source.blue - db) * alpha) & byte
    return (r &<< 16) | (g &<< 8) | b | PixelVector(repeating: 0xFF00_0000)
}

/// Blends one pixel the same way as `blend(_:_:alpha:)` (for span ends and small shapes).
@inlinable @inline(__always)
public func blendPixel(_ destination: UInt32, _ source: SourceColor, alpha: Float) -> UInt32 {
    @inline(__always) func channel(_ d: UInt32, _ s: Float) -> UInt32 {
        let df = Float(d & 0xFF)
        return (df + (s - df) * alpha + 12_582_912.0).bitPattern & 0xFF
    }
    return 0xFF00_0000 | channel(destination >> 16, source.red) << 16
        | channel(destination >> 8, source.green) << 8 | channel(destination, source.blue)
}

/// Source-over compositing of a straight-alpha source onto XRGB8888 pixels, in sRGB space:
/// `out = round(dst + (src - dst) * alpha)` per channel, in one of the named precisions
/// (`BlendPrecision`, below, says which op uses which). This file is the `float` one: computed
/// in `Float` (exact to far below 1/255 for 8-bit values) and rounded to nearest with the
/// 1.5·2^23 trick, because the standard library's SIMD float→int conversions run lane by lane.
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

/// The two source-over precisions of the raster kernels. Both compute
/// out = round(d + (s − d)·α) per channel in sRGB (`referenceComposite` in the tests is the exact
/// `Double` form); they differ only in how they round near a tie.
///
/// - `float`: `Float` arithmetic (`blend`, `blendPixel`, `blendSpan`, `blendLanes`, and
///   `mixPixels` for images and layer masks), exact to far below 1/255, ties to even.
/// - `fixed16`: 16-bit fixed point in 32-bit lanes (`WaveBlender`), out = (d·keep + add) >> 16
///   with keep = (1 − α)·2^16 and add = s·α·2^16 + 2^15: correctly rounded except within ~0.005
///   of a tie, ties up. Integer multiplies and shifts only: no int↔float conversion per pixel,
///   and a constant-alpha row is one pixel value (`WaveBlender.fullPixel`), which the frame
///   renderer's uniform rows rely on.
///
/// - `lowp`: 16-bit integer lanes on the interleaved pixels (`blendCovered`, `lowpBlendSpan`,
///   `lowpBlendPixel` in Kernels/Circle/LaneMath.swift), as tiny-skia's lowp pipeline: the
///   colour taken as its opaque pixel (channels rounded to bytes), α rounded to a byte
///   a = round(255·α), out = round((d·(255 − a) + s·a)/255) exactly. Within one level of
///   `float` (the rounding of s and α), and the same byte for colours and alphas given as bytes.
///
/// The rule (`of(_:)`): wave fills and wave strokes blend in `fixed16`, since their pixels are
/// mostly constant-alpha rows and runs (the fills' full rows, the strokes' full spans); rings and
/// discs in `lowp`, edge pixels and inside runs alike (half the instructions of `float` in the
/// ring kernel, 128-bit wide as well as 512); every other op — paths, images, layer masks and any
/// op added later unless it says otherwise — in `float`, since their edge pixels carry per-pixel
/// `Float` coverage anyway. `float` and `fixed16` give the same byte except where the exact value
/// lies within ~0.01 of a half, and then differ by 1 (BlendTests). A shape's precision is part of
/// its pixels: changing it changes goldens and bench checksums.
///
/// Glyph runs (`.glyphs`, `fillGlyphs`) say otherwise for opaque colours: `of(_:)` answers
/// `float`, their precision in a translucent colour (`FloatGlyphBlend`), but an opaque colour
/// blends in a third, integer precision (`ExactGlyphBlend`): the colour taken as its opaque pixel
/// (each channel rounded to a byte, as a fully covered pixel is anyway), then
/// out = round((d·(255 − m) + s·m)/255) for the coverage byte m, correctly rounded. For colours
/// given as bytes that is `float`'s byte; for a channel with a fraction a partly covered pixel
/// may differ from `float` by one (GlyphExactBlendTests).
@frozen
public enum BlendPrecision: Hashable, Sendable {
    case float
    case fixed16
    case lowp

    /// The precision the kernels use for `shape`.
    @inlinable
    public static func of(_ shape: Shape) -> BlendPrecision {
        switch shape {
        case .waveFill, .waveStroke: .fixed16
        case .ring, .disc: .lowp
        default: .float
        }
    }

    /// One pixel composited at the constant alpha `alpha` (already multiplied by the source's)
    /// in this precision, as the op's constant-alpha spans compute it (`blendSpan`,
    /// `WaveBlender.fullSpan`). A scalar reference for tests and tools, not a fast path.
    @inlinable
    public func blend(_ destination: UInt32, _ source: SourceColor, alpha: Float) -> UInt32 {
        switch self {
        case .float:
            return alpha >= 1 ? source.opaquePixel : blendPixel(destination, source, alpha: alpha)
        case .fixed16:
            return WaveBlender(source, alpha: alpha).fullPixel(over: destination)
        case .lowp:
            return alpha >= 1 ? source.opaquePixel : lowpBlendPixel(destination, source, scaledAlpha: alpha * 255)
        }
    }
}

/// YUV 4:2:0 pictures (8-bit planar, FFmpeg's yuv420p) to opaque XRGB8888: Swell's own kernel,
/// measured against libswscale (Benchmarks/VideoConvertBench) so a video element can use the
/// faster. Plain pointers only: SwellRaster knows nothing of FFmpeg or files.
///
/// The arithmetic is `Float`, sixteen pixels a step like every SwellRaster kernel: bytes become
/// floats by `byteAsFloat`, and channels are rounded to nearest with the 1.5·2^23 trick and
/// clamped in that biased form (the standard library's float→int lane conversions and
/// `clamped` run lane by lane). The result is within one step of the exactly rounded `Double`
/// equations (YUVConvertTests). Scalar heads and tails do the same `Float` operations in the same
/// order, so a pixel's value does not depend on where a vector step began.

/// Three planes of one 4:2:0 picture, as the decoder left them: a `width`×`height` luma plane and
/// two chroma planes of ceil(width/2)×ceil(height/2) samples, each sample serving a 2×2 block of
/// luma pixels. Strides are in bytes and may exceed the widths (FFmpeg pads its lines).
@frozen
public struct YUVPlanes {
    public var y: UnsafePointer<UInt8>
    public var u: UnsafePointer<UInt8>
    public var v: UnsafePointer<UInt8>
    public var yStride: Int
    public var uStride: Int
    public var vStride: Int
    public var width: Int
    public var height: Int

    @inlinable
    public init(
        y: UnsafePointer<UInt8>, yStride: Int, u: UnsafePointer<UInt8>, uStride: Int, v: UnsafePointer<UInt8>,
        vStride: Int, width: Int, height: Int
    ) {
        precondition(width > 0 && height > 0, "a picture needs a positive size")
        precondition(yStride >= width && uStride >= (width + 1) / 2 && vStride >= (width + 1) / 2, "stride too small")
        self.y = y
        self.u = u
        self.v = v
        self.yStride = yStride
        self.uStride = uStride
        self.vStride = vStride
        self.width = width
        self.height = height
    }

    @inlinable public var chromaWidth: Int { (width + 1) / 2 }
    @inlinable public var chromaHeight: Int { (height + 1) / 2 }
    @inlinable public var bounds: ClipRect { ClipRect(x0: 0, y0: 0, x1: width, y1: height) }
}

/// The YCbCr→RGB equations of one stream, as `Float` coefficients:
/// R = Y'·lumaScale + V·redFromV + redOffset, G = Y'·lumaScale + U·greenFromU + V·greenFromV +
/// greenOffset, B = Y'·lumaScale + U·blueFromU + blueOffset, on the bytes Y', U, V, with
/// the luma and chroma offsets (16 and 128 for limited range, 0 and 128 for full) folded into the
/// three chroma offsets, so a luma byte costs one multiply.
///
/// From Kr and Kb (BT.601: 0.299, 0.114; BT.709: 0.2126, 0.0722), with Kg = 1 − Kr − Kb:
/// R = Y + 2(1−Kr)·Cr, G = Y − 2Kb(1−Kb)/Kg·Cb − 2Kr(1−Kr)/Kg·Cr, B = Y + 2(1−Kb)·Cb, where for
/// limited range Y = (Y'−16)·255/219 and C = (C'−128)·255/224, and for full range Y = Y',
/// C = C' − 128.
@frozen
public struct YUVMatrix: Equatable, Sendable {
    public let lumaScale: Float
    public let redFromV: Float
    public let greenFromU: Float
    public let greenFromV: Float
    public let blueFromU: Float
    public let redOffset: Float
    public let greenOffset: Float
    public let blueOffset: Float

    /// BT.709 (HD streams) or BT.601 (SD, and FFmpeg's default when a stream says nothing);
    /// full range (0–255, JPEG-style) or limited (luma 16–235, chroma 16–240), from the stream's
    /// own flags.
    public init(bt709: Bool, fullRange: Bool) {
        let kr = bt709 ? 0.2126 : 0.299
        let kb = bt709 ? 0.0722 : 0.114
        let kg = 1 - kr - kb
        let lumaScale = fullRange ? 1.0 : 255.0 / 219.0
        let chromaScale = fullRange ? 1.0 : 255.0 / 224.0
        let lumaOffset = fullRange ? 0.0 : -16 * lumaScale
        let redFromV = 2 * (1 - kr) * chromaScale
        let greenFromU = -2 * kb * (1 - kb) / kg * chromaScale
        let greenFromV = -2 * kr * (1 - kr) / kg * chromaScale
        let blueFromU = 2 * (1 - kb) * chromaScale
        self.lumaScale = Float(lumaScale)
        self.redFromV = Float(redFromV)
        self.greenFromU = Float(greenFromU)
        self.greenFromV = Float(greenFromV)
        self.blueFromU = Float(blueFromU)
        redOffset = Float(lumaOffset - 128 * redFromV)
        greenOffset = Float(lumaOffset - 128 * (greenFromU + greenFromV))
        blueOffset = Float(lumaOffset - 128 * blueFromU)
    }

    public static let bt601Limited = YUVMatrix(bt709: false, fullRange: false)
    public static let bt601Full = YUVMatrix(bt709: false, fullRange: true)
    public static let bt709Limited = YUVMatrix(bt709: true, fullRange: false)
    public static let bt709Full = YUVMatrix(bt709: true, fullRange: true)
}

/// Converts the picture at its own size: picture pixel (x, y) becomes surface pixel (x, y), for
/// the pixels inside `clip`, the surface and the picture. Each chroma sample serves its 2×2 luma
/// block unfiltered, as libswscale's unscaled yuv420p→BGRA path does, so the two are comparable
/// pixel for pixel. Writes opaque pixels 0xFF_RR_GG_BB.
public func convertYUV420(_ planes: YUVPlanes, _ matrix: YUVMatrix, into surface: PixelSurface, clip: ClipRect) {
    let area = clip.intersection(surface.bounds).intersection(planes.bounds)
    guard !area.isEmpty else { return }
    var y = area.y0
    while y < area.y1 {
        // An even row and the odd one below it share their chroma row: its terms are computed once.
        let pair = y & 1 == 0 && y + 1 < area.y1
        let chroma = y >> 1
        let luma = planes.y + y &* planes.yStride
        convertRowPair(
            luma: luma, pair ? luma + planes.yStride : luma,
            u: planes.u + chroma &* planes.uStride, v: planes.v + chroma &* planes.vStride,
            into: surface.row(y), pair ? surface.row(y + 1) : surface.row(y),
            from: area.x0, to: area.x1, matrix)
        y += pair ? 2 : 1
    }
}

/// Columns x0..<x1 of two luma rows over one chroma row (the same row twice at a lone edge row).
@inline(never)
private func convertRowPair(
    luma top: UnsafePointer<UInt8>, _ bottom: UnsafePointer<UInt8>, u: UnsafePointer<UInt8>,
    v: UnsafePointer<UInt8>, into topOut: UnsafeMutablePointer<UInt32>, _ bottomOut: UnsafeMutablePointer<UInt32>,
    from x0: Int, to x1: Int, _ m: YUVMatrix
) {
    @inline(__always) func scalarColumn(_ x: Int) {
        let terms = ChromaTerms(u: Float(u[x >> 1]), v: Float(v[x >> 1]), m)
        topOut[x] = terms.pixel(luma: Float(top[x]), m)
        bottomOut[x] = terms.pixel(luma: Float(bottom[x]), m)
    }
    var x = x0
    // Vector steps start on an even column, so lane pairs share one chroma sample.
    if x & 1 == 1 {
        scalarColumn(x)
        x += 1
    }
    while x &+ laneCount <= x1 {
        // Written out for both rows: through a method of ChromaLanes, the optimiser left one or
        // both rows' conversions out of line despite @inline(__always).
        let u = duplicatedChroma(u + (x >> 1))
        let v = duplicatedChroma(v + (x >> 1))
        let red = v * m.redFromV + m.redOffset
        let green = (u * m.greenFromU + v * m.greenFromV) + m.greenOffset
        let blue = u * m.blueFromU + m.blueOffset
        let upper = lumaLanes(top + x) * m.lumaScale
        let lower = lumaLanes(bottom + x) * m.lumaScale
        UnsafeMutableRawPointer(topOut + x).storeBytes(
            of: packRoundedChannels(
                red: clampedRoundedBits(upper + red), green: clampedRoundedBits(upper + green),
                blue: clampedRoundedBits(upper + blue)), as: PixelVector.self)
        UnsafeMutableRawPointer(bottomOut + x).storeBytes(
            of: packRoundedChannels(
                red: clampedRoundedBits(lower + red), green: clampedRoundedBits(lower + green),
                blue: clampedRoundedBits(lower + blue)), as: PixelVector.self)
        x &+= laneCount
    }
    while x < x1 {
        scalarColumn(x)
        x += 1
    }
}

/// Sixteen luma bytes as floats. Written lane by lane, which the compiler turns into one widening
/// load and one conversion (`vpmovzxbd`, `vcvtdq2ps`); `SIMD16<UInt32>(truncatingIfNeeded:)` was
/// an out-of-line call here.
@inline(__always)
func lumaLanes(_ p: UnsafePointer<UInt8>) -> LaneFloats {
    let b = UnsafeRawPointer(p).loadUnaligned(as: SIMD16<UInt8>.self)
    return LaneFloats(
        Float(b[0]), Float(b[1]), Float(b[2]), Float(b[3]), Float(b[4]), Float(b[5]), Float(b[6]), Float(b[7]),
        Float(b[8]), Float(b[9]), Float(b[10]), Float(b[11]), Float(b[12]), Float(b[13]), Float(b[14]), Float(b[15]))
}

/// Eight chroma bytes, each twice (lanes 2k and 2k+1 hold byte k), as floats; lane by lane too,
/// which becomes a widening load, one shuffle and a conversion.
@inline(__always)
func duplicatedChroma(_ p: UnsafePointer<UInt8>) -> LaneFloats {
    let b = UnsafeRawPointer(p).loadUnaligned(as: SIMD8<UInt8>.self)
    return LaneFloats(
        Float(b[0]), Float(b[0]), Float(b[1]), Float(b[1]), Float(b[2]), Float(b[2]), Float(b[3]), Float(b[3]),
        Float(b[4]), Float(b[4]), Float(b[5]), Float(b[5]), Float(b[6]), Float(b[6]), Float(b[7]), Float(b[7]))
}

/// Sixteen opaque pixels from luma and chroma values (bytes as floats, filtered or not): a free
/// function, since as a method of a struct of chroma terms it was left out of line.
@inline(__always)
func convertedLanes(luma: LaneFloats, u: LaneFloats, v: LaneFloats, _ m: YUVMatrix) -> PixelVector {
    let scaled = luma * m.lumaScale
    let red = v * m.redFromV + m.redOffset
    let green = (u * m.greenFromU + v * m.greenFromV) + m.greenOffset
    let blue = u * m.blueFromU + m.blueOffset
    return packRoundedChannels(
        red: clampedRoundedBits(scaled + red), green: clampedRoundedBits(scaled + green),
        blue: clampedRoundedBits(scaled + blue))
}

/// The chroma terms of one pixel, then its conversion: the same `Float` operations in the same
/// order as the vector steps.
struct ChromaTerms {
    let red: Float
    let green: Float
    let blue: Float

    @inline(__always)
    init(u: Float, v: Float, _ m: YUVMatrix) {
        red = v * m.redFromV + m.redOffset
        green = (u * m.greenFromU + v * m.greenFromV) + m.greenOffset
        blue = u * m.blueFromU + m.blueOffset
    }

    @inline(__always)
    func pixel(luma: Float, _ m: YUVMatrix) -> UInt32 {
        let scaled = luma * m.lumaScale
        @inline(__always) func channel(_ value: Float) -> UInt32 {
            // Rounded by the 1.5·2^23 bias as the lanes are, then clamped in that biased form.
            let biased = min(max(value + roundingBias, roundingBias), roundingBias + 255)
            return biased.bitPattern & 0xFF
        }
        return 0xFF00_0000 | channel(scaled + red) << 16 | channel(scaled + green) << 8 | channel(scaled + blue)
    }
}

/// 1.5·2^23: a float in −2^22...2^22 plus this is rounded to an integer (to nearest, ties to
/// even), which sits in the low bits of the sum's bit pattern.
let roundingBias: Float = 12_582_912.0

/// Each lane rounded to nearest and clamped to 0...255, as the bits of its biased float
/// (0x4B40_00vv for the byte vv). Written as "the bound, unless the value is inside it", which
/// the compiler emits as one `maxps` and one `minps`; the other way round (or `pointwiseMin/Max`)
/// became compares and blends.
@inline(__always)
func clampedRoundedBits(_ value: LaneFloats) -> PixelVector {
    let low = LaneFloats(repeating: roundingBias)
    let high = LaneFloats(repeating: roundingBias + 255)
    let biased = value + roundingBias
    let raised = low.replacing(with: biased, where: biased .> low)
    return unsafeBitCast(high.replacing(with: raised, where: raised .< high), to: PixelVector.self)
}

/// Opaque XRGB pixels from three channels in `clampedRoundedBits` form. Red shifted by 16 keeps
/// only its byte; green's shifted by 8 leaves the bias's 0x40 in the X byte, which is set anyway;
/// blue needs a mask.
@inline(__always)
func packRoundedChannels(red: PixelVector, green: PixelVector, blue: PixelVector) -> PixelVector {
    (red &<< 16) | (green &<< 8) | (blue & PixelVector(repeating: 0xFF)) | PixelVector(repeating: 0xFF00_0000)
}

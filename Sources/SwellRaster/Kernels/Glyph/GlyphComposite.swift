/// Composites a glyph run: each mask row in 16-lane vectors, coverage · source alpha, source-over.
///
/// A vector is loaded from the mask at any column (masks are zero-padded, see `CoverageMask`);
/// an all-zero vector costs one compare. Where the whole 16-pixel destination vector lies in the
/// row, it is blended at once and lanes of zero coverage keep their old pixel exactly (the
/// integer blend gives them back as they were; the float one needs a select), so pixels outside
/// the glyph or the clip are rewritten with their own value by the thread that owns the row; a
/// glyph whose last vector runs past the surface's right edge goes to a loop of its own, out of
/// line, that blends those lanes one by one with the same arithmetic. Each pixel's result depends
/// only on its own coverage, so any band or clip gives the same bytes. A glyph's row vectors and
/// its last vector's mask are worked out once per glyph, a last vector of at most 8 lanes is
/// blended 8 wide (half the cost on Zen 4, which splits 16-lane operations), and rows advance by
/// pointer. The blend is `ExactGlyphBlend` for opaque colours (integer, 16-bit halves, the colour
/// rounded to its opaque pixel) and `FloatGlyphBlend` (`blendGlyph`, rounding in one addition)
/// for translucent ones (Blend.swift, `BlendPrecision`, states the rule). A draw list's runs
/// arrive merged, one mask per line (`GlyphRun.mergingInk`), so most "glyphs" here are lines.
/// Now: text-page.json (3124 glyphs in 80 masks, 1080p, one thread, tuned, 2-core Zen 4 EPYC):
/// 0.26–0.38 ms a frame with its background and two wave fills against Cairo's 1.45–2.33 ms,
/// median 5.6×; this loop is under half of that frame, the background write a third
/// (docs/speed.md, "Text"). What was tried here and was not faster: docs/speed-log.md.
@inlinable
public func fillGlyphs(_ surface: PixelSurface, _ run: GlyphRun, _ source: SourceColor, clip: ClipRect) {
    let area = clip.intersection(run.bounds).intersection(surface.bounds)
    guard !area.isEmpty, source.alpha > 0 else { return }
    if let exact = ExactGlyphBlend(source) {
        compositeGlyphs(surface, run, exact, area)
    } else {
        compositeGlyphs(surface, run, FloatGlyphBlend(source), area)
    }
}

@inlinable
func compositeGlyphs<Blender: GlyphBlender>(
    _ surface: PixelSurface, _ run: GlyphRun, _ blender: Blender, _ area: ClipRect
) {
    run.glyphs.withUnsafeBufferPointer { glyphs in
        for glyph in glyphs { compositeGlyph(surface, glyph, blender, area) }
    }
}

@inlinable
func compositeGlyph<Blender: GlyphBlender>(
    _ surface: PixelSurface, _ glyph: PlacedGlyph, _ blender: Blender, _ clip: ClipRect
) {
    let gx = Int(glyph.x)
    let gy = Int(glyph.y)
    let top = max(gy, clip.y0)
    let bottom = min(gy + Int(glyph.height), clip.y1)
    let left = max(gx, clip.x0)
    let right = min(gx + Int(glyph.width), clip.x1)
    guard top < bottom, left < right else { return }
    let stride = Int(glyph.stride)
    // Every row has the same vectors: (vectors − 1) whole ones, then one of `lastCount` lanes.
    // An unclipped row's last vector ends inside the row's zero padding, so it needs no mask;
    // a clipped one would read past the clip (or into the next row) and is masked.
    let vectors = (right - left + laneCount - 1) / laneCount
    let lastX = left + (vectors - 1) * laneCount
    let lastCount = right - lastX
    let clipped = left != gx || right != gx + Int(glyph.width)
    let lastMask = clipped && lastCount < laneCount ? firstLanes(lastCount) : SIMD16<UInt8>(repeating: 0xFF)
    // A last vector of at most 8 lanes is blended 8 wide: on a core that splits 16-lane vectors
    // into two halves (Zen 4) that halves its cost. (text-page's 17–21 px glyphs are mostly
    // 9–16 px wide: perf finds two thirds of the compositor in the 16-lane loop.)
    let half = lastCount <= laneCount / 2
    // Row and mask pointers advance by their strides, in wrapping arithmetic (the clip keeps
    // every address inside the surface and the mask): no multiply and no overflow check per row.
    let rows = GlyphRows(
        count: bottom &- top, pixels: surface.base + top &* surface.stride,
        coverage: glyph.coverage + ((top &- gy) &* stride &- gx), stride: stride, left: left, lastX: lastX,
        lastCount: lastCount)
    // A glyph whose last vector runs past the surface's right edge takes a loop of its own, out
    // of line: the loops here then test no width and hold their values in registers (with the
    // per-pixel edge code inlined, the row loop kept its pointers and counts on the stack).
    guard lastX &+ (half ? laneCount / 2 : laneCount) <= surface.width else {
        return compositeRowsAtEdge(surface, rows, blender, half: half, lastMask)
    }
    // One loop for each last-vector width and for glyphs with or without whole vectors, so
    // neither choice is made per row.
    switch (half, vectors > 1) {
    case (true, false): compositeRows(surface, rows, blender, half: true, whole: false, fits: true, lastMask)
    case (true, true): compositeRows(surface, rows, blender, half: true, whole: true, fits: true, lastMask)
    case (false, false): compositeRows(surface, rows, blender, half: false, whole: false, fits: true, lastMask)
    case (false, true): compositeRows(surface, rows, blender, half: false, whole: true, fits: true, lastMask)
    }
}

/// The rows of a glyph whose last vector does not fit in the surface: blended pixel by pixel
/// there, with the same arithmetic.
@inlinable @inline(never)
func compositeRowsAtEdge<Blender: GlyphBlender>(
    _ surface: PixelSurface, _ rows: GlyphRows, _ blender: Blender, half: Bool, _ lastMask: SIMD16<UInt8>
) {
    if half {
        compositeRows(surface, rows, blender, half: true, whole: true, fits: false, lastMask)
    } else {
        compositeRows(surface, rows, blender, half: false, whole: true, fits: false, lastMask)
    }
}

/// Where a glyph's clipped rows are: their number, the first row's pixels and coverage, the
/// mask's stride, and the columns of the whole vectors and the last one.
@usableFromInline
struct GlyphRows {
    @usableFromInline let count: Int
    @usableFromInline let pixels: UnsafeMutableRawPointer
    @usableFromInline let coverage: UnsafePointer<UInt8>
    @usableFromInline let stride: Int
    @usableFromInline let left: Int
    @usableFromInline let lastX: Int
    @usableFromInline let lastCount: Int

    @inlinable
    init(
        count: Int, pixels: UnsafeMutableRawPointer, coverage: UnsafePointer<UInt8>, stride: Int, left: Int, lastX: Int,
        lastCount: Int
    ) {
        self.count = count
        self.pixels = pixels
        self.coverage = coverage
        self.stride = stride
        self.left = left
        self.lastX = lastX
        self.lastCount = lastCount
    }
}

/// The rows of one glyph: whole 16-lane vectors from `left` to `lastX` (none unless `whole`),
/// then the last vector, 8 or 16 lanes wide; every vector inside the surface if `fits`. The flags
/// are constants at each call, so each call is a loop of its own.
@inlinable @inline(__always)
func compositeRows<Blender: GlyphBlender>(
    _ surface: PixelSurface, _ rows: GlyphRows, _ blender: Blender, half: Bool, whole: Bool, fits: Bool,
    _ lastMask: SIMD16<UInt8>
) {
    var pixels = rows.pixels
    var coverageRow = rows.coverage
    var count = rows.count
    repeat {
        let row = pixels.assumingMemoryBound(to: UInt32.self)
        var x = rows.left
        while whole && x < rows.lastX {
            compositeVector(
                row, at: x, count: laneCount, surface.width, fits: fits, blender, coverageRow, SIMD16(repeating: 0xFF))
            x &+= laneCount
        }
        if half {
            compositeHalfVector(
                row, at: rows.lastX, count: rows.lastCount, surface.width, fits: fits, blender, coverageRow,
                lastMask.lowHalf)
        } else {
            compositeVector(
                row, at: rows.lastX, count: rows.lastCount, surface.width, fits: fits, blender, coverageRow, lastMask)
        }
        pixels += surface.stride
        coverageRow += rows.stride
        count &-= 1
    } while count > 0
}

/// Blends the 16 lanes of coverage at `x` (ANDed with `mask`) unless they are all zero.
@inlinable @inline(__always)
func compositeVector<Blender: GlyphBlender>(
    _ row: UnsafeMutablePointer<UInt32>, at x: Int, count: Int, _ width: Int, fits: Bool, _ blender: Blender,
    _ coverageRow: UnsafePointer<UInt8>, _ mask: SIMD16<UInt8>
) {
    let bytes = UnsafeRawPointer(coverageRow + x).loadUnaligned(as: SIMD16<UInt8>.self) & mask
    let halves = unsafeBitCast(bytes, to: SIMD2<UInt64>.self)
    guard halves[0] | halves[1] != 0 else { return }
    compositeLanes(row, at: x, count: count, width, fits: fits, blender, bytes)
}

/// 0xFF in the first `count` lanes (1...15), 0 in the rest. Bitwise, because SIMD masks
/// (`replace(with:where:)`, lane comparisons) compiled to a loop over the lanes without AVX-512.
@inlinable @inline(__always)
func firstLanes(_ count: Int) -> SIMD16<UInt8> {
    let ones = UInt64.max
    let low = count >= 8 ? ones : ones >> (64 - 8 * UInt64(count))
    let high = count >= 8 ? (count == 8 ? 0 : ones >> (64 - 8 * UInt64(count - 8))) : 0
    return unsafeBitCast(SIMD2<UInt64>(low, high), to: SIMD16<UInt8>.self)
}

/// Each byte as a 32-bit lane. The standard library's `PixelVector(truncatingIfNeeded:)` was an
/// out-of-line call converting lane by lane; this loop becomes one zero-extending move.
@inlinable @inline(__always)
func widened(_ bytes: SIMD16<UInt8>) -> PixelVector {
    var out = PixelVector()
    for i in 0..<16 { out[i] = UInt32(bytes[i]) }
    return out
}

@inlinable @inline(__always)
func compositeLanes<Blender: GlyphBlender>(
    _ row: UnsafeMutablePointer<UInt32>, at x: Int, count: Int, _ width: Int, fits: Bool, _ blender: Blender,
    _ bytes: SIMD16<UInt8>
) {
    let coverage = widened(bytes)
    if fits || x + laneCount <= width {
        let p = UnsafeMutableRawPointer(row + x)
        let old = p.loadUnaligned(as: PixelVector.self)
        let blended = blender.blend(old, coverage: coverage)
        guard !Blender.blendsZeroCoverageToDestination else { return p.storeBytes(of: blended, as: PixelVector.self) }
        // All ones where the coverage is 0: (0 − 1) >> 31 = 1, (c − 1) >> 31 = 0 for c in 1...255.
        let untouched = PixelVector(repeating: 0) &- ((coverage &- 1) &>> 31)
        p.storeBytes(of: (blended & ~untouched) | (old & untouched), as: PixelVector.self)
    } else {
        for i in 0..<count where bytes[i] != 0 { row[x + i] = blender.blendPixel(row[x + i], coverage: bytes[i]) }
    }
}

/// As `compositeVector` for 8 lanes, with the same arithmetic lane for lane (same bytes).
@inlinable @inline(__always)
func compositeHalfVector<Blender: GlyphBlender>(
    _ row: UnsafeMutablePointer<UInt32>, at x: Int, count: Int, _ width: Int, fits: Bool, _ blender: Blender,
    _ coverageRow: UnsafePointer<UInt8>, _ mask: SIMD8<UInt8>
) {
    let bytes = UnsafeRawPointer(coverageRow + x).loadUnaligned(as: SIMD8<UInt8>.self) & mask
    guard unsafeBitCast(bytes, to: UInt64.self) != 0 else { return }
    var coverage = SIMD8<UInt32>()
    for i in 0..<8 { coverage[i] = UInt32(bytes[i]) }
    if fits || x + 8 <= width {
        let p = UnsafeMutableRawPointer(row + x)
        let old = p.loadUnaligned(as: SIMD8<UInt32>.self)
        let blended = blender.blend(old, coverage: coverage)
        guard !Blender.blendsZeroCoverageToDestination else { return p.storeBytes(of: blended, as: SIMD8<UInt32>.self) }
        let untouched = SIMD8<UInt32>(repeating: 0) &- ((coverage &- 1) &>> 31)
        p.storeBytes(of: (blended & ~untouched) | (old & untouched), as: SIMD8<UInt32>.self)
    } else {
        for i in 0..<count where bytes[i] != 0 { row[x + i] = blender.blendPixel(row[x + i], coverage: bytes[i]) }
    }
}

/// A glyph blend: source-over of one colour by a coverage byte (0...255) per pixel, on 16 lanes,
/// 8 lanes and one pixel with the same result lane for lane (a pixel may take any of the three
/// paths depending on the band and clip). Lanes of coverage 0 are never blended.
@usableFromInline
protocol GlyphBlender {
    func blend(_ destination: PixelVector, coverage: PixelVector) -> PixelVector
    func blend(_ destination: SIMD8<UInt32>, coverage: SIMD8<UInt32>) -> SIMD8<UInt32>
    func blendPixel(_ destination: UInt32, coverage: UInt8) -> UInt32
    /// True when a lane of coverage 0 comes back as its destination pixel, all four bytes: the
    /// compositor then stores the blend without a select.
    static var blendsZeroCoverageToDestination: Bool { get }
}

/// Any source colour: `blendGlyph` in float, α = coverage · (source alpha / 255). Public for the
/// tests, which compare the two blends.
public struct FloatGlyphBlend: GlyphBlender {
    @usableFromInline let source: SourceColor
    @usableFromInline let scale: Float

    @inlinable public init(_ source: SourceColor) {
        self.source = source
        scale = source.alpha / 255
    }

    /// No: it sets the X byte to 0xFF.
    @inlinable public static var blendsZeroCoverageToDestination: Bool { false }

    @inlinable @inline(__always)
    public func blend(_ destination: PixelVector, coverage: PixelVector) -> PixelVector {
        blendGlyph(destination, source, alpha: byteAsFloat(coverage) * LaneFloats(repeating: scale))
    }

    @inlinable @inline(__always)
    public func blend(_ destination: SIMD8<UInt32>, coverage: SIMD8<UInt32>) -> SIMD8<UInt32> {
        blendHalf(destination, source, alpha: halfAsFloat(coverage) * SIMD8<Float>(repeating: scale))
    }

    @inlinable @inline(__always)
    public func blendPixel(_ destination: UInt32, coverage: UInt8) -> UInt32 {
        blendGlyphPixel(destination, source, alpha: Float(coverage) * scale)
    }
}

/// Any opaque source, in integer arithmetic: the source taken as its opaque pixel's bytes s (the
/// pixel a fully covered pixel gets: each channel rounded to the nearest byte), then per channel
/// out = round((d·(255 − m) + s·m) / 255), correctly rounded, for coverage m. For colours given
/// as bytes ("#RRGGBB") that is `blendGlyph`'s float result byte for byte (the rational is k/255,
/// never closer than 1/510 to a half, and float's error is below 10^-4); for a channel with a
/// fraction (0.1 · 255 = 25.5) a partly covered pixel moves by at most (s − round(s))·m/255 ≤ 0.5
/// of a level before rounding, so by at most one level (GlyphExactBlendTests).
///
/// Two channels a 32-bit lane in 16-bit halves (R and B; G and X, X blended as a channel whose
/// source is 0xFF), with v + 128 = (d − s)·(255 − m) + (255·s + 128): one 16-bit subtraction,
/// multiply (`vpmullw`) and addition a half, wrapping, exact because the true value lies in
/// 128...65153. Round-dividing by 255: x = v + 128, (x + (x >> 8)) >> 8, exact for v ≤ 65025,
/// and x + (x >> 8) ≤ 65407 never carries into the next half. Coverage 0 gives d back in all four
/// bytes, so no select keeps untouched lanes; coverage 255 gives s, with X = 0xFF; over the
/// frames the renderer paints (X always 0xFF) X stays 0xFF. Shifts and masks are 32-bit lane
/// operations (Swift compiles 16-bit lane shifts and masks to lane loops); LLVM turns a shift
/// and mask into `vpsrlw`.
public struct ExactGlyphBlend: GlyphBlender {
    /// The source's red and blue (bits 16 and 0), and X (0xFF, bit 16) and green (bit 0), as
    /// 16-bit halves.
    @usableFromInline let redBlue: UInt32
    @usableFromInline let xGreen: UInt32
    /// 255·s + 128 in each half of `redBlue` and `xGreen`.
    @usableFromInline let redBlueTerm: UInt32
    @usableFromInline let xGreenTerm: UInt32

    @inlinable public init?(_ source: SourceColor) {
        guard source.alpha == 1 else { return nil }
        let pixel = source.opaquePixel
        redBlue = pixel & 0x00FF_00FF
        xGreen = pixel >> 8 & 0x00FF_00FF
        redBlueTerm = redBlue &* 255 &+ 0x0080_0080
        xGreenTerm = xGreen &* 255 &+ 0x0080_0080
    }

    @inlinable public static var blendsZeroCoverageToDestination: Bool { true }

    @inlinable @inline(__always)
    public func blend(_ destination: PixelVector, coverage: PixelVector) -> PixelVector {
        let complement = coverage ^ PixelVector(repeating: 0xFF)
        let n = complement | complement &<< 16
        let halves = PixelVector(repeating: 0x00FF_00FF)
        let rb = sum(destination & halves, redBlue, n, redBlueTerm)
        let xg = sum((destination &>> 8) & halves, xGreen, n, xGreenTerm)
        return ((rounded(rb) &>> 8) & halves) | (rounded(xg) & PixelVector(repeating: 0xFF00_FF00))
    }

    /// (d − s)·n + term in 16-bit halves, wrapping (`vpsubw`, `vpmullw`, `vpaddw`).
    @inlinable @inline(__always)
    func sum(_ d: PixelVector, _ s: UInt32, _ n: PixelVector, _ term: UInt32) -> PixelVector {
        typealias Words = SIMD32<UInt16>
        let difference = unsafeBitCast(d, to: Words.self) &- unsafeBitCast(PixelVector(repeating: s), to: Words.self)
        let product = difference &* unsafeBitCast(n, to: Words.self)
        let total = product &+ unsafeBitCast(PixelVector(repeating: term), to: Words.self)
        return unsafeBitCast(total, to: PixelVector.self)
    }

    /// x + (x >> 8) of each 16-bit half x = v + 128: round(v / 255) in the half's high byte.
    @inlinable @inline(__always)
    func rounded(_ x: PixelVector) -> PixelVector {
        x &+ ((x &>> 8) & PixelVector(repeating: 0x00FF_00FF))
    }

    @inlinable @inline(__always)
    public func blend(_ destination: SIMD8<UInt32>, coverage: SIMD8<UInt32>) -> SIMD8<UInt32> {
        let complement = coverage ^ SIMD8<UInt32>(repeating: 0xFF)
        let n = complement | complement &<< 16
        let halves = SIMD8<UInt32>(repeating: 0x00FF_00FF)
        let rb = sum(destination & halves, redBlue, n, redBlueTerm)
        let xg = sum((destination &>> 8) & halves, xGreen, n, xGreenTerm)
        return ((rounded(rb) &>> 8) & halves) | (rounded(xg) & SIMD8<UInt32>(repeating: 0xFF00_FF00))
    }

    @inlinable @inline(__always)
    func sum(_ d: SIMD8<UInt32>, _ s: UInt32, _ n: SIMD8<UInt32>, _ term: UInt32) -> SIMD8<UInt32> {
        typealias Words = SIMD16<UInt16>
        let difference = unsafeBitCast(d, to: Words.self) &- unsafeBitCast(SIMD8<UInt32>(repeating: s), to: Words.self)
        let product = difference &* unsafeBitCast(n, to: Words.self)
        return unsafeBitCast(
            product &+ unsafeBitCast(SIMD8<UInt32>(repeating: term), to: Words.self), to: SIMD8<UInt32>.self)
    }

    @inlinable @inline(__always)
    func rounded(_ x: SIMD8<UInt32>) -> SIMD8<UInt32> {
        x &+ ((x &>> 8) & SIMD8<UInt32>(repeating: 0x00FF_00FF))
    }

    /// The same values on one pixel, each channel on its own: d·n + s·m + 128 is the value the
    /// vector forms compute modulo 2^16, exactly.
    @inlinable @inline(__always)
    public func blendPixel(_ destination: UInt32, coverage: UInt8) -> UInt32 {
        let m = UInt32(coverage)
        let n = 255 - m
        @inline(__always) func channel(_ shift: UInt32, _ s: UInt32) -> UInt32 {
            let x = (destination >> shift & 0xFF) * n + (s & 0xFF) * m + 128
            return ((x + (x >> 8)) >> 8) << shift
        }
        return channel(24, xGreen >> 16) | channel(16, redBlue >> 16) | channel(8, xGreen) | channel(0, redBlue)
    }
}

/// `byteAsFloat` on 8 lanes.
@inlinable @inline(__always)
func halfAsFloat(_ value: SIMD8<UInt32>) -> SIMD8<Float> {
    unsafeBitCast(value | SIMD8<UInt32>(repeating: 0x4B00_0000), to: SIMD8<Float>.self) - 8_388_608.0
}

/// Source-over for glyph pixels: out = round(d + (s − d)·α) as `blend(_:_:alpha:)` computes it,
/// with one float operation less per channel. Each destination byte d is read as the float
/// 1.5·2^23 + d (its bits OR 0x4B40_0000, exact), so adding (s − d)·α to it rounds to the nearest
/// integer in that one addition; `blend` adds (s − d)·α to d and then adds 1.5·2^23 to round,
/// two roundings. The two differ only where d + (s − d)·α lies within about 2^-16 of a half
/// (text-page: 2·10^-4 of its blends), by one.
@inlinable @inline(__always)
func blendGlyph(_ destination: PixelVector, _ source: SourceColor, alpha: LaneFloats) -> PixelVector {
    let byte = PixelVector(repeating: 0xFF)
    let bits = PixelVector(repeating: 0x4B40_0000)
    let magic = LaneFloats(repeating: 12_582_912.0)
    let dr = unsafeBitCast(((destination &>> 16) & byte) | bits, to: LaneFloats.self)
    let dg = unsafeBitCast(((destination &>> 8) & byte) | bits, to: LaneFloats.self)
    let db = unsafeBitCast((destination & byte) | bits, to: LaneFloats.self)
    // The sums' bits are 0x4B40_00vv: shifted left by 16 only vv survives; shifted by 8, the
    // stray 0x40 lands in the X byte, which is set to 0xFF anyway; blue needs a mask.
    let r = unsafeBitCast(dr + (source.red - (dr - magic)) * alpha, to: PixelVector.self)
    let g = unsafeBitCast(dg + (source.green - (dg - magic)) * alpha, to: PixelVector.self)
    let b = unsafeBitCast(db + (source.blue - (db - magic)) * alpha, to: PixelVector.self) & byte
    return (r &<< 16) | (g &<< 8) | b | PixelVector(repeating: 0xFF00_0000)
}

/// `blendGlyph` on 8 lanes: the same operations in the same order, so the same bytes.
@inlinable @inline(__always)
func blendHalf(_ destination: SIMD8<UInt32>, _ source: SourceColor, alpha: SIMD8<Float>) -> SIMD8<UInt32> {
    let byte = SIMD8<UInt32>(repeating: 0xFF)
    let bits = SIMD8<UInt32>(repeating: 0x4B40_0000)
    let magic = SIMD8<Float>(repeating: 12_582_912.0)
    let dr = unsafeBitCast(((destination &>> 16) & byte) | bits, to: SIMD8<Float>.self)
    let dg = unsafeBitCast(((destination &>> 8) & byte) | bits, to: SIMD8<Float>.self)
    let db = unsafeBitCast((destination & byte) | bits, to: SIMD8<Float>.self)
    let r = unsafeBitCast(dr + (source.red - (dr - magic)) * alpha, to: SIMD8<UInt32>.self)
    let g = unsafeBitCast(dg + (source.green - (dg - magic)) * alpha, to: SIMD8<UInt32>.self)
    let b = unsafeBitCast(db + (source.blue - (db - magic)) * alpha, to: SIMD8<UInt32>.self) & byte
    return (r &<< 16) | (g &<< 8) | b | SIMD8<UInt32>(repeating: 0xFF00_0000)
}

/// `blendGlyph` on one pixel, lane for lane the same arithmetic (a pixel at the surface's right
/// edge takes this path, and the same pixel under another clip may take the vector one).
@inlinable @inline(__always)
func blendGlyphPixel(_ destination: UInt32, _ source: SourceColor, alpha: Float) -> UInt32 {
    @inline(__always) func channel(_ d: UInt32, _ s: Float) -> UInt32 {
        let dm = Float(bitPattern: (d & 0xFF) | 0x4B40_0000)
        return (dm + (s - (dm - 12_582_912.0)) * alpha).bitPattern & 0xFF
    }
    return 0xFF00_0000 | channel(destination >> 16, source.red) << 16
        | channel(destination >> 8, source.green) << 8 | channel(destination, source.blue)
}

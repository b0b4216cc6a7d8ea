/// Composites a glyph run: each mask row in 16-lane vectors, coverage · source alpha, source-over.
///
/// A vector is loaded from the mask at any column (masks are zero-padded, see `CoverageMask`);
/// an all-zero vector costs one compare. Where the whole 16-pixel destination vector lies in the
/// row, it is blended at once and lanes of zero coverage keep their old pixel exactly (a select,
/// so pixels outside the glyph or the clip are rewritten with their own value by the thread that
/// owns the row); at the row's right end the lanes are blended one by one, with the same
/// arithmetic. Each pixel's result depends only on its own coverage, so any band or clip gives the
/// same bytes. A glyph's row vectors and its last vector's mask are worked out once per glyph, and
/// a last vector of at most 8 lanes is blended 8 wide (half the cost on Zen 4, which splits
/// 16-lane operations); rows advance by pointer. The blend is `FloatGlyphBlend` (`blendGlyph`,
/// rounding in one addition) or, for opaque colours of whole bytes, `ExactGlyphBlend` (the same
/// bytes in 16-bit integer products). text-page.json (3124 glyphs, 1080p, one thread, tuned,
/// 2-core Zen 4 EPYC, load 1.5, 2026-12-03 15:26 UTC, alternating with main's binary): 0.52–0.58
/// ms a frame with its background and two wave fills against Cairo's 2.24–2.57 ms, 4.3–4.6×
/// (main's 3.9–4.3× in the same minutes); the quiet-machine figure before these changes was
/// 3.4–4.0×. Merging a line's glyph rows into one coverage row per frame row, prefetching the
/// destination and inlining this loop into the glyph loop were not faster (docs/speed.md, "Text").
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
    // into two halves (Zen 4) that halves its cost, and most glyphs at text sizes are ≤ 8 px.
    let half = lastCount <= laneCount / 2
    // Row and mask pointers advance by their strides, in wrapping arithmetic (the clip keeps
    // every address inside the surface and the mask): no multiply and no overflow check per row.
    // One loop each for the 8- and 16-lane last vector, so the choice is not made per row.
    let rows = GlyphRows(
        count: bottom &- top, pixels: surface.base + top &* surface.stride,
        coverage: glyph.coverage + ((top &- gy) &* stride &- gx), stride: stride, left: left, lastX: lastX,
        lastCount: lastCount)
    if half {
        compositeRows(surface, rows, blender, half: true, lastMask)
    } else {
        compositeRows(surface, rows, blender, half: false, lastMask)
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

/// The rows of one glyph: whole 16-lane vectors from `left` to `lastX`, then the last vector, 8
/// or 16 lanes wide (`half` is a constant at each call, so each call is a loop of its own).
@inlinable @inline(__always)
func compositeRows<Blender: GlyphBlender>(
    _ surface: PixelSurface, _ rows: GlyphRows, _ blender: Blender, half: Bool, _ lastMask: SIMD16<UInt8>
) {
    var pixels = rows.pixels
    var coverageRow = rows.coverage
    var count = rows.count
    repeat {
        let row = pixels.assumingMemoryBound(to: UInt32.self)
        var x = rows.left
        while x < rows.lastX {
            compositeVector(row, at: x, count: laneCount, surface.width, blender, coverageRow, SIMD16(repeating: 0xFF))
            x &+= laneCount
        }
        if half {
            compositeHalfVector(
                row, at: rows.lastX, count: rows.lastCount, surface.width, blender, coverageRow, lastMask.lowHalf)
        } else {
            compositeVector(row, at: rows.lastX, count: rows.lastCount, surface.width, blender, coverageRow, lastMask)
        }
        pixels += surface.stride
        coverageRow += rows.stride
        count &-= 1
    } while count > 0
}

/// Blends the 16 lanes of coverage at `x` (ANDed with `mask`) unless they are all zero.
@inlinable @inline(__always)
func compositeVector<Blender: GlyphBlender>(
    _ row: UnsafeMutablePointer<UInt32>, at x: Int, count: Int, _ width: Int, _ blender: Blender,
    _ coverageRow: UnsafePointer<UInt8>, _ mask: SIMD16<UInt8>
) {
    let bytes = UnsafeRawPointer(coverageRow + x).loadUnaligned(as: SIMD16<UInt8>.self) & mask
    let halves = unsafeBitCast(bytes, to: SIMD2<UInt64>.self)
    guard halves[0] | halves[1] != 0 else { return }
    compositeLanes(row, at: x, count: count, width, blender, bytes)
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
    _ row: UnsafeMutablePointer<UInt32>, at x: Int, count: Int, _ width: Int, _ blender: Blender,
    _ bytes: SIMD16<UInt8>
) {
    let coverage = widened(bytes)
    if x + laneCount <= width {
        let p = UnsafeMutableRawPointer(row + x)
        let old = p.loadUnaligned(as: PixelVector.self)
        // All ones where the coverage is 0: (0 − 1) >> 31 = 1, (c − 1) >> 31 = 0 for c in 1...255.
        let untouched = PixelVector(repeating: 0) &- ((coverage &- 1) &>> 31)
        p.storeBytes(
            of: (blender.blend(old, coverage: coverage) & ~untouched) | (old & untouched), as: PixelVector.self)
    } else {
        for i in 0..<count where bytes[i] != 0 { row[x + i] = blender.blendPixel(row[x + i], coverage: bytes[i]) }
    }
}

/// As `compositeVector` for 8 lanes, with the same arithmetic lane for lane (same bytes).
@inlinable @inline(__always)
func compositeHalfVector<Blender: GlyphBlender>(
    _ row: UnsafeMutablePointer<UInt32>, at x: Int, count: Int, _ width: Int, _ blender: Blender,
    _ coverageRow: UnsafePointer<UInt8>, _ mask: SIMD8<UInt8>
) {
    let bytes = UnsafeRawPointer(coverageRow + x).loadUnaligned(as: SIMD8<UInt8>.self) & mask
    guard unsafeBitCast(bytes, to: UInt64.self) != 0 else { return }
    var coverage = SIMD8<UInt32>()
    for i in 0..<8 { coverage[i] = UInt32(bytes[i]) }
    if x + 8 <= width {
        let p = UnsafeMutableRawPointer(row + x)
        let old = p.loadUnaligned(as: SIMD8<UInt32>.self)
        let untouched = SIMD8<UInt32>(repeating: 0) &- ((coverage &- 1) &>> 31)
        p.storeBytes(
            of: (blender.blend(old, coverage: coverage) & ~untouched) | (old & untouched), as: SIMD8<UInt32>.self)
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

/// An opaque source whose channels are whole bytes s (colours given as bytes, "#RRGGBB"), in
/// integer arithmetic: out = round((d·(255 − m) + s·m) / 255) per channel, for coverage m.
/// `blendGlyph` computes the same rational in float and rounds it once; the rational is k/255,
/// never closer than 1/510 to a half, and float's error is below 10^-4, so the bytes are the
/// same (GlyphBlendTests checks all 256³ (d, s, m)). Two channels a 32-bit lane (R and B, then
/// G and X, each in 16 bits: d·(255 − m) + s·m ≤ 65025), multiplied as 16-bit lanes
/// (`vpmullw`), shifted and masked as 32-bit lanes: Swift compiles 16-bit lane shifts and masks
/// to lane loops. Round-dividing by 255: x = v + 128, (x + (x >> 8)) >> 8, exact for v ≤ 65025,
/// and x + (x >> 8) ≤ 65407 never carries into the next half. A translucent source, or a
/// channel with a fraction (0.1 · 255 = 25.5: the float result near ties depends on float's
/// own error), takes `FloatGlyphBlend`.
public struct ExactGlyphBlend: GlyphBlender {
    /// The source's red and blue (bits 16 and 0), and its green (bit 0), as 16-bit halves.
    @usableFromInline let redBlue: UInt32
    @usableFromInline let green: UInt32

    @inlinable public init?(_ source: SourceColor) {
        @inline(__always) func byte(_ value: Float) -> UInt32? {
            value >= 0 && value <= 255 && value == value.rounded(.down) ? UInt32(value) : nil
        }
        guard source.alpha == 1, let r = byte(source.red), let g = byte(source.green), let b = byte(source.blue)
        else { return nil }
        redBlue = r << 16 | b
        green = g
    }

    @inlinable @inline(__always)
    public func blend(_ destination: PixelVector, coverage: PixelVector) -> PixelVector {
        // Coverage and its complement in both 16-bit halves of each lane.
        let m = coverage | coverage &<< 16
        let n = PixelVector(repeating: 0x00FF_00FF) &- m
        let halves = PixelVector(repeating: 0x00FF_00FF)
        let rb = destination & halves
        let ag = (destination &>> 8) & halves
        let rbSum = product(rb, n) &+ product(PixelVector(repeating: redBlue), m)
        let agSum = product(ag, n) &+ product(PixelVector(repeating: green), m)
        let rbOut = (dividedBy255(rbSum) &>> 8) & halves
        let gOut = dividedBy255(agSum) & PixelVector(repeating: 0x0000_FF00)
        return rbOut | gOut | PixelVector(repeating: 0xFF00_0000)
    }

    /// The 16-bit lane products a · b (`vpmullw`); every product here is ≤ 65025.
    @inlinable @inline(__always)
    func product(_ a: PixelVector, _ b: PixelVector) -> PixelVector {
        unsafeBitCast(
            unsafeBitCast(a, to: SIMD32<UInt16>.self) &* unsafeBitCast(b, to: SIMD32<UInt16>.self),
            to: PixelVector.self)
    }

    /// round(v / 255) of each 16-bit half, in the high byte of the half (bits 8–15, 24–31).
    @inlinable @inline(__always)
    func dividedBy255(_ v: PixelVector) -> PixelVector {
        let x = v &+ PixelVector(repeating: 0x0080_0080)
        return x &+ ((x &>> 8) & PixelVector(repeating: 0x00FF_00FF))
    }

    @inlinable @inline(__always)
    public func blend(_ destination: SIMD8<UInt32>, coverage: SIMD8<UInt32>) -> SIMD8<UInt32> {
        let m = coverage | coverage &<< 16
        let n = SIMD8<UInt32>(repeating: 0x00FF_00FF) &- m
        let halves = SIMD8<UInt32>(repeating: 0x00FF_00FF)
        let rb = destination & halves
        let ag = (destination &>> 8) & halves
        let rbSum = product(rb, n) &+ product(SIMD8(repeating: redBlue), m)
        let agSum = product(ag, n) &+ product(SIMD8(repeating: green), m)
        let rbOut = (dividedBy255(rbSum) &>> 8) & halves
        let gOut = dividedBy255(agSum) & SIMD8(repeating: 0x0000_FF00)
        return rbOut | gOut | SIMD8(repeating: 0xFF00_0000)
    }

    @inlinable @inline(__always)
    func product(_ a: SIMD8<UInt32>, _ b: SIMD8<UInt32>) -> SIMD8<UInt32> {
        unsafeBitCast(
            unsafeBitCast(a, to: SIMD16<UInt16>.self) &* unsafeBitCast(b, to: SIMD16<UInt16>.self),
            to: SIMD8<UInt32>.self)
    }

    @inlinable @inline(__always)
    func dividedBy255(_ v: SIMD8<UInt32>) -> SIMD8<UInt32> {
        let x = v &+ SIMD8(repeating: 0x0080_0080)
        return x &+ ((x &>> 8) & SIMD8(repeating: 0x00FF_00FF))
    }

    /// The same arithmetic on one pixel (a 32-bit multiply by m, not by m in both halves,
    /// keeps the halves' products apart: b·(255 − m) ≤ 65025 stays below bit 16).
    @inlinable @inline(__always)
    public func blendPixel(_ destination: UInt32, coverage: UInt8) -> UInt32 {
        let m = UInt32(coverage)
        let n = 255 - m
        let rbSum = (destination & 0x00FF_00FF) &* n &+ redBlue &* m
        let agSum = (destination >> 8 & 0x00FF) &* n &+ green &* m
        let rb = rbSum &+ 0x0080_0080
        let ag = agSum &+ 0x0080_0080
        let rbOut = ((rb &+ ((rb >> 8) & 0x00FF_00FF)) >> 8) & 0x00FF_00FF
        let gOut = (ag &+ ((ag >> 8) & 0x00FF_00FF)) & 0x0000_FF00
        return 0xFF00_0000 | rbOut | gOut
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

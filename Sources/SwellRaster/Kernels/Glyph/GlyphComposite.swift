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
/// 16-lane operations). The blend (`blendGlyph`) rounds in one addition, one float operation a
/// channel less than `blend`. text-page.json (3124 glyphs, 1080p, one thread, tuned, 2-core Zen 4
/// EPYC, quiet machine, load 0.1, 2026-12-03 11:35 UTC): 0.40–0.45 ms a frame with its background
/// and two wave fills against Cairo's 1.54–1.57 ms, Cairo/Swell 3.4–3.85×. Merging a line's glyph
/// rows into one coverage row per frame row, written once over virtual rows, gave the same bytes
/// and was not faster (docs/speed.md, "Text").
@inlinable
public func fillGlyphs(_ surface: PixelSurface, _ run: GlyphRun, _ source: SourceColor, clip: ClipRect) {
    let area = clip.intersection(run.bounds).intersection(surface.bounds)
    guard !area.isEmpty, source.alpha > 0 else { return }
    run.glyphs.withUnsafeBufferPointer { glyphs in
        for glyph in glyphs { compositeGlyph(surface, glyph, source, area) }
    }
}

@inlinable
func compositeGlyph(_ surface: PixelSurface, _ glyph: PlacedGlyph, _ source: SourceColor, _ clip: ClipRect) {
    let gx = Int(glyph.x)
    let gy = Int(glyph.y)
    let top = max(gy, clip.y0)
    let bottom = min(gy + Int(glyph.height), clip.y1)
    let left = max(gx, clip.x0)
    let right = min(gx + Int(glyph.width), clip.x1)
    guard top < bottom, left < right else { return }
    let scale = LaneFloats(repeating: source.alpha / 255)
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
    let halfMask = lastMask.lowHalf
    let halfScale = SIMD8<Float>(repeating: source.alpha / 255)
    for y in top..<bottom {
        let row = surface.row(y)
        let coverageRow = glyph.coverage + (y - gy) * stride - gx
        var x = left
        while x < lastX {
            compositeVector(
                row, at: x, count: laneCount, surface.width, source, coverageRow, SIMD16(repeating: 0xFF), scale)
            x += laneCount
        }
        if half {
            compositeHalfVector(
                row, at: lastX, count: lastCount, surface.width, source, coverageRow, halfMask, halfScale)
        } else {
            compositeVector(row, at: lastX, count: lastCount, surface.width, source, coverageRow, lastMask, scale)
        }
    }
}

/// Blends the 16 lanes of coverage at `x` (ANDed with `mask`) unless they are all zero.
@inlinable @inline(__always)
func compositeVector(
    _ row: UnsafeMutablePointer<UInt32>, at x: Int, count: Int, _ width: Int, _ source: SourceColor,
    _ coverageRow: UnsafePointer<UInt8>, _ mask: SIMD16<UInt8>, _ scale: LaneFloats
) {
    let bytes = UnsafeRawPointer(coverageRow + x).loadUnaligned(as: SIMD16<UInt8>.self) & mask
    let halves = unsafeBitCast(bytes, to: SIMD2<UInt64>.self)
    guard halves[0] | halves[1] != 0 else { return }
    compositeLanes(row, at: x, count: count, width, source, bytes, scale)
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
func compositeLanes(
    _ row: UnsafeMutablePointer<UInt32>, at x: Int, count: Int, _ width: Int, _ source: SourceColor,
    _ bytes: SIMD16<UInt8>, _ scale: LaneFloats
) {
    let coverage = widened(bytes)
    let alpha = byteAsFloat(coverage) * scale
    if x + laneCount <= width {
        let p = UnsafeMutableRawPointer(row + x)
        let old = p.loadUnaligned(as: PixelVector.self)
        // All ones where the coverage is 0: (0 − 1) >> 31 = 1, (c − 1) >> 31 = 0 for c in 1...255.
        let untouched = PixelVector(repeating: 0) &- ((coverage &- 1) &>> 31)
        p.storeBytes(
            of: (blendGlyph(old, source, alpha: alpha) & ~untouched) | (old & untouched), as: PixelVector.self)
    } else {
        for i in 0..<count where bytes[i] != 0 { row[x + i] = blendGlyphPixel(row[x + i], source, alpha: alpha[i]) }
    }
}

/// As `compositeVector` for 8 lanes, with the same arithmetic lane for lane (same bytes).
@inlinable @inline(__always)
func compositeHalfVector(
    _ row: UnsafeMutablePointer<UInt32>, at x: Int, count: Int, _ width: Int, _ source: SourceColor,
    _ coverageRow: UnsafePointer<UInt8>, _ mask: SIMD8<UInt8>, _ scale: SIMD8<Float>
) {
    let bytes = UnsafeRawPointer(coverageRow + x).loadUnaligned(as: SIMD8<UInt8>.self) & mask
    guard unsafeBitCast(bytes, to: UInt64.self) != 0 else { return }
    var coverage = SIMD8<UInt32>()
    for i in 0..<8 { coverage[i] = UInt32(bytes[i]) }
    let alpha = halfAsFloat(coverage) * scale
    if x + 8 <= width {
        let p = UnsafeMutableRawPointer(row + x)
        let old = p.loadUnaligned(as: SIMD8<UInt32>.self)
        let untouched = SIMD8<UInt32>(repeating: 0) &- ((coverage &- 1) &>> 31)
        p.storeBytes(
            of: (blendHalf(old, source, alpha: alpha) & ~untouched) | (old & untouched), as: SIMD8<UInt32>.self)
    } else {
        for i in 0..<count where bytes[i] != 0 { row[x + i] = blendGlyphPixel(row[x + i], source, alpha: alpha[i]) }
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

/// Composites a glyph run (one text command) through a tile of coverage rows, for the banded
/// renderer: each glyph row is ORed into the tile's row at the glyph's column, and each tile
/// row is then blended once, 16 pixels at a time, over the merged extent.
///
/// Why: at text sizes (17–21 px) a glyph row is one short vector, and `compositeGlyph` paid
/// per glyph row for the blend's set-up, the zero test, the destination load and store and
/// its bookkeeping (docs/speed.md, "Text"). Merged, a line's row is a few full vectors.
///
/// Same bytes as `fillGlyphs`: a pixel under the ink of one glyph gets one blend with that
/// glyph's coverage, in either path. Anti-aliased neighbours often share a pixel column (the
/// right edge of one glyph and the left edge of the next), so the tile has a second layer: a
/// glyph vector whose ink would land on ink of the first layer goes to the second, which is
/// blended after the first, so that pixel gets the earlier glyph's blend and then the later
/// one's, in run order, as `fillGlyphs` does. Ink that would land on ink of the second layer
/// (three glyphs on one pixel) blends the row and empties it first. Blending a row early never
/// reorders a pixel's blends: every coverage in the tile comes from glyphs before the one
/// being added, and a vector joins the first layer only where the second has no ink.
///
/// Rows of `rows` (the band's virtual rows; nil: the surface is all written) are written only
/// when ink lands in them, and then in one pass (`writeVirtualRow`), blending over their known
/// colour without reading it; a row of the run without ink stays virtual.
@inlinable
func fillGlyphRows(
    _ surface: PixelSurface, _ run: GlyphRun, _ source: SourceColor, clip: ClipRect, tile: GlyphTile,
    rows: UniformRows?, flat: FlatRows? = nil
) {
    let area = clip.intersection(run.bounds).intersection(surface.bounds)
    guard !area.isEmpty, source.alpha > 0 else { return }
    let blender = GlyphRowBlender(
        surface: surface, area: area, tile: tile, rows: rows, flat: flat, source: source)
    run.glyphs.withUnsafeBufferPointer { glyphs in
        var top = area.y0
        while top < area.y1 {
            let bottom = min(area.y1, top + blender.tileRows)
            // Bytes of the tile from `reach` on are zero in every row: no glyph added so far
            // in these rows wrote ink there.
            var reach = Int.min
            for glyph in glyphs { blender.add(glyph, rows: top..<bottom, reach: &reach) }
            for y in top..<bottom { blender.flush(y, tileTop: top) }
            top = bottom
        }
    }
}

/// One worker's coverage tile: two layers of up to `GlyphTile.rows` rows each, all zero
/// between runs (every use empties what it wrote), and each row's extent in each layer.
@usableFromInline
struct GlyphTile: @unchecked Sendable {
    /// Rows per tile: its first layer at text widths (~900 px) stays within a 32 KiB L1.
    @usableFromInline static let rows = 16
    /// Bytes beyond the area's width a tile row needs: a glyph vector starting at the area's
    /// last column runs 15 bytes past it, and the blend's last 16-byte load 15 more.
    @usableFromInline static let spare = 48

    @usableFromInline let bytes: UnsafeMutablePointer<UInt8>
    @usableFromInline let capacity: Int
    /// Per tile row, the first and end byte written (first > end: empty); the second layer's
    /// from `rows` on.
    @usableFromInline let extents: UnsafeMutablePointer<SIMD2<Int32>>

    @inlinable
    init(bytes: UnsafeMutablePointer<UInt8>, capacity: Int, extents: UnsafeMutablePointer<SIMD2<Int32>>) {
        self.bytes = bytes
        self.capacity = capacity
        self.extents = extents
    }

    /// The bytes a tile (both layers) for areas up to `width` pixels wide needs.
    @inlinable static func capacity(width: Int) -> Int { 2 * rows * ((width + spare + 15) & ~15) }

    @inlinable static var empty: SIMD2<Int32> { SIMD2(Int32.max, 0) }
}

/// The state of one run's composite, worked out once: the values the per-row loops need.
@usableFromInline
struct GlyphRowBlender {
    @usableFromInline let surface: PixelSurface
    @usableFromInline let area: ClipRect
    @usableFromInline let tile: GlyphTile
    @usableFromInline let rows: UniformRows?
    @usableFromInline let flat: FlatRows?
    @usableFromInline let source: SourceColor
    @usableFromInline let scale: LaneFloats
    /// Bytes per tile row, and from a row of the first layer to the same row of the second.
    @usableFromInline let stride: Int
    @usableFromInline let layer: Int
    @usableFromInline let tileRows: Int

    @inlinable
    init(
        surface: PixelSurface, area: ClipRect, tile: GlyphTile, rows: UniformRows?, flat: FlatRows?,
        source: SourceColor
    ) {
        self.surface = surface
        self.area = area
        self.tile = tile
        self.rows = rows
        self.flat = flat
        self.source = source
        scale = LaneFloats(repeating: source.alpha / 255)
        stride = (area.x1 - area.x0 + GlyphTile.spare + 15) & ~15
        tileRows = min(GlyphTile.rows, tile.capacity / (2 * stride))
        layer = tileRows * stride
        precondition(tileRows >= 1, "the glyph tile is smaller than a row of the band")
    }

    /// ORs `glyph`'s rows among `rows` (tile rows from `rows.lowerBound`) into the tile, within
    /// the area's columns (a vector may run past the area's right edge: those bytes are
    /// emptied, never blended).
    @inlinable @inline(__always)
    func add(_ glyph: PlacedGlyph, rows: Range<Int>, reach: inout Int) {
        let gx = Int(glyph.x)
        let gy = Int(glyph.y)
        let top = max(gy, rows.lowerBound)
        let bottom = min(gy + Int(glyph.height), rows.upperBound)
        let left = max(gx, area.x0)
        let right = min(gx + Int(glyph.width), area.x1)
        guard top < bottom, left < right else { return }
        let vectors = (right - left + laneCount - 1) / laneCount
        let first = Int32(left - area.x0)
        let end = first + Int32(vectors * laneCount)
        let glyphStride = Int(glyph.stride)
        var from = glyph.coverage + (top - gy) * glyphStride + (left - gx)
        var into = tile.bytes + (top - rows.lowerBound) * stride + (left - area.x0)
        // Past the right edge a glyph's vectors carry its mask's zero padding, unless the area
        // cuts it: then they may carry ink.
        let clear = left >= reach
        reach = right < gx + Int(glyph.width) ? Int.max : max(reach, right)
        if clear {
            // The tile is zero from `left` on: the glyph's vectors are stored, not merged.
            for _ in top..<bottom {
                for v in 0..<vectors {
                    let ink = UnsafeRawPointer(from + v * laneCount).loadUnaligned(as: SIMD16<UInt8>.self)
                    UnsafeMutableRawPointer(into + v * laneCount).storeBytes(of: ink, as: SIMD16<UInt8>.self)
                }
                from += glyphStride
                into += stride
            }
            for row in top - rows.lowerBound..<bottom - rows.lowerBound {
                let extent = tile.extents + row
                extent.pointee = SIMD2(min(extent.pointee.x, first), max(extent.pointee.y, end))
            }
            return
        }
        for y in top..<bottom {
            let extent = tile.extents + (y - rows.lowerBound)
            // The second layer is all zero outside its extent: most rows never use it. What this
            // glyph row puts there lies under its own other vectors' pixels, so checked once.
            let secondInUse = extent[GlyphTile.rows].x < extent[GlyphTile.rows].y
            for v in 0..<vectors {
                let offset = v * laneCount
                let ink = UnsafeRawPointer(from + offset).loadUnaligned(as: SIMD16<UInt8>.self)
                let held = UnsafeRawPointer(into + offset).loadUnaligned(as: SIMD16<UInt8>.self)
                if overlaps(ink, held) || secondInUse {
                    addOverlapping(ink, into + offset, y, tileTop: rows.lowerBound, first + Int32(offset))
                } else {
                    UnsafeMutableRawPointer(into + offset).storeBytes(of: held | ink, as: SIMD16<UInt8>.self)
                }
            }
            extent.pointee = SIMD2(min(extent.pointee.x, first), max(extent.pointee.y, end))
            from += glyphStride
            into += stride
        }
    }

    /// Adds a glyph vector whose ink overlaps the first layer's, or whose row has ink in the
    /// second: to the second layer if it overlaps no ink there and does overlap the first
    /// layer's (ink going to the first layer must not precede second-layer ink on its pixel),
    /// else after blending the row, to the first.
    @inlinable
    func addOverlapping(
        _ ink: SIMD16<UInt8>, _ into: UnsafeMutablePointer<UInt8>, _ y: Int, tileTop: Int, _ first: Int32
    ) {
        let held = UnsafeRawPointer(into).loadUnaligned(as: SIMD16<UInt8>.self)
        let second = UnsafeMutableRawPointer(into + layer)
        let heldSecond = second.loadUnaligned(as: SIMD16<UInt8>.self)
        if overlaps(ink, heldSecond) {
            flush(y, tileTop: tileTop)
            UnsafeMutableRawPointer(into).storeBytes(of: ink, as: SIMD16<UInt8>.self)
        } else if overlaps(ink, held) {
            second.storeBytes(of: heldSecond | ink, as: SIMD16<UInt8>.self)
            let extent = tile.extents + (GlyphTile.rows + y - tileTop)
            extent.pointee = SIMD2(min(extent.pointee.x, first), max(extent.pointee.y, first + Int32(laneCount)))
        } else {
            UnsafeMutableRawPointer(into).storeBytes(of: held | ink, as: SIMD16<UInt8>.self)
        }
    }

    /// Blends tile row `y` (frame row; the tile's first row is `tileTop`) into the surface, the
    /// first layer then the second, and empties it. A virtual row is written in one pass.
    @inlinable
    func flush(_ y: Int, tileTop: Int) {
        let extent = tile.extents + (y - tileTop)
        let firstLayer = Int(extent.pointee.x)..<max(Int(extent.pointee.x), Int(extent.pointee.y))
        let secondExtent = extent + GlyphTile.rows
        let secondLayer = Int(secondExtent.pointee.x)..<max(Int(secondExtent.pointee.x), Int(secondExtent.pointee.y))
        guard !firstLayer.isEmpty || !secondLayer.isEmpty else { return }
        extent.pointee = GlyphTile.empty
        secondExtent.pointee = GlyphTile.empty
        let coverage = tile.bytes + (y - tileTop) * stride
        // The columns this row's blends may change.
        let touched = Int32(area.x0 + min(firstLayer.lowerBound, secondLayer.lowerBound))
        let reached = Int32(area.x0 + min(max(firstLayer.upperBound, secondLayer.upperBound), area.x1 - area.x0))
        if let rows, rows.colors[y] != UniformRows.written {
            let under = rows.colors[y]
            writeVirtualRow(y, coverage, firstLayer, under: under, columns: rows.columns)
            rows.colors[y] = UniformRows.written
            flat?.record(y, under, touched..<reached)
        } else if let flat, let under = flat.color(y, outside: touched..<reached) {
            writeFlat(y, coverage, firstLayer, under: under, fillsBlanks: false)
            flat.record(y, under, touched..<reached)
        } else {
            blendTileRow(y, coverage, firstLayer)
        }
        if !secondLayer.isEmpty { blendTileRow(y, coverage + layer, secondLayer) }
    }

    /// Blends the tile row `coverage` over `extent` into row `y`, and empties it.
    @inlinable @inline(__always)
    func blendTileRow(_ y: Int, _ coverage: UnsafeMutablePointer<UInt8>, _ extent: Range<Int>) {
        let row = surface.row(y) + area.x0
        let width = area.x1 - area.x0
        let room = surface.width - area.x0
        var x = extent.lowerBound
        while x < extent.upperBound {
            let p = UnsafeMutableRawPointer(coverage + x)
            var bytes = p.loadUnaligned(as: SIMD16<UInt8>.self)
            p.storeBytes(of: SIMD16(repeating: 0), as: SIMD16<UInt8>.self)
            if x + laneCount > width { bytes &= lanesBelow(width - x) }
            let halves = unsafeBitCast(bytes, to: SIMD2<UInt64>.self)
            if halves[0] | halves[1] != 0 {
                compositeLanes(row, at: x, count: min(laneCount, width - x), room, source, bytes, scale)
            }
            x += laneCount
        }
    }
}

extension GlyphRowBlender {
    /// Writes virtual row `y` (every pixel `under` in `columns`) in one pass: `under` outside
    /// the tile row's extent, the blend over `under` inside (`writeFlat`).
    @inlinable @inline(__always)
    func writeVirtualRow(
        _ y: Int, _ coverage: UnsafeMutablePointer<UInt8>, _ extent: Range<Int>, under: UInt32, columns: Range<Int>
    ) {
        let row = surface.row(y)
        let start = area.x0 + extent.lowerBound
        let stop = min(area.x0 + extent.upperBound, area.x1)
        (row + columns.lowerBound).update(repeating: under, count: start - columns.lowerBound)
        writeFlat(y, coverage, extent, under: under, fillsBlanks: true)
        (row + stop).update(repeating: under, count: columns.upperBound - stop)
    }

    /// Blends the tile row over `extent` into row `y`, whose pixels there are all `under`, and
    /// empties it. The blend is `blendGlyph`'s with the destination's terms worked out once
    /// (`FlatGlyphBlend`), so the same bytes, and no pixel is read. Vectors without coverage
    /// are stored as `under` when `fillsBlanks` (the row is not written yet), else skipped.
    @inlinable @inline(__always)
    func writeFlat(
        _ y: Int, _ coverage: UnsafeMutablePointer<UInt8>, _ extent: Range<Int>, under: UInt32, fillsBlanks: Bool
    ) {
        let row = surface.row(y)
        let width = area.x1 - area.x0
        let flat = FlatGlyphBlend(under: under, source)
        let halfScale = SIMD8<Float>(repeating: source.alpha / 255)
        var x = extent.lowerBound
        while x < width && x < extent.upperBound {
            let p = UnsafeMutableRawPointer(coverage + x)
            let bytes = p.loadUnaligned(as: SIMD16<UInt8>.self)
            p.storeBytes(of: SIMD16(repeating: 0), as: SIMD16<UInt8>.self)
            let target = UnsafeMutableRawPointer(row + area.x0 + x)
            let halves = unsafeBitCast(bytes, to: SIMD2<UInt64>.self)
            if x + laneCount <= width {
                // Each half of 8 pixels on its own: ink often fills only one, and on Zen 4 an
                // 8-lane operation costs half a 16-lane one.
                flat.write(halves[0], to: target, scale: halfScale, fillsBlanks: fillsBlanks)
                flat.write(halves[1], to: target + 32, scale: halfScale, fillsBlanks: fillsBlanks)
            } else {
                let alpha = byteAsFloat(widened(bytes)) * scale
                for i in 0..<width - x { row[area.x0 + x + i] = blendGlyphPixel(under, source, alpha: alpha[i]) }
            }
            x += laneCount
        }
        while x < extent.upperBound {
            UnsafeMutableRawPointer(coverage + x).storeBytes(of: SIMD16(repeating: 0), as: SIMD16<UInt8>.self)
            x += laneCount
        }
    }
}

/// Rows written by glyph runs whose pixels outside one span of columns are all one colour (the
/// row's virtual colour before a run wrote it), so the next run on the row, beside that span (the
/// next column of a menu), blends over the known colour without reading the row. An entry holds
/// only for its `generation`: the band's renderer starts a new one for every command that is not
/// an unplaced glyph run, since any other drawing may change the row anywhere.
@usableFromInline
struct FlatRows {
    /// Indexed by frame row (offset by the band's top).
    @usableFromInline let entries: UnsafeMutablePointer<FlatRow>
    @usableFromInline let generation: UInt64

    @inlinable
    init(entries: UnsafeMutablePointer<FlatRow>, generation: UInt64) {
        self.entries = entries
        self.generation = generation
    }

    /// The colour of row `y` in `columns`, if the row is known to be that colour there.
    @inlinable @inline(__always)
    func color(_ y: Int, outside columns: Range<Int32>) -> UInt32? {
        let entry = entries[y]
        guard entry.generation == generation, columns.upperBound <= entry.start || columns.lowerBound >= entry.end
        else { return nil }
        return entry.color
    }

    /// Records that row `y` is `color` outside `columns` and what an earlier record of this
    /// generation spans.
    @inlinable @inline(__always)
    func record(_ y: Int, _ color: UInt32, _ columns: Range<Int32>) {
        let entry = entries[y]
        if entry.generation == generation {
            entries[y].start = min(entry.start, columns.lowerBound)
            entries[y].end = max(entry.end, columns.upperBound)
        } else {
            entries[y] = FlatRow(
                color: color, start: columns.lowerBound, end: columns.upperBound, generation: generation)
        }
    }
}

/// See `FlatRows`.
@usableFromInline
struct FlatRow {
    @usableFromInline var color: UInt32
    @usableFromInline var start: Int32
    @usableFromInline var end: Int32
    @usableFromInline var generation: UInt64

    @inlinable
    init(color: UInt32, start: Int32, end: Int32, generation: UInt64) {
        self.color = color
        self.start = start
        self.end = end
        self.generation = generation
    }
}

/// `blendGlyph` over a destination known to be one opaque colour: its channels as the floats
/// 1.5·2^23 + d and the factors s − d, worked out once. The same float operations lane for lane,
/// so the same bytes; a lane of zero coverage adds ±0 and gives the colour back.
@usableFromInline
struct FlatGlyphBlend {
    @usableFromInline let red: LaneFloats
    @usableFromInline let green: LaneFloats
    @usableFromInline let blue: LaneFloats
    @usableFromInline let redFactor: LaneFloats
    @usableFromInline let greenFactor: LaneFloats
    @usableFromInline let blueFactor: LaneFloats

    @inlinable @inline(__always)
    init(under: UInt32, _ source: SourceColor) {
        @inline(__always) func channel(_ shift: UInt32) -> Float {
            Float(bitPattern: ((under >> shift) & 0xFF) | 0x4B40_0000)
        }
        let (r, g, b) = (channel(16), channel(8), channel(0))
        red = LaneFloats(repeating: r)
        green = LaneFloats(repeating: g)
        blue = LaneFloats(repeating: b)
        redFactor = LaneFloats(repeating: source.red - (r - 12_582_912.0))
        greenFactor = LaneFloats(repeating: source.green - (g - 12_582_912.0))
        blueFactor = LaneFloats(repeating: source.blue - (b - 12_582_912.0))
    }

    /// Stores 8 pixels at `target` blended with the 8 coverage bytes of `word`; if they are all
    /// zero, the colour itself when `fillsBlanks`, else nothing.
    @inlinable @inline(__always)
    func write(_ word: UInt64, to target: UnsafeMutableRawPointer, scale: SIMD8<Float>, fillsBlanks: Bool) {
        if word != 0 {
            let bytes = unsafeBitCast(word, to: SIMD8<UInt8>.self)
            var lanes = SIMD8<UInt32>()
            for i in 0..<8 { lanes[i] = UInt32(bytes[i]) }
            target.storeBytes(of: blendHalf(halfAsFloat(lanes) * scale), as: SIMD8<UInt32>.self)
        } else if fillsBlanks {
            target.storeBytes(of: blendHalf(SIMD8(repeating: 0)), as: SIMD8<UInt32>.self)
        }
    }

    /// `blend` on 8 lanes: the same operations lane for lane.
    @inlinable @inline(__always)
    func blendHalf(_ alpha: SIMD8<Float>) -> SIMD8<UInt32> {
        let r = unsafeBitCast(red.lowHalf + redFactor.lowHalf * alpha, to: SIMD8<UInt32>.self)
        let g = unsafeBitCast(green.lowHalf + greenFactor.lowHalf * alpha, to: SIMD8<UInt32>.self)
        let b =
            unsafeBitCast(blue.lowHalf + blueFactor.lowHalf * alpha, to: SIMD8<UInt32>.self) & SIMD8(repeating: 0xFF)
        return (r &<< 16) | (g &<< 8) | b | SIMD8(repeating: 0xFF00_0000)
    }

    @inlinable @inline(__always)
    func blend(_ alpha: LaneFloats) -> PixelVector {
        let r = unsafeBitCast(red + redFactor * alpha, to: PixelVector.self)
        let g = unsafeBitCast(green + greenFactor * alpha, to: PixelVector.self)
        let b = unsafeBitCast(blue + blueFactor * alpha, to: PixelVector.self) & PixelVector(repeating: 0xFF)
        return (r &<< 16) | (g &<< 8) | b | PixelVector(repeating: 0xFF00_0000)
    }
}

/// Whether some lane is non-zero in both vectors. A byte b is non-zero iff the top bit of
/// ((b & 0x7F) + 0x7F) | b is set (no carry crosses bytes); done on two 64-bit lanes, because
/// byte-lane comparisons compile to lane loops without AVX-512.
@inlinable @inline(__always)
func overlaps(_ a: SIMD16<UInt8>, _ b: SIMD16<UInt8>) -> Bool {
    let low = SIMD2<UInt64>(repeating: 0x7F7F_7F7F_7F7F_7F7F)
    let high = SIMD2<UInt64>(repeating: 0x8080_8080_8080_8080)
    let x = unsafeBitCast(a, to: SIMD2<UInt64>.self)
    let y = unsafeBitCast(b, to: SIMD2<UInt64>.self)
    let both = (((x & low) &+ low) | x) & (((y & low) &+ low) | y) & high
    return both[0] | both[1] != 0
}

/// 0xFF in the first `count` lanes: none for count ≤ 0, all for count ≥ 16.
@inlinable @inline(__always)
func lanesBelow(_ count: Int) -> SIMD16<UInt8> {
    if count <= 0 { return SIMD16(repeating: 0) }
    if count >= laneCount { return SIMD16(repeating: 0xFF) }
    return firstLanes(count)
}

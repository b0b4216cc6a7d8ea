/// Fills the annulus inner ≤ ρ ≤ outer (inner 0: a disc) row by row: per row, runs of edge
/// pixels get per-pixel coverage, long runs wholly inside get one constant-alpha span, and the
/// hole is skipped. Shared by `fillRing` and `fillDisc`.
///
/// Edge runs are cut into windows of four pixels, and every four windows (from one row or
/// several) are blended as one sixteen-lane vector: edge runs average ~3–5 pixels in ripple
/// lists, so a vector per run would leave most lanes idle. Everything stays in one function
/// with the queue in local variables: as a mutating struct method the queue lived in memory,
/// and rebuilding vectors from just-stored scalars stalled on store forwarding.
@inlinable
func fillAnnulus(
    _ surface: PixelSurface, centerX: Double, centerY: Double, outer: Double, inner: Double,
    _ source: SourceColor, clip: ClipRect
) {
    let area = clip.intersection(surface.bounds)
    let largest = CircleTuning.largestCoordinate
    // Written so that NaN fails every test: NaN, infinite or absurd geometry draws nothing.
    guard !area.isEmpty, source.alpha > 0, outer > 0, outer < largest, inner >= 0, inner < outer,
        abs(centerX) < largest, abs(centerY) < largest
    else { return }
    let ringTop = Int((centerY - outer).rounded(.down))
    let ringEnd = Int((centerY + outer).rounded(.up))
    let firstRow = max(area.y0, ringTop)
    let endRow = min(area.y1, ringEnd)
    guard firstRow < endRow else { return }

    // Which coverage model paints a pixel (exact `Double`, the lanes' per-pixel normal, the
    // steep rows' row normal) is decided from the frame's columns, never from the clip's: a
    // pixel then gets the same bytes whichever clip (a tile, a damage rectangle) cuts its row.
    let frameColumns = ClipRect(x0: surface.bounds.x0, y0: area.y0, x1: surface.bounds.x1, y1: area.y1)
    let clipCutsColumns = area.x0 > frameColumns.x0 || area.x1 < frameColumns.x1
    let circle = CircleLanes(outer: outer, inner: inner)
    let fitsLanes = CircleTuning.exactBelowRadius...CircleTuning.floatUpToRadius
    // Edge pixels use the `Float` lanes when both circles are in the lanes' radius range (a small
    // inner circle only forces scalar pixels on the rows it reaches).
    let outerFitsLanes = fitsLanes.contains(outer) && frameColumns.x1 - frameColumns.x0 >= quarterWidth
    let innerFitsLanes = inner == 0 || fitsLanes.contains(inner)
    // A clip narrower than a window takes the lanes' model one pixel at a time.
    let windowsFit = area.x1 - area.x0 >= quarterWidth
    let windowLimit = area.x1 - quarterWidth
    // Steep rows (SteepRows.swift) need a ring whose circles both use the lanes.
    let steepFits = inner > 0 && outerFitsLanes && innerFitsLanes
    let centres = PixelCentres(centerX: centerX, centerY: centerY)
    // Long edge runs (near a ring's top and bottom) are painted as whole 16-pixel vectors.
    let longRunsFit = area.x1 - area.x0 >= laneCount

    // The queue of windows: pixel address, first pixel centre's offset from the centre, and
    // which of the window's lanes belong to its run (four bits a window in `runLanes`).
    // Windows in it never overlap.
    var queued = 0
    let base = surface.base
    var pixels = (base, base, base, base, base, base, base, base, base, base, base, base, base, base, base, base)
    var dx = SIMD16<Float>(repeating: 0)
    var dy = SIMD16<Float>(repeating: 0)
    var runLanes: Int64 = 0

    // Blocks of eight rows start at multiples of eight frame rows (firstRow ≥ 0), whatever the
    // band, so a row is painted by the same path in every banding (BlockRows).
    var blockRow = firstRow & ~7
    var nextSpans = RowSpans(
        firstRow: blockRow, centerX: centerX, centerY: centerY, outer: outer, inner: inner, clip: frameColumns)
    while blockRow < endRow {
        var spans = nextSpans
        // The next block's spans before this block is painted: their square roots and roundings
        // then overlap the painting instead of delaying the next block's path decision (−3 %).
        if blockRow + 8 < endRow {
            nextSpans = RowSpans(
                firstRow: blockRow + 8, centerX: centerX, centerY: centerY, outer: outer, inner: inner,
                clip: frameColumns)
        }
        // The block's rows inside the band (and clip).
        let bandRows = max(firstRow - blockRow, 0)..<min(endRow - blockRow, 8)
        // Steep blocks first (SteepRows.swift), with four-pixel windows where every run fits;
        // only blocks wholly within the ring's rows. (Painting the steep half of a mixed block
        // that way as well gained nothing measurable.)
        if steepFits && blockRow >= ringTop && blockRow + 8 <= ringEnd {
            let painted: Bool
            let reach = clipCutsColumns ? spans.columnsReached(within: frameColumns) : area.x0..<area.x1
            if reach.lowerBound < area.x0 || reach.upperBound > area.x1 {
                // The clip cuts the block's columns: painted in a copy, the clip's part copied back.
                painted = SteepRows.paintIfSteepThroughCopy(
                    spans, surface, firstRow: blockRow, lanes: bandRows, columns: reach, clip: area,
                    frameColumns: frameColumns, centres, circle, source)
            } else if bandRows == 0..<8 {
                painted = SteepRows.paintIfSteep(
                    spans, BlockRows(surface, firstRow: blockRow, lanes: bandRows, scratch: base, centres),
                    area: frameColumns, circle, source)
            } else {
                // At a band's edge: the rows beyond it are written to a scratch buffer.
                painted = withUnsafeTemporaryAllocation(byteCount: 64, alignment: 64) { scratch in
                    SteepRows.paintIfSteep(
                        spans,
                        BlockRows(surface, firstRow: blockRow, lanes: bandRows, scratch: scratch.baseAddress!, centres),
                        area: frameColumns, circle, source)
                }
            }
            if painted {
                blockRow += 8
                continue
            }
        }
        spans.addFullAndInner(
            firstRow: blockRow, centerX: centerX, centerY: centerY, outer: outer, inner: inner, clip: frameColumns)
        for lane in bandRows {
            let y = blockRow + lane
            let touchStart = max(Int(spans.touchStart[lane]), area.x0)
            let touchEnd = min(Int(spans.touchEnd[lane]), area.x1)
            guard touchStart < touchEnd else { continue }
            let row = surface.row(y)
            let innerStart = Int(spans.innerStart[lane])
            let innerEnd = Int(spans.innerEnd[lane])
            let fullStart = Int(spans.fullStart[lane])
            let fullEnd = Int(spans.fullEnd[lane])
            let touchesInner = innerStart < innerEnd

            // Up to three runs to take out of the edge pixels, in order: wholly inside left of
            // the hole, the hole, wholly inside right of it (one inside run when the inner disc
            // misses the row). Short ones stay in the edge run (full pixels then compute coverage
            // 1, hole pixels 0 and are left untouched); a hole narrower than a window stays too,
            // so windows of different edge runs never share pixels.
            var edges = EdgeRuns(start: touchStart)
            if touchesInner {
                edges.takeOut(fullStart, min(innerStart, fullEnd), limit: touchEnd, shortest: shortestFullSpan)
                edges.takeOut(
                    Int(spans.holeStart[lane]), Int(spans.holeEnd[lane]), limit: touchEnd, shortest: quarterWidth)
                edges.takeOut(max(innerEnd, fullStart), fullEnd, limit: touchEnd, shortest: shortestFullSpan)
            } else {
                edges.takeOut(fullStart, fullEnd, limit: touchEnd, shortest: shortestFullSpan)
            }
            edges.finish(at: touchEnd)
            for index in 0..<edges.fullCount {
                lowpBlendSpan(row, from: edges.fullStarts[index], to: edges.fullEnds[index], source)
            }
            guard outerFitsLanes && (innerFitsLanes || !touchesInner) else {
                for index in 0..<edges.count {
                    paintEdgePixels(
                        row, y, from: edges.starts[index], to: edges.ends[index], centerX: centerX, centerY: centerY,
                        outer: outer, inner: inner, source)
                }
                continue
            }
            let rowDy = centres.dy(y)
            guard windowsFit else {
                for index in 0..<edges.count {
                    paintEdgePixelsOneLane(
                        row, from: edges.starts[index], to: edges.ends[index], centres, rowDy, circle, source)
                }
                continue
            }
            for index in 0..<edges.count {
                let end = edges.ends[index]
                var x = edges.starts[index]
                if end - x >= longRunMinimum && longRunsFit {
                    paintLongRun(row, from: x, to: end, lastStart: area.x1 - laneCount, centres, rowDy, circle, source)
                    continue
                }
                while x < end {
                    // Keep the window inside the clip; shifted left at its right end, it may
                    // overlap the run's previous window, so the queue is painted first.
                    let window = x < windowLimit ? x : windowLimit
                    if window != x && queued > 0 {
                        paintWindows(queued, pixels, dx, dy, runLanes, centres.offsetX, circle, source)
                        queued = 0
                        runLanes = 0
                    }
                    let address = UnsafeMutableRawPointer(row + window)
                    let windowDx = centres.column(window)
                    // Lanes x - window ..< min(end - window, 4) of this window are in the run.
                    let upTo = Int32(truncatingIfNeeded: min(end - window, quarterWidth))
                    let inRun = ((1 &<< upTo) &- 1) & ~((1 &<< Int32(truncatingIfNeeded: x - window)) &- 1)
                    runLanes |= Int64(truncatingIfNeeded: inRun) &<< Int64(truncatingIfNeeded: 4 &* queued)
                    switch queued {
                    case 0: pixels.0 = address
                    case 1: pixels.1 = address
                    case 2: pixels.2 = address
                    case 3: pixels.3 = address
                    case 4: pixels.4 = address
                    case 5: pixels.5 = address
                    case 6: pixels.6 = address
                    case 7: pixels.7 = address
                    case 8: pixels.8 = address
                    case 9: pixels.9 = address
                    case 10: pixels.10 = address
                    case 11: pixels.11 = address
                    case 12: pixels.12 = address
                    case 13: pixels.13 = address
                    case 14: pixels.14 = address
                    default: pixels.15 = address
                    }
                    dx[queued] = windowDx
                    dy[queued] = rowDy
                    queued += 1
                    if queued == queueLength {
                        paintWindows(queueLength, pixels, dx, dy, runLanes, centres.offsetX, circle, source)
                        queued = 0
                        runLanes = 0
                    }
                    x = window + quarterWidth
                }
            }
        }
        blockRow += 8
    }
    if queued > 0 { paintWindows(queued, pixels, dx, dy, runLanes, centres.offsetX, circle, source) }
}

/// Edge runs at least this long skip the window queue: they are painted 16 contiguous pixels a
/// vector (`paintLongRun`), loaded, blended and stored whole.
@inlinable @inline(__always) var longRunMinimum: Int { 8 }

/// Paints the edge run [start, end) of `row` as contiguous 16-pixel vectors; the last one is
/// moved left to `lastStart` (the clip's right end minus 16) if it would leave the clip. Lanes
/// outside the run, and zero-coverage lanes, are stored back as loaded (each vector is loaded,
/// blended and stored before the next, and pixels outside the run belong to no other pending
/// write: queued windows load their pixels only when they are painted).
@inlinable @inline(never)
func paintLongRun(
    _ row: UnsafeMutablePointer<UInt32>, from start: Int, to end: Int, lastStart: Int, _ centres: PixelCentres,
    _ rowDy: Float, _ lanes: CircleLanes, _ source: SourceColor
) {
    let laneNumber = LaneInts(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
    let dy = LaneFloats(repeating: rowDy)
    var x = start
    while x < end {
        let first = min(x, lastStart)
        let address = UnsafeMutableRawPointer(row + first)
        let before = address.loadUnaligned(as: PixelVector.self)
        let coverage = lanes.coverage(dx: centres.dx(from: first), dy: dy)
        // Lane i is pixel first + i: in the run when x <= first + i < end (sign bits of the two
        // differences, spread over the lane).
        let fromStart = laneNumber &+ Int32(truncatingIfNeeded: first - x)
        let toEnd = Int32(truncatingIfNeeded: end - first - 1) &- laneNumber
        let outside = unsafeBitCast((fromStart | toEnd) &>> 31, to: PixelVector.self)
        address.storeBytes(of: blendCovered(before, coverage, source, keeping: outside), as: PixelVector.self)
        x = first + laneCount
    }
}

/// The width of a window, in pixels: four windows fill a vector.
@inlinable @inline(__always) var quarterWidth: Int { 4 }

/// Runs wholly inside shorter than this stay with the edge pixels around them (which then
/// compute coverage 1): a `blendSpan` call and a split edge run cost more than a few lanes.
@inlinable @inline(__always) var shortestFullSpan: Int { 16 }

/// A row's edge runs (at most four) and constant-alpha runs (at most two), built left to right.
@frozen @usableFromInline
struct EdgeRuns {
    @usableFromInline var starts = SIMD4<Int>(repeating: 0)
    @usableFromInline var ends = SIMD4<Int>(repeating: 0)
    @usableFromInline var count = 0
    @usableFromInline var fullStarts = SIMD2<Int>(repeating: 0)
    @usableFromInline var fullEnds = SIMD2<Int>(repeating: 0)
    @usableFromInline var fullCount = 0
    @usableFromInline var position: Int

    @inlinable @inline(__always)
    init(start: Int) { position = start }

    /// Takes [start, end) (clipped to position...limit) out of the edge pixels if it is at least
    /// `shortest` long: a constant-alpha run when `shortest` is the full-span minimum, the hole
    /// (painted by nothing) otherwise.
    @inlinable @inline(__always)
    mutating func takeOut(_ start: Int, _ end: Int, limit: Int, shortest: Int) {
        let first = max(start, position)
        let last = min(end, limit)
        guard last - first >= shortest else { return }
        if first > position {
            starts[count] = position
            ends[count] = first
            count += 1
        }
        if shortest == shortestFullSpan {
            fullStarts[fullCount] = first
            fullEnds[fullCount] = last
            fullCount += 1
        }
        position = last
    }

    @inlinable @inline(__always)
    mutating func finish(at end: Int) {
        guard end > position else { return }
        starts[count] = position
        ends[count] = end
        count += 1
    }
}

/// Windows queued before they are painted: four vectors' worth. The four coverage
/// computations are independent, so the core overlaps their long chains of dependent
/// operations (one vector at a time, the kernel ran at about one instruction a cycle).
@inlinable @inline(__always) var queueLength: Int { 16 }

/// Blends `count` (1...16) queued windows as four sixteen-lane vectors (vector k stored only
/// when it holds a queued window).
@inlinable @inline(__always)
func paintWindows(
    _ count: Int,
    _ pixels: (
        UnsafeMutableRawPointer, UnsafeMutableRawPointer, UnsafeMutableRawPointer, UnsafeMutableRawPointer,
        UnsafeMutableRawPointer, UnsafeMutableRawPointer, UnsafeMutableRawPointer, UnsafeMutableRawPointer,
        UnsafeMutableRawPointer, UnsafeMutableRawPointer, UnsafeMutableRawPointer, UnsafeMutableRawPointer,
        UnsafeMutableRawPointer, UnsafeMutableRawPointer, UnsafeMutableRawPointer, UnsafeMutableRawPointer
    ),
    _ dx: SIMD16<Float>, _ dy: SIMD16<Float>, _ runLanes: Int64, _ offsetX: Float, _ lanes: CircleLanes,
    _ source: SourceColor
) {
    let laneOffset = LaneFloats(0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3)
    let c0 = lanes.coverage(
        dx: spreadQuarters(dx.lowHalf.lowHalf) + laneOffset + offsetX, dy: spreadQuarters(dy.lowHalf.lowHalf))
    let c1 = lanes.coverage(
        dx: spreadQuarters(dx.lowHalf.highHalf) + laneOffset + offsetX, dy: spreadQuarters(dy.lowHalf.highHalf))
    let c2 = lanes.coverage(
        dx: spreadQuarters(dx.highHalf.lowHalf) + laneOffset + offsetX, dy: spreadQuarters(dy.highHalf.lowHalf))
    let c3 = lanes.coverage(
        dx: spreadQuarters(dx.highHalf.highHalf) + laneOffset + offsetX, dy: spreadQuarters(dy.highHalf.highHalf))
    paintQuarters(
        min(count, 4), (pixels.0, pixels.1, pixels.2, pixels.3), c0, Int32(truncatingIfNeeded: runLanes), source)
    if count > 4 {
        paintQuarters(
            min(count - 4, 4), (pixels.4, pixels.5, pixels.6, pixels.7), c1,
            Int32(truncatingIfNeeded: runLanes &>> 16), source)
    }
    if count > 8 {
        paintQuarters(
            min(count - 8, 4), (pixels.8, pixels.9, pixels.10, pixels.11), c2,
            Int32(truncatingIfNeeded: runLanes &>> 32), source)
    }
    if count > 12 {
        paintQuarters(
            count - 12, (pixels.12, pixels.13, pixels.14, pixels.15), c3,
            Int32(truncatingIfNeeded: runLanes &>> 48), source)
    }
}

/// Blends `count` (1...4) windows at `coverage`: source-over, then each lane stored back as
/// loaded where it lies outside its run (bit i of `runLanes` clear) or has zero coverage.
/// Unused slots load the first window again and are not stored.
@inlinable @inline(__always)
func paintQuarters(
    _ count: Int,
    _ pixels: (
        UnsafeMutableRawPointer, UnsafeMutableRawPointer, UnsafeMutableRawPointer, UnsafeMutableRawPointer
    ),
    _ coverage: LaneFloats, _ runLanes: Int32, _ source: SourceColor
) {
    let p0 = pixels.0
    let p1 = count > 1 ? pixels.1 : p0
    let p2 = count > 2 ? pixels.2 : p0
    let p3 = count > 3 ? pixels.3 : p0
    let before = loadQuarters((p0, p1, p2, p3))
    let result = blendCovered(before, coverage, source, keeping: lanesNotIn(runLanes))
    p0.storeBytes(of: result.lowHalf.lowHalf, as: SIMD4<UInt32>.self)
    if count > 1 { p1.storeBytes(of: result.lowHalf.highHalf, as: SIMD4<UInt32>.self) }
    if count > 2 { p2.storeBytes(of: result.highHalf.lowHalf, as: SIMD4<UInt32>.self) }
    if count > 3 { p3.storeBytes(of: result.highHalf.highHalf, as: SIMD4<UInt32>.self) }
}

/// Four four-pixel windows as one vector, in order.
@inlinable @inline(__always)
func loadQuarters(
    _ pixels: (UnsafeMutableRawPointer, UnsafeMutableRawPointer, UnsafeMutableRawPointer, UnsafeMutableRawPointer)
) -> PixelVector {
    PixelVector(
        lowHalf: SIMD8(
            lowHalf: pixels.0.loadUnaligned(as: SIMD4<UInt32>.self),
            highHalf: pixels.1.loadUnaligned(as: SIMD4<UInt32>.self)),
        highHalf: SIMD8(
            lowHalf: pixels.2.loadUnaligned(as: SIMD4<UInt32>.self),
            highHalf: pixels.3.loadUnaligned(as: SIMD4<UInt32>.self)))
}

/// Each of four values repeated over four lanes.
@inlinable @inline(__always)
func spreadQuarters<T: SIMDScalar>(_ v: SIMD4<T>) -> SIMD16<T> {
    SIMD16(
        lowHalf: SIMD8(lowHalf: SIMD4(repeating: v[0]), highHalf: SIMD4(repeating: v[1])),
        highHalf: SIMD8(lowHalf: SIMD4(repeating: v[2]), highHalf: SIMD4(repeating: v[3])))
}

/// One pixel at a time in `Double`: exact area for small circles, the half-plane model
/// without `Float` cancellation for huge ones.
@inlinable @inline(never)
func paintEdgePixels(
    _ row: UnsafeMutablePointer<UInt32>, _ y: Int, from start: Int, to end: Int, centerX: Double, centerY: Double,
    outer: Double, inner: Double, _ source: SourceColor
) {
    let y0 = Double(y) - centerY
    for x in start..<end {
        let x0 = Double(x) - centerX
        var coverage = discCoverage(x0: x0, y0: y0, radius: outer)
        if inner > 0 { coverage -= discCoverage(x0: x0, y0: y0, radius: inner) }
        if coverage > 0 {
            row[x] = lowpBlendPixel(row[x], source, scaledAlpha: Float(coverage) * source.byteAlpha)
        }
    }
}

/// One pixel at a time with the lanes' model (`CircleLanes.coverage`, lane 0 of a vector), for
/// clips narrower than a window: the same coverage, and so the same bytes, as the windows give
/// the pixel when the clip is wider.
@inlinable @inline(never)
func paintEdgePixelsOneLane(
    _ row: UnsafeMutablePointer<UInt32>, from start: Int, to end: Int, _ centres: PixelCentres, _ rowDy: Float,
    _ lanes: CircleLanes, _ source: SourceColor
) {
    let dy = LaneFloats(repeating: rowDy)
    for x in start..<end {
        let coverage = lanes.coverage(dx: centres.dx(from: x), dy: dy)[0]
        if coverage > 0 {
            row[x] = lowpBlendPixel(row[x], source, scaledAlpha: coverage * source.byteAlpha)
        }
    }
}

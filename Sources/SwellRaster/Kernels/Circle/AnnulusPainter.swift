/// Fills the annulus inner ≤ ρ ≤ outer (inner 0: a disc) row by row: per row, runs of edge
/// pixels get per-pixel coverage, runs wholly inside get one constant-alpha span, and the hole
/// is skipped. Shared by `fillRing` and `fillDisc`.
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
    let firstRow = max(area.y0, Int((centerY - outer).rounded(.down)))
    let endRow = min(area.y1, Int((centerY + outer).rounded(.up)))
    guard firstRow < endRow else { return }
    let painter = AnnulusPainter(
        surface: surface, centerX: centerX, centerY: centerY, outer: outer, inner: inner, source: source,
        clip: area)
    var blockRow = firstRow
    while blockRow < endRow {
        let spans = RowSpans(
            firstRow: blockRow, centerX: centerX, centerY: centerY, outer: outer, inner: inner, clip: area)
        for lane in 0..<min(8, endRow - blockRow) {
            painter.paintRow(blockRow + lane, spans, lane: lane)
        }
        blockRow += 8
    }
}

@frozen @usableFromInline
struct AnnulusPainter {
    @usableFromInline let surface: PixelSurface
    @usableFromInline let centerX: Double
    @usableFromInline let centerY: Double
    @usableFromInline let outer: Double
    @usableFromInline let inner: Double
    @usableFromInline let source: SourceColor
    @usableFromInline let clip: ClipRect
    @usableFromInline let lanes: CircleLanes
    /// Whether edge pixels may use the `Float` lanes: both circles in the lanes' radius range
    /// (a small inner circle only forces scalar pixels on the rows it reaches).
    @usableFromInline let outerFitsLanes: Bool
    @usableFromInline let innerFitsLanes: Bool

    @inlinable
    init(
        surface: PixelSurface, centerX: Double, centerY: Double, outer: Double, inner: Double,
        source: SourceColor, clip: ClipRect
    ) {
        self.surface = surface
        self.centerX = centerX
        self.centerY = centerY
        self.outer = outer
        self.inner = inner
        self.source = source
        self.clip = clip
        lanes = CircleLanes(outer: outer, inner: inner)
        let range = CircleTuning.exactBelowRadius...CircleTuning.floatUpToRadius
        outerFitsLanes = range.contains(outer) && clip.x1 - clip.x0 >= laneCount
        innerFitsLanes = inner == 0 || range.contains(inner)
    }

    /// Paints row `y` from lane `lane` of the block's spans.
    @inlinable @inline(__always)
    func paintRow(_ y: Int, _ spans: RowSpans, lane: Int) {
        let touchStart = max(Int(spans.touchStart[lane]), clip.x0)
        let touchEnd = min(Int(spans.touchEnd[lane]), clip.x1)
        guard touchStart < touchEnd else { return }
        let fullStart = Int(spans.fullStart[lane])
        let fullEnd = Int(spans.fullEnd[lane])
        let innerStart = Int(spans.innerStart[lane])
        let innerEnd = Int(spans.innerEnd[lane])
        let row = surface.row(y)
        let touchesInner = innerStart < innerEnd
        let useLanes = outerFitsLanes && (innerFitsLanes || !touchesInner)
        var x = touchStart
        // Up to three skipped runs in order: full left of the hole, the hole, full right of it
        // (or one full run when the inner disc misses the row); edge pixels fill the gaps.
        if touchesInner {
            x = paintFull(row, y, from: x, fullStart, min(innerStart, fullEnd), touchEnd, useLanes)
            let holeStart = max(Int(spans.holeStart[lane]), x)
            let holeEnd = min(Int(spans.holeEnd[lane]), touchEnd)
            if holeStart < holeEnd {
                paintEdges(row, y, from: x, to: holeStart, useLanes)
                x = holeEnd
            }
            x = paintFull(row, y, from: x, max(innerEnd, fullStart), fullEnd, touchEnd, useLanes)
        } else {
            x = paintFull(row, y, from: x, fullStart, fullEnd, touchEnd, useLanes)
        }
        paintEdges(row, y, from: x, to: touchEnd, useLanes)
    }

    /// Paints edge pixels from `x` up to the full run [start, end) (clipped to `limit`), the run
    /// itself at the source alpha, and returns where painting stopped.
    @inlinable @inline(__always)
    func paintFull(
        _ row: UnsafeMutablePointer<UInt32>, _ y: Int, from x: Int, _ start: Int, _ end: Int, _ limit: Int,
        _ useLanes: Bool
    ) -> Int {
        let first = max(start, x)
        let last = min(end, limit)
        guard first < last else { return x }
        paintEdges(row, y, from: x, to: first, useLanes)
        blendSpan(row, from: first, to: last, source, alpha: source.alpha)
        return last
    }

    @inlinable @inline(__always)
    func paintEdges(_ row: UnsafeMutablePointer<UInt32>, _ y: Int, from start: Int, to end: Int, _ useLanes: Bool) {
        guard start < end else { return }
        if useLanes {
            paintEdgeLanes(row, y, from: start, to: end)
        } else {
            paintEdgePixels(row, y, from: start, to: end)
        }
    }

    /// Sixteen pixels at a time. The vector window is kept inside the clip (shifted left at the
    /// clip's right end) and loaded and stored whole; lanes outside [start, end) store back the
    /// pixel they loaded, so they are left as they were.
    @inlinable @inline(__always)
    func paintEdgeLanes(_ row: UnsafeMutablePointer<UInt32>, _ y: Int, from start: Int, to end: Int) {
        let dy = Float(Double(y) + 0.5 - centerY)
        let laneIndex = LaneInts(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
        let laneOffset = LaneFloats(laneIndex)
        let alpha = source.alpha
        var x = start
        while x < end {
            let window = min(x, clip.x1 - laneCount)
            let dx = LaneFloats(repeating: Float(Double(window) + 0.5 - centerX)) + laneOffset
            let coverage = lanes.coverage(dx: dx, dy: dy)
            let pixels = UnsafeMutableRawPointer(row + window)
            let before = pixels.loadUnaligned(as: PixelVector.self)
            let after = blend(before, source, alpha: coverage * alpha)
            let inRun = (laneIndex .>= LaneInts(repeating: Int32(x - window)))
                .& (laneIndex .< LaneInts(repeating: Int32(truncatingIfNeeded: end - window)))
            pixels.storeBytes(of: before.replacing(with: after, where: inRun), as: PixelVector.self)
            x = window + laneCount
        }
    }

    /// One pixel at a time in `Double`: exact area for small circles, the half-plane model
    /// without `Float` cancellation for huge ones.
    @inlinable
    func paintEdgePixels(_ row: UnsafeMutablePointer<UInt32>, _ y: Int, from start: Int, to end: Int) {
        let y0 = Double(y) - centerY
        for x in start..<end {
            let x0 = Double(x) - centerX
            var coverage = discCoverage(x0: x0, y0: y0, radius: outer)
            if inner > 0 { coverage -= discCoverage(x0: x0, y0: y0, radius: inner) }
            if coverage > 0 { row[x] = blendPixel(row[x], source, alpha: Float(coverage) * source.alpha) }
        }
    }
}

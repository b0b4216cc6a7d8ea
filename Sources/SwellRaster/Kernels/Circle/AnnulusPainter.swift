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
    var painter = AnnulusPainter(
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
    painter.flush()
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
    /// An eight-pixel window waiting for a partner to fill the other half of a vector.
    @usableFromInline var pending: HalfWindow?

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
        outerFitsLanes = range.contains(outer) && clip.x1 - clip.x0 >= HalfWindow.width
        innerFitsLanes = inner == 0 || range.contains(inner)
        pending = nil
    }

    /// Paints row `y` from lane `lane` of the block's spans.
    @inlinable @inline(__always)
    mutating func paintRow(_ y: Int, _ spans: RowSpans, lane: Int) {
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
    mutating func paintFull(
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
    mutating func paintEdges(_ row: UnsafeMutablePointer<UInt32>, _ y: Int, from start: Int, to end: Int, _ useLanes: Bool) {
        guard start < end else { return }
        if useLanes {
            paintEdgeLanes(row, y, from: start, to: end)
        } else {
            paintEdgePixels(row, y, from: start, to: end)
        }
    }

    /// Eight pixels at a time, two windows of eight (from this row or an earlier one) per vector:
    /// edge runs average ~5 pixels in ripple lists, so one window per run of 16 would leave most
    /// lanes idle. A window is kept inside the clip (shifted left at the clip's right end) and
    /// loaded and stored whole; lanes outside the run store back the pixel they loaded.
    @inlinable @inline(__always)
    mutating func paintEdgeLanes(_ row: UnsafeMutablePointer<UInt32>, _ y: Int, from start: Int, to end: Int) {
        let dy = Float(Double(y) + 0.5 - centerY)
        var x = start
        while x < end {
            let limit = clip.x1 - HalfWindow.width
            let window = x < limit ? x : limit
            let half = HalfWindow(
                pixels: row + window, dx: Float(Double(window) + 0.5 - centerX), dy: dy, first: Int32(x - window),
                end: Int32(truncatingIfNeeded: end - window))
            if let waiting = pending {
                // Overlapping windows (possible at the clip's right end) must not share a vector:
                // the later store would put back a pixel the earlier one had blended.
                if abs(half.pixels - waiting.pixels) < HalfWindow.width {
                    paint(waiting, waiting, storeSecond: false)
                    pending = half
                } else {
                    paint(waiting, half, storeSecond: true)
                    pending = nil
                }
            } else {
                pending = half
            }
            x = window + HalfWindow.width
        }
    }

    /// Paints the window still waiting for a partner (call once the op's rows are done).
    @inlinable
    mutating func flush() {
        if let waiting = pending {
            paint(waiting, waiting, storeSecond: false)
            pending = nil
        }
    }

    /// Blends two eight-pixel windows as one sixteen-lane vector.
    @inlinable @inline(__always)
    func paint(_ low: HalfWindow, _ high: HalfWindow, storeSecond: Bool) {
        let laneOffset = LaneFloats(0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7)
        let dx = LaneFloats(lowHalf: SIMD8(repeating: low.dx), highHalf: SIMD8(repeating: high.dx)) + laneOffset
        let dy = LaneFloats(lowHalf: SIMD8(repeating: low.dy), highHalf: SIMD8(repeating: high.dy))
        let coverage = lanes.coverage(dx: dx, dy: dy)
        let lowPixels = UnsafeMutableRawPointer(low.pixels)
        let highPixels = UnsafeMutableRawPointer(high.pixels)
        let before = PixelVector(
            lowHalf: lowPixels.loadUnaligned(as: SIMD8<UInt32>.self),
            highHalf: highPixels.loadUnaligned(as: SIMD8<UInt32>.self))
        let after = blend(before, source, alpha: coverage * source.alpha)
        let keep = outsideLanes(
            first: LaneInts(lowHalf: SIMD8(repeating: low.first), highHalf: SIMD8(repeating: high.first)),
            end: LaneInts(lowHalf: SIMD8(repeating: low.end), highHalf: SIMD8(repeating: high.end)))
        let result = (after & ~keep) | (before & keep)
        lowPixels.storeBytes(of: result.lowHalf, as: SIMD8<UInt32>.self)
        if storeSecond { highPixels.storeBytes(of: result.highHalf, as: SIMD8<UInt32>.self) }
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

/// Eight pixels of one row whose lanes [first, end) belong to an edge run.
@frozen @usableFromInline
struct HalfWindow {
    @usableFromInline static let width = 8
    @usableFromInline let pixels: UnsafeMutablePointer<UInt32>
    /// The x and y offsets of the first pixel's centre from the circle's centre.
    @usableFromInline let dx: Float
    @usableFromInline let dy: Float
    @usableFromInline let first: Int32
    @usableFromInline let end: Int32

    @inlinable @inline(__always)
    init(pixels: UnsafeMutablePointer<UInt32>, dx: Float, dy: Float, first: Int32, end: Int32) {
        self.pixels = pixels
        self.dx = dx
        self.dy = dy
        self.first = first
        self.end = end
    }
}

/// Fills the annulus inner ≤ ρ ≤ outer (inner 0: a disc) row by row: per row, runs of edge
/// pixels get per-pixel coverage, long runs wholly inside get one constant-alpha span, and the
/// hole is skipped. Shared by `fillRing` and `fillDisc`.
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
    /// Windows of four pixels waiting to fill a sixteen-lane vector.
    @usableFromInline var queue: QuarterQueue

    /// Runs wholly inside shorter than this stay with the edge pixels around them (which then
    /// compute coverage 1): a `blendSpan` call and a split edge run cost more than a few lanes.
    @usableFromInline static let shortestFullSpan = 16

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
        outerFitsLanes = range.contains(outer) && clip.x1 - clip.x0 >= QuarterQueue.width
        innerFitsLanes = inner == 0 || range.contains(inner)
        queue = QuarterQueue()
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
        // Up to three runs to take out of the edge pixels, in order: wholly inside left of the
        // hole, the hole, wholly inside right of it (or one inside run when the inner disc misses
        // the row). Short ones stay in the edge run: zero-coverage lanes are left untouched, and
        // full ones compute coverage 1. A hole narrower than a window is kept too, so windows of
        // different edge runs never share pixels.
        var edgeStart = touchStart
        if touchesInner {
            let holeStart = max(Int(spans.holeStart[lane]), touchStart)
            let holeEnd = min(Int(spans.holeEnd[lane]), touchEnd)
            edgeStart = takeOut(row, y, edgeStart, fullStart, min(innerStart, fullEnd), touchEnd, full: true, useLanes)
            edgeStart = takeOut(row, y, edgeStart, holeStart, holeEnd, touchEnd, full: false, useLanes)
            edgeStart = takeOut(row, y, edgeStart, max(innerEnd, fullStart), fullEnd, touchEnd, full: true, useLanes)
        } else {
            edgeStart = takeOut(row, y, edgeStart, fullStart, fullEnd, touchEnd, full: true, useLanes)
        }
        paintEdges(row, y, from: edgeStart, to: touchEnd, useLanes)
    }

    /// If [start, end) (clipped to edgeStart...limit) is long enough, paints the edge run before
    /// it, then the run itself (a constant-alpha span when `full`, nothing for the hole), and
    /// returns where the next edge run starts; otherwise leaves it in the current edge run.
    @inlinable @inline(__always)
    mutating func takeOut(
        _ row: UnsafeMutablePointer<UInt32>, _ y: Int, _ edgeStart: Int, _ start: Int, _ end: Int, _ limit: Int,
        full: Bool, _ useLanes: Bool
    ) -> Int {
        let first = max(start, edgeStart)
        let last = min(end, limit)
        let shortest = full ? AnnulusPainter.shortestFullSpan : QuarterQueue.width
        guard last - first >= shortest else { return edgeStart }
        paintEdges(row, y, from: edgeStart, to: first, useLanes)
        if full { blendSpan(row, from: first, to: last, source, alpha: source.alpha) }
        return last
    }

    @inlinable @inline(__always)
    mutating func paintEdges(
        _ row: UnsafeMutablePointer<UInt32>, _ y: Int, from start: Int, to end: Int, _ useLanes: Bool
    ) {
        guard start < end else { return }
        if useLanes {
            queueEdgeWindows(row, y, from: start, to: end)
        } else {
            paintEdgePixels(row, y, from: start, to: end)
        }
    }

    /// Splits an edge run into windows of four pixels and queues them; every fourth window
    /// paints a full vector. Edge runs average ~3–5 pixels in ripple lists, so a vector per run
    /// would leave most of its sixteen lanes idle. A window is kept inside the clip (shifted
    /// left at the clip's right end, where it may then overlap the run's previous window, so
    /// the queue is painted first).
    @inlinable @inline(__always)
    mutating func queueEdgeWindows(_ row: UnsafeMutablePointer<UInt32>, _ y: Int, from start: Int, to end: Int) {
        let dy = Float(Double(y) + 0.5 - centerY)
        let limit = clip.x1 - QuarterQueue.width
        var x = start
        while x < end {
            let window = x < limit ? x : limit
            if window != x { flush() }
            queue.append(
                pixels: row + window, dx: Float(Double(window) + 0.5 - centerX), dy: dy,
                first: Int32(truncatingIfNeeded: x - window), end: Int32(truncatingIfNeeded: end - window))
            if queue.count == QuarterQueue.capacity { paintQueue() }
            x = window + QuarterQueue.width
        }
    }

    /// Paints the windows still queued (call once the op's rows are done).
    @inlinable
    mutating func flush() {
        if queue.count > 0 { paintQueue() }
    }

    /// Blends the queued windows as one sixteen-lane vector: coverage, then source-over, then
    /// each lane stored back as loaded where it lies outside its run or has zero coverage.
    @inlinable @inline(__always)
    mutating func paintQueue() {
        let count = queue.count
        let laneOffset = LaneFloats(0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3)
        let coverage = lanes.coverage(dx: QuarterQueue.spread(queue.dx) + laneOffset, dy: QuarterQueue.spread(queue.dy))
        // Unused slots load the first window again and are not stored.
        let p0 = queue.pixels(0)
        let p1 = count > 1 ? queue.pixels(1) : p0
        let p2 = count > 2 ? queue.pixels(2) : p0
        let p3 = count > 3 ? queue.pixels(3) : p0
        let before = PixelVector(
            lowHalf: SIMD8(lowHalf: p0.loadUnaligned(as: SIMD4<UInt32>.self), highHalf: p1.loadUnaligned(as: SIMD4<UInt32>.self)),
            highHalf: SIMD8(lowHalf: p2.loadUnaligned(as: SIMD4<UInt32>.self), highHalf: p3.loadUnaligned(as: SIMD4<UInt32>.self)))
        let after = blend(before, source, alpha: coverage * source.alpha)
        let keep = outsideLanes(first: QuarterQueue.spread(queue.first), end: QuarterQueue.spread(queue.end))
            | zeroLanes(coverage)
        let result = (after & ~keep) | (before & keep)
        p0.storeBytes(of: result.lowHalf.lowHalf, as: SIMD4<UInt32>.self)
        if count > 1 { p1.storeBytes(of: result.lowHalf.highHalf, as: SIMD4<UInt32>.self) }
        if count > 2 { p2.storeBytes(of: result.highHalf.lowHalf, as: SIMD4<UInt32>.self) }
        if count > 3 { p3.storeBytes(of: result.highHalf.highHalf, as: SIMD4<UInt32>.self) }
        queue.count = 0
    }

    /// One pixel at a time in `Double`: exact area for small circles, the half-plane model
    /// without `Float` cancellation for huge ones.
    @inlinable @inline(never)
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

/// Up to four windows of four pixels, each from some row, whose lanes [first, end) belong to an
/// edge run; windows in the queue never share pixels.
@frozen @usableFromInline
struct QuarterQueue {
    @usableFromInline static let width = 4
    @usableFromInline static let capacity = 4
    @usableFromInline var count = 0
    @usableFromInline var addresses = SIMD4<UInt64>(repeating: 0)
    /// The x and y offsets of each window's first pixel centre from the circle's centre.
    @usableFromInline var dx = SIMD4<Float>(repeating: 0)
    @usableFromInline var dy = SIMD4<Float>(repeating: 0)
    @usableFromInline var first = SIMD4<Int32>(repeating: 0)
    @usableFromInline var end = SIMD4<Int32>(repeating: 0)

    @inlinable
    init() {}

    @inlinable @inline(__always)
    mutating func append(pixels: UnsafeMutablePointer<UInt32>, dx: Float, dy: Float, first: Int32, end: Int32) {
        addresses[count] = UInt64(UInt(bitPattern: pixels))
        self.dx[count] = dx
        self.dy[count] = dy
        self.first[count] = first
        self.end[count] = end
        count += 1
    }

    @inlinable @inline(__always)
    func pixels(_ slot: Int) -> UnsafeMutableRawPointer {
        UnsafeMutableRawPointer(bitPattern: UInt(addresses[slot])).unsafelyUnwrapped
    }

    /// Each slot's value repeated over its four lanes.
    @inlinable @inline(__always)
    static func spread<T: SIMDScalar>(_ v: SIMD4<T>) -> SIMD16<T> {
        SIMD16(
            lowHalf: SIMD8(lowHalf: SIMD4(repeating: v[0]), highHalf: SIMD4(repeating: v[1])),
            highHalf: SIMD8(lowHalf: SIMD4(repeating: v[2]), highHalf: SIMD4(repeating: v[3])))
    }
}

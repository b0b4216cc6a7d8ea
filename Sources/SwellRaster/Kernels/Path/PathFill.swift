/// Anti-aliased fill of closed paths of lines and quadratic Béziers, non-zero winding.
///
/// Method (the signed-area accumulation of font-rs / stb_truetype 2): quadratics are flattened
/// into lines within `pathFlatteningTolerance`; each line adds, to the cells of every pixel row
/// it crosses, the signed area between itself and the row's right end, as deltas; a running
/// sum along the row then gives each pixel's signed covered area exactly (for the flattened
/// outline). Rows are processed in bands of `pathBandRows` with a scratch buffer of one band,
/// and each row remembers the span of cells it touched, so untouched pixels cost nothing and
/// the run after the last touched cell is one constant span.
///
/// Limit: coverage = min(|signed area|, 1). That is exact wherever a pixel sees winding numbers
/// in {0, ±1} only (any simple outline, holes of opposite direction, the elastic panel, text
/// made of abutting squares). Where one pixel holds both an overlap (winding 2) and an outside
/// part, or parts of winding +1 and −1, the areas add before the clamp, so such pixels can be
/// off by up to the overlapping fraction; pixels wholly inside an overlap are still exactly 1.

/// Flattening tolerance in pixels: the largest distance between a quadratic and its chords.
/// 0.003 px keeps the area error per pixel far below the 1/255 of an 8-bit channel.
public let pathFlatteningTolerance = 0.003
/// Rows per accumulation band (the scratch buffer is (band width + 2) x this many floats).
public let pathBandRows = 16

@inlinable
public func fillPath(_ surface: PixelSurface, _ path: Path, _ source: SourceColor, clip: ClipRect) {
    fillPath(surface, path, painter: SolidPainter(source), clip: clip)
}

/// Number of chords for a quadratic p0–c–p2 so no chord strays more than the tolerance:
/// the deviation of n equal-parameter chords is |p0 − 2c + p2| / (4n²).
@inlinable @inline(__always)
func quadChordCount(_ x0: Double, _ y0: Double, _ cx: Double, _ cy: Double, _ x2: Double, _ y2: Double) -> Int {
    let ddx = x0 - 2 * cx + x2
    let ddy = y0 - 2 * cy + y2
    let deviation = (ddx * ddx + ddy * ddy).squareRoot() / 4
    guard deviation > pathFlatteningTolerance else { return 1 }
    let n = (deviation / pathFlatteningTolerance).squareRoot().rounded(.up)
    return n.isFinite ? Int(min(n, 4096)) : 1
}

/// Coordinates beyond this many pixels are refused (the path draws nothing): far past any
/// screen, and small enough that differences of coordinates can never overflow.
public let pathCoordinateLimit = 1e12

/// Walks the path as line segments (quadratics flattened, subpaths closed), calling `emit`
/// with each segment's end points. Returns false if a coordinate is not finite or beyond
/// `pathCoordinateLimit`.
@inlinable
func forEachPathSegment(_ path: Path, _ emit: (Double, Double, Double, Double) -> Void) -> Bool {
    var startX = 0.0
    var startY = 0.0
    var x = 0.0
    var y = 0.0
    var open = false
    for element in path.elements {
        switch element {
        case .move(let mx, let my):
            guard abs(mx) <= pathCoordinateLimit && abs(my) <= pathCoordinateLimit else { return false }
            if open && (x != startX || y != startY) { emit(x, y, startX, startY) }
            startX = mx
            startY = my
            x = mx
            y = my
            open = true
        case .line(let lx, let ly):
            guard abs(lx) <= pathCoordinateLimit && abs(ly) <= pathCoordinateLimit else { return false }
            if !open {
                startX = x
                startY = y
                open = true
            }
            emit(x, y, lx, ly)
            x = lx
            y = ly
        case .quad(let cx, let cy, let qx, let qy):
            guard
                abs(cx) <= pathCoordinateLimit && abs(cy) <= pathCoordinateLimit && abs(qx) <= pathCoordinateLimit
                    && abs(qy) <= pathCoordinateLimit
            else { return false }
            if !open {
                startX = x
                startY = y
                open = true
            }
            let n = quadChordCount(x, y, cx, cy, qx, qy)
            var px = x
            var py = y
            let step = 1 / Double(n)
            for k in 1...n {
                let t = k == n ? 1 : Double(k) * step
                let u = 1 - t
                let nx = u * u * x + 2 * u * t * cx + t * t * qx
                let ny = u * u * y + 2 * u * t * cy + t * t * qy
                emit(px, py, nx, ny)
                px = nx
                py = ny
            }
            x = qx
            y = qy
        case .close:
            if open && (x != startX || y != startY) { emit(x, y, startX, startY) }
            x = startX
            y = startY
            open = false
        }
    }
    if open && (x != startX || y != startY) { emit(x, y, startX, startY) }
    return true
}

@inlinable
public func fillPath<Painter: CoveragePainter>(
    _ surface: PixelSurface, _ path: Path, painter: Painter, clip: ClipRect
) {
    let area = clip.intersection(surface.bounds)
    guard !area.isEmpty, !path.elements.isEmpty else { return }

    // Pass 1: count segments and find the bounding box of the flattened outline.
    var segmentCount = 0
    var minX = Double.infinity
    var minY = Double.infinity
    var maxX = -Double.infinity
    var maxY = -Double.infinity
    let finite = forEachPathSegment(path) { x0, y0, x1, y1 in
        segmentCount += 1
        minX = min(minX, x0, x1)
        maxX = max(maxX, x0, x1)
        minY = min(minY, y0, y1)
        maxY = max(maxY, y0, y1)
    }
    guard finite, segmentCount > 0 else { return }
    // A closed outline covers nothing outside its bounding box.
    let columnStart = max(area.x0, Int(min(max(minX, -1), 1e9).rounded(.down)))
    let columnEnd = min(area.x1, Int(min(maxX, 1e9).rounded(.up)) + 1)
    let rowStart = max(area.y0, Int(min(max(minY, -1), 1e9).rounded(.down)))
    let rowEnd = min(area.y1, Int(min(maxY, 1e9).rounded(.up)) + 1)
    guard columnStart < columnEnd, rowStart < rowEnd else { return }

    let width = columnEnd - columnStart
    let cellStride = width + 2
    withUnsafeTemporaryAllocation(of: Double.self, capacity: segmentCount * 4) { segments in
        var index = 0
        _ = forEachPathSegment(path) { x0, y0, x1, y1 in
            segments[index] = x0 - Double(columnStart)
            segments[index + 1] = y0
            segments[index + 2] = x1 - Double(columnStart)
            segments[index + 3] = y1
            index += 4
        }
        let segmentBase = segments.baseAddress!
        // One band of cells, a coverage row padded for a whole last vector, and per-row touched spans.
        let scratchCount = cellStride * pathBandRows + width + laneCount + 2 * pathBandRows
        withUnsafeTemporaryAllocation(of: Float.self, capacity: scratchCount) { scratch in
            let cells = scratch.baseAddress!
            cells.initialize(repeating: 0, count: scratchCount)
            let coverageRow = cells + cellStride * pathBandRows
            let touched = UnsafeMutableRawPointer(coverageRow + width + laneCount)
                .bindMemory(to: Int32.self, capacity: 2 * pathBandRows)
            var bandTop = rowStart
            while bandTop < rowEnd {
                let rows = min(pathBandRows, rowEnd - bandTop)
                for r in 0..<rows {
                    touched[2 * r] = Int32.max
                    touched[2 * r + 1] = -1
                }
                let top = Double(bandTop)
                let bottom = top + Double(rows)
                for s in 0..<segmentCount {
                    let p = segmentBase + 4 * s
                    let y0 = p[1]
                    let y1 = p[3]
                    if min(y0, y1) >= bottom || max(y0, y1) <= top || y0 == y1 { continue }
                    accumulateClippedLine(
                        cells, cellStride: cellStride, rows: rows, width: width, touched: touched,
                        p[0], y0 - top, p[2], y1 - top)
                }
                for r in 0..<rows {
                    let first = Int(touched[2 * r])
                    guard first != Int(Int32.max) else { continue }
                    let last = Int(touched[2 * r + 1])
                    let y = bandTop + r
                    paintAccumulatedRow(
                        cells + r * cellStride, first: first, last: last, width: width, coverage: coverageRow,
                        row: surface.row(y), y: y, columnStart: columnStart, painter: painter)
                }
                bandTop += rows
            }
        }
    }
}

/// Splits a segment where it leaves the columns 0...width and clamps the outside parts onto
/// the nearest edge: a part left of the band still changes the winding of every pixel to its
/// right (it becomes a vertical line at x = 0), a part right of it affects no pixel.
@inlinable @inline(__always)
func accumulateClippedLine(
    _ cells: UnsafeMutablePointer<Float>, cellStride: Int, rows: Int, width: Int,
    touched: UnsafeMutablePointer<Int32>, _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double
) {
    let w = Double(width)
    if x0 >= 0 && x0 <= w && x1 >= 0 && x1 <= w {
        accumulateLine(cells, cellStride: cellStride, rows: rows, touched: touched, x0, y0, x1, y1)
        return
    }
    // The parameters (ascending) where the segment crosses x = 0 or x = width, if inside (0, 1).
    var firstSplit = 1.0
    var secondSplit = 1.0
    let dx = x1 - x0
    if dx != 0 {
        let a = (0 - x0) / dx
        let b = (w - x0) / dx
        let low = min(a, b)
        let high = max(a, b)
        if low > 0 && low < 1 { firstSplit = low }
        if high > 0 && high < 1 {
            if firstSplit == 1 { firstSplit = high } else { secondSplit = high }
        }
    }
    var previousX = min(max(x0, 0), w)
    var previousY = y0
    if firstSplit < 1 {
        let nx = min(max(x0 + dx * firstSplit, 0), w)
        let ny = y0 + (y1 - y0) * firstSplit
        accumulateLine(cells, cellStride: cellStride, rows: rows, touched: touched, previousX, previousY, nx, ny)
        previousX = nx
        previousY = ny
    }
    if secondSplit < 1 {
        let nx = min(max(x0 + dx * secondSplit, 0), w)
        let ny = y0 + (y1 - y0) * secondSplit
        accumulateLine(cells, cellStride: cellStride, rows: rows, touched: touched, previousX, previousY, nx, ny)
        previousX = nx
        previousY = ny
    }
    accumulateLine(
        cells, cellStride: cellStride, rows: rows, touched: touched, previousX, previousY, min(max(x1, 0), w), y1)
}

/// Adds one line's signed area deltas (x already within 0...width) to the band's cells.
@inlinable @inline(__always)
func accumulateLine(
    _ cells: UnsafeMutablePointer<Float>, cellStride: Int, rows: Int,
    touched: UnsafeMutablePointer<Int32>, _ ax: Double, _ ay: Double, _ bx: Double, _ by: Double
) {
    if ay == by { return }
    let direction: Double = ay < by ? 1 : -1
    let (x0, y0, x1, y1) = ay < by ? (ax, ay, bx, by) : (bx, by, ax, ay)
    let dxdy = (x1 - x0) / (y1 - y0)
    let yStart = max(y0, 0)
    let yEnd = min(y1, Double(rows))
    guard yStart < yEnd else { return }
    // Clamped so rounding never reaches a cell outside 0...width (the band has width + 2 cells).
    let maxX = Double(cellStride - 2)
    var x = min(max(x0 + (yStart - y0) * dxdy, 0), maxX)
    var row = Int(yStart.rounded(.down))
    while Double(row) < yEnd {
        let rowTop = max(Double(row), yStart)
        let rowBottom = min(Double(row + 1), yEnd)
        let dy = rowBottom - rowTop
        let xNext = rowBottom == y1 ? x1 : min(max(x + dxdy * dy, 0), maxX)
        let d = dy * direction
        let left = min(x, xNext)
        let right = max(x, xNext)
        let leftFloor = left.rounded(.down)
        let leftIndex = Int(leftFloor)
        let rightCeil = right.rounded(.up)
        let rightIndex = Int(rightCeil)
        let line = cells + row * cellStride
        var lastTouched: Int
        if rightIndex <= leftIndex + 1 {
            // Within one cell: the part of that pixel right of the line's mean x is covered.
            let meanInCell = 0.5 * (x + xNext) - leftFloor
            line[leftIndex] += Float(d - d * meanInCell)
            line[leftIndex + 1] += Float(d * meanInCell)
            lastTouched = leftIndex + 1
        } else {
            let inverseSpan = 1 / (right - left)
            let leftFraction = left - leftFloor
            let firstArea = 0.5 * inverseSpan * (1 - leftFraction) * (1 - leftFraction)
            let rightFraction = right - rightCeil + 1
            let lastArea = 0.5 * inverseSpan * rightFraction * rightFraction
            line[leftIndex] += Float(d * firstArea)
            if rightIndex == leftIndex + 2 {
                line[leftIndex + 1] += Float(d * (1 - firstArea - lastArea))
            } else {
                let secondArea = inverseSpan * (1.5 - leftFraction)
                line[leftIndex + 1] += Float(d * (secondArea - firstArea))
                var cell = leftIndex + 2
                let step = Float(d * inverseSpan)
                while cell < rightIndex - 1 {
                    line[cell] += step
                    cell += 1
                }
                let beforeLast = secondArea + Double(rightIndex - leftIndex - 3) * inverseSpan
                line[rightIndex - 1] += Float(d * (1 - beforeLast - lastArea))
            }
            line[rightIndex] += Float(d * lastArea)
            lastTouched = rightIndex
        }
        let span = touched + 2 * row
        if Int32(leftIndex) < span[0] { span[0] = Int32(leftIndex) }
        if Int32(lastTouched) > span[1] { span[1] = Int32(lastTouched) }
        x = xNext
        row += 1
    }
}

/// Turns one row's deltas into coverage (running sum, |area| clamped to 1), composites it and
/// zeroes the cells it used, ready for the next band.
@inlinable @inline(__always)
func paintAccumulatedRow<Painter: CoveragePainter>(
    _ cells: UnsafeMutablePointer<Float>, first: Int, last: Int, width: Int, coverage: UnsafeMutablePointer<Float>,
    row: UnsafeMutablePointer<UInt32>, y: Int, columnStart: Int, painter: Painter
) {
    let end = min(last + 1, width)
    var sum: Float = 0
    var column = first
    while column < end {
        sum += cells[column]
        cells[column] = 0
        let value = abs(sum)
        coverage[column] = value >= 0.99999 ? 1 : value
        column += 1
    }
    while column <= last {
        sum += cells[column]
        cells[column] = 0
        column += 1
    }
    // Vectors of sixteen pixels over the touched cells.
    var x = first
    let zero = LaneFloats(repeating: 0)
    while x < end {
        let count = min(laneCount, end - x)
        var lanes = LaneFloats(repeating: 0)
        if count == laneCount {
            lanes = UnsafeRawPointer(coverage + x).loadUnaligned(as: LaneFloats.self)
        } else {
            for i in 0..<count { lanes[i] = coverage[x + i] }
        }
        if any(lanes .> zero) {
            if count == laneCount && all(lanes .>= LaneFloats(repeating: 1)) {
                painter.paintSpan(row, y: y, from: columnStart + x, to: columnStart + x + laneCount, coverage: 1)
            } else {
                painter.paint(row, y: y, x: columnStart + x, count: count, coverage: lanes)
            }
        }
        x += count
    }
    // After the last touched cell the winding is constant up to the band's right end.
    let tail = min(abs(sum), 1)
    if end < width && tail > 1e-5 {
        painter.paintSpan(
            row, y: y, from: columnStart + end, to: columnStart + width, coverage: tail >= 0.99999 ? 1 : tail)
    }
}

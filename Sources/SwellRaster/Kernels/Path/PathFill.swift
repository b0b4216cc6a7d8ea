/// Anti-aliased fill of closed paths of lines and quadratic Béziers, non-zero winding.
///
/// Method: quadratics are flattened into lines within `pathFlatteningTolerance`, and the lines'
/// signed areas are added to cells (`CoverageAccumulator`, CoverageAccumulator.swift: the
/// accumulator glyph masks use too); a running sum along each row gives each pixel's coverage.
/// Each row remembers the span of cells it touched, so untouched pixels cost nothing and the
/// run after the last touched cell is one constant span.
///
/// No heap allocation: the work is done in tiles of at most `pathTileColumns` x `pathBandRows`
/// pixels with one fixed scratch buffer on the stack. For each tile the path is walked again;
/// parts left of the tile become vertical lines on its left edge (they still set the winding of
/// the pixels to their right — a curve's net effect along a vertical line depends only on its
/// end points, so a quadratic wholly to the left is one chord), and quadratics whose control
/// hull misses the tile's rows, or lies wholly to its right, are skipped without flattening.
///
/// Limit: coverage = min(|signed area|, 1). That is exact wherever a pixel sees winding numbers
/// in {0, ±1} only (any simple outline, holes of opposite direction, the elastic panel, text
/// made of abutting squares). Where one pixel holds both an overlap (winding 2) and an outside
/// part, or parts of winding +1 and −1, the areas add before the clamp, so such pixels can be
/// off by up to the overlapping fraction; pixels wholly inside an overlap are still exactly 1.

/// Flattening tolerance in pixels: the largest distance between a quadratic and its chords.
/// 0.003 px keeps the area error per pixel far below the 1/255 of an 8-bit channel.
public let pathFlatteningTolerance = 0.003
/// Rows per tile.
public let pathBandRows = 16
/// Columns per tile: (496 + 2) x 16 cells, a coverage row and the touched spans fit the
/// 8704-float stack buffer (34 KiB).
public let pathTileColumns = 496

/// Coordinates beyond this many pixels are refused (the path draws nothing): far past any
/// screen, and small enough that differences of coordinates can never overflow.
public let pathCoordinateLimit = 1e12

@inlinable
public func fillPath(_ surface: PixelSurface, _ path: Path, _ source: SourceColor, clip: ClipRect) {
    fillPath(surface, path, painter: SolidPainter(source), clip: clip)
}

/// The bounding box of every point of the path (a quadratic stays inside the hull of its
/// points), or nil when it has no point or a coordinate is not finite or beyond the limit.
@inlinable
func pathBounds(_ path: Path) -> (minX: Double, minY: Double, maxX: Double, maxY: Double)? {
    var minX = Double.infinity
    var minY = Double.infinity
    var maxX = -Double.infinity
    var maxY = -Double.infinity
    @inline(__always) func add(_ x: Double, _ y: Double) -> Bool {
        guard abs(x) <= pathCoordinateLimit && abs(y) <= pathCoordinateLimit else { return false }
        minX = min(minX, x)
        maxX = max(maxX, x)
        minY = min(minY, y)
        maxY = max(maxY, y)
        return true
    }
    for element in path.elements {
        switch element {
        case .move(let x, let y), .line(let x, let y):
            guard add(x, y) else { return nil }
        case .quad(let cx, let cy, let x, let y):
            guard add(cx, cy) && add(x, y) else { return nil }
        case .close:
            break
        }
    }
    return minX <= maxX ? (minX, minY, maxX, maxY) : nil
}

@inlinable
public func fillPath<Painter: CoveragePainter>(
    _ surface: PixelSurface, _ path: Path, painter: Painter, clip: ClipRect
) {
    let area = clip.intersection(surface.bounds)
    guard !area.isEmpty, let box = pathBounds(path) else { return }
    // A closed outline covers nothing outside its bounding box.
    let columnStart = max(area.x0, Int(min(max(box.minX, -1), 1e9).rounded(.down)))
    let columnEnd = min(area.x1, Int(min(box.maxX, 1e9).rounded(.up)) + 1)
    let rowStart = max(area.y0, Int(min(max(box.minY, -1), 1e9).rounded(.down)))
    let rowEnd = min(area.y1, Int(min(box.maxY, 1e9).rounded(.up)) + 1)
    guard columnStart < columnEnd, rowStart < rowEnd else { return }

    var scratch = InlineArray<8704, Float>(repeating: 0)
    withUnsafeMutablePointer(to: &scratch) { storage in
        storage.withMemoryRebound(to: Float.self, capacity: 8704) { cells in
            let coverageRow = cells + (pathTileColumns + 2) * pathBandRows
            let touched = UnsafeMutableRawPointer(coverageRow + pathTileColumns + laneCount)
                .bindMemory(to: Int32.self, capacity: 2 * pathBandRows)
            var tileLeft = columnStart
            while tileLeft < columnEnd {
                let width = min(pathTileColumns, columnEnd - tileLeft)
                var bandTop = rowStart
                while bandTop < rowEnd {
                    let rows = min(pathBandRows, rowEnd - bandTop)
                    for r in 0..<rows {
                        touched[2 * r] = Int32.max
                        touched[2 * r + 1] = -1
                    }
                    accumulatePath(
                        path, cells, cellStride: width + 2, rows: rows, width: width, touched: touched,
                        originX: Double(tileLeft), originY: Double(bandTop))
                    for r in 0..<rows {
                        let first = Int(touched[2 * r])
                        guard first != Int(Int32.max) else { continue }
                        let y = bandTop + r
                        paintAccumulatedRow(
                            cells + r * (width + 2), first: first, last: Int(touched[2 * r + 1]), width: width,
                            coverage: coverageRow, row: surface.row(y), y: y, columnStart: tileLeft, painter: painter)
                    }
                    bandTop += rows
                }
                tileLeft += width
            }
        }
    }
}

/// Adds the whole path (every subpath closed) to one tile's cells, in tile coordinates.
@inlinable
func accumulatePath(
    _ path: Path, _ cells: UnsafeMutablePointer<Float>, cellStride: Int, rows: Int, width: Int,
    touched: UnsafeMutablePointer<Int32>, originX: Double, originY: Double
) {
    let bottom = Double(rows)
    let right = Double(width)
    @inline(__always) func line(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) {
        if y0 == y1 || (y0 <= 0 && y1 <= 0) || (y0 >= bottom && y1 >= bottom) || (x0 >= right && x1 >= right) {
            return
        }
        accumulateClippedLine(cells, cellStride: cellStride, rows: rows, width: width, touched: touched, x0, y0, x1, y1)
    }
    var startX = 0.0
    var startY = 0.0
    var x = 0.0
    var y = 0.0
    var open = false
    for element in path.elements {
        switch element {
        case .move(let mx, let my):
            if open { line(x, y, startX, startY) }
            startX = mx - originX
            startY = my - originY
            x = startX
            y = startY
            open = true
        case .line(let lx, let ly):
            if !open {
                startX = x
                startY = y
                open = true
            }
            let nx = lx - originX
            let ny = ly - originY
            line(x, y, nx, ny)
            x = nx
            y = ny
        case .quad(let qcx, let qcy, let qx, let qy):
            if !open {
                startX = x
                startY = y
                open = true
            }
            let cx = qcx - originX
            let cy = qcy - originY
            let ex = qx - originX
            let ey = qy - originY
            let hullMissesRows = max(y, cy, ey) <= 0 || min(y, cy, ey) >= bottom
            if hullMissesRows || min(x, cx, ex) >= right {
                // Contributes nothing to this tile.
            } else if max(x, cx, ex) <= 0 {
                line(x, y, ex, ey)  // wholly left: only its end points matter
            } else {
                let n = quadChordCount(x, y, cx, cy, ex, ey)
                let step = 1 / Double(n)
                var px = x
                var py = y
                for k in 1...n {
                    let t = k == n ? 1 : Double(k) * step
                    let u = 1 - t
                    let nx = u * u * x + 2 * u * t * cx + t * t * ex
                    let ny = u * u * y + 2 * u * t * cy + t * t * ey
                    line(px, py, nx, ny)
                    px = nx
                    py = ny
                }
            }
            x = ex
            y = ey
        case .close:
            if open { line(x, y, startX, startY) }
            x = startX
            y = startY
            open = false
        }
    }
    if open { line(x, y, startX, startY) }
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

/// Adds one line's signed area deltas (x already within 0...width) to the band's cells
/// (`CoverageAccumulator`, in Double; the row step ending at the line's end takes its x).
@inlinable @inline(__always)
func accumulateLine(
    _ cells: UnsafeMutablePointer<Float>, cellStride: Int, rows: Int,
    touched: UnsafeMutablePointer<Int32>, _ ax: Double, _ ay: Double, _ bx: Double, _ by: Double
) {
    // Clamped so rounding never reaches a cell outside 0...width (the band has width + 2 cells).
    let coverage = CoverageAccumulator(
        cells: cells, stride: cellStride, right: Double(cellStride - 2), touched: touched)
    coverage.addLine(ax, ay, bx, by, rows: Double(rows), in: Double.self, exactEnd: true)
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

/// Exact-area coverage accumulation (the signed-area method of font-rs and stb_truetype 2), the
/// one used by both the path fill (PathFill.swift: tiles of a path) and glyph masks (SwellText's
/// MaskFill.swift: a whole glyph-sized mask in one pass).
///
/// Method: each line adds, to the cells of every pixel row it crosses, the signed area between
/// itself and the row's right end, as deltas; a running sum along the row then gives each
/// pixel's signed covered area, exactly for the flattened outline, and coverage =
/// min(|area|, 1) (non-zero winding wherever a pixel sees winding 0 or ±1). A row step within
/// one cell adds the part of that pixel right of the line's mean x; a step across two or more
/// cells adds the trapezoids of its first and last cells and equal shares between.
///
/// Rules: the caller's lines lie within the columns 0...`right` (the path fill splits and clamps
/// them; a glyph mask is its outline's control box). Each row step's areas are computed in the
/// caller's `Area` arithmetic and rounded to the Float cell once a product: Double for the path
/// fill, Float for glyph masks (whose vector batches compute the same Float expressions, lane
/// by lane: MaskAccumulatorTests); both are kept as they are, since each kernel's bytes are
/// fixed by its goldens. Raw pointers, no allocation: the caller owns the cells.
@frozen
public struct CoverageAccumulator {
    /// Row-major cells: `stride` a row, at least `right` + 2 of them.
    public let cells: UnsafeMutablePointer<Float>
    public let stride: Int
    /// The right edge (the columns' count): x is clamped to 0...right.
    public let right: Double
    /// Per row, the first and last cell touched (Int32 pairs; nil: not tracked).
    public let touched: UnsafeMutablePointer<Int32>?

    @inlinable
    public init(cells: UnsafeMutablePointer<Float>, stride: Int, right: Double, touched: UnsafeMutablePointer<Int32>?) {
        self.cells = cells
        self.stride = stride
        self.right = right
        self.touched = touched
    }

    /// Adds the line from (ax, ay) to (bx, by) within rows 0..<`rows`. With `exactEnd`, the row
    /// step that ends at the line's last point takes its x as given rather than stepped to.
    @inlinable @inline(__always)
    public func addLine<Area: CoverageArea>(
        _ ax: Double, _ ay: Double, _ bx: Double, _ by: Double, rows: Double, in _: Area.Type, exactEnd: Bool
    ) {
        guard ay != by else { return }
        let down = ay < by
        let direction: Area = down ? 1 : -1
        let x0 = down ? ax : bx
        let y0 = down ? ay : by
        let x1 = down ? bx : ax
        let y1 = down ? by : ay
        let top = max(y0, 0)
        let bottom = min(y1, rows)
        guard top < bottom else { return }
        let slope = (x1 - x0) / (y1 - y0)
        let x = min(max(x0 + (top - y0) * slope, 0), right)
        addRowSteps(
            x: x, y: top, bottom: bottom, slope: slope, direction: direction, endY: exactEnd ? y1 : .infinity,
            endX: x1)
    }

    /// A line's row steps from (x, y) down to `bottom`, one row at a time; a step ending at
    /// `endY` ends at `endX` (`.infinity`: none does).
    @inlinable @inline(__always)
    public func addRowSteps<Area: CoverageArea>(
        x start: Double, y top: Double, bottom: Double, slope: Double, direction: Area, endY: Double = .infinity,
        endX: Double = 0
    ) {
        var x = start
        var y = top
        while y < bottom {
            let row = Int(y)
            let nextY = min(Double(row + 1), bottom)
            let dy = nextY - y
            let nextX = nextY == endY ? endX : min(max(x + slope * dy, 0), right)
            let d = Area(dy) * direction
            addStep(row: row, from: x, to: nextX, d)
            x = nextX
            y = nextY
        }
    }

    /// One row step from x to `nextX` in row `row`, of signed height `d`.
    @inlinable @inline(__always)
    public func addStep<Area: CoverageArea>(row: Int, from x: Double, to nextX: Double, _ d: Area) {
        let line = cells + row * stride
        let lo = min(x, nextX)
        let hi = max(x, nextX)
        let loFloor = lo.rounded(.down)
        let hiCeil = hi.rounded(.up)
        let i0 = Int(loFloor)
        let last: Int
        if Int(hiCeil) <= i0 + 1 {
            let middle = Area(0.5 * (x + nextX) - loFloor)
            let share = d * middle
            line[i0] += (d - share).coverage
            line[i0 + 1] += share.coverage
            last = i0 + 1
        } else {
            addSpan(line, lo, hi, loFloor, hiCeil, d)
            last = Int(hiCeil)
        }
        if let touched {
            let span = touched + 2 * row
            if Int32(i0) < span[0] { span[0] = Int32(i0) }
            if Int32(last) > span[1] { span[1] = Int32(last) }
        }
    }

    /// A row step across three or more cells of `line` (a nearly horizontal line).
    @inlinable @inline(__always)
    public func addWideStep<Area: CoverageArea>(
        _ line: UnsafeMutablePointer<Float>, _ x: Double, _ nextX: Double, _ d: Area
    ) {
        let lo = min(x, nextX)
        let hi = max(x, nextX)
        addSpan(line, lo, hi, lo.rounded(.down), hi.rounded(.up), d)
    }

    /// A row step across two or more cells, from `lo` to `hi`: the trapezoids of its first and
    /// last cells, and equal shares between.
    @inlinable @inline(__always)
    func addSpan<Area: CoverageArea>(
        _ line: UnsafeMutablePointer<Float>, _ lo: Double, _ hi: Double, _ loFloor: Double, _ hiCeil: Double,
        _ d: Area
    ) {
        let i0 = Int(loFloor)
        let i1 = Int(hiCeil)
        let s = Area(1 / (hi - lo))
        let f0 = Area(lo - loFloor)
        let g0 = 1 - f0
        let a0 = 0.5 * s * g0 * g0
        let f1 = Area(hi - hiCeil + 1)
        let am = 0.5 * s * f1 * f1
        line[i0] += (d * a0).coverage
        if i1 == i0 + 2 {
            let inner = 1 - a0 - am
            line[i0 + 1] += (d * inner).coverage
        } else {
            let a1 = s * (1.5 - f0)
            line[i0 + 1] += (d * (a1 - a0)).coverage
            let step = (d * s).coverage
            var cell = i0 + 2
            while cell < i1 - 1 {
                line[cell] += step
                cell += 1
            }
            let between = Area(i1 - i0 - 3) * s
            let a2 = a1 + between
            let inner = 1 - a2 - am
            line[i1 - 1] += (d * inner).coverage
        }
        line[i1] += (d * am).coverage
    }
}

/// The arithmetic a row step's areas are computed in (`CoverageAccumulator`): Double for the
/// path fill, Float for glyph masks.
public protocol CoverageArea: BinaryFloatingPoint {
    init(_ value: Double)
    /// The value as a cell's Float.
    var coverage: Float { get }
}

extension Double: CoverageArea {
    @inlinable public var coverage: Float { Float(self) }
}

extension Float: CoverageArea {
    @inlinable public var coverage: Float { self }
}

/// Chords for a quadratic p0–c–p2 so that none strays more than `tolerance` from the curve
/// (the deviation of n equal-parameter chords is |p0 − 2c + p2| / (4n²)), at most `most`.
@inlinable @inline(__always)
public func quadChordCount(
    _ x0: Double, _ y0: Double, _ cx: Double, _ cy: Double, _ x2: Double, _ y2: Double,
    tolerance: Double = pathFlatteningTolerance, most: Double = 4096
) -> Int {
    let ddx = x0 - 2 * cx + x2
    let ddy = y0 - 2 * cy + y2
    let deviation = (ddx * ddx + ddy * ddy).squareRoot() / 4
    guard deviation > tolerance else { return 1 }
    let n = (deviation / tolerance).squareRoot().rounded(.up)
    return n.isFinite ? Int(min(n, most)) : 1
}

/// Exact-area coverage of a flattened outline into a glyph-sized accumulation buffer (the signed-
/// area method of font-rs and stb_truetype 2, as Kernels/Path/PathFill.swift, but in one pass
/// over the whole mask: a glyph is small, so no tiles and no walking the outline once per 16 rows).
///
/// Each line adds to the cells of every row it crosses the signed area between itself and the
/// row's right end, as deltas; a running sum over the buffer then gives every pixel's signed
/// covered area, exactly for the flattened outline, and coverage = min(|area|, 1) (non-zero
/// winding where a pixel sees winding 0 or ±1, as the path filler). A row's deltas sum to zero
/// over a closed outline, so the running sum runs straight across row ends, and a delta at x = w
/// lands in the next row's first cell, which is the same place for the sum.
/// Quadratics and cubics become lines within `maskFlatteningTolerance`.
struct MaskAccumulator {
    private(set) var cells: UnsafeMutablePointer<Float>
    private var capacity: Int
    private(set) var width = 0
    private(set) var height = 0
    var currentX = 0.0
    var currentY = 0.0
    var startX = 0.0
    var startY = 0.0

    init() {
        capacity = 4096
        cells = .allocate(capacity: capacity)
    }

    func free() { cells.deallocate() }

    /// Starts a mask of `width` x `height` pixels (all zero).
    mutating func reset(width: Int, height: Int) {
        let needed = width * height + width + 4
        if needed > capacity {
            cells.deallocate()
            capacity = needed
            cells = .allocate(capacity: capacity)
        }
        cells.update(repeating: 0, count: needed)
        self.width = width
        self.height = height
    }

    mutating func move(_ x: Double, _ y: Double) {
        close()
        currentX = x
        currentY = y
        startX = x
        startY = y
    }

    mutating func close() {
        if currentX != startX || currentY != startY { line(startX, startY) }
    }

    mutating func line(_ x: Double, _ y: Double) {
        addLine(currentX, currentY, x, y)
        currentX = x
        currentY = y
    }

    mutating func quad(_ cx: Double, _ cy: Double, _ x: Double, _ y: Double) {
        let x0 = currentX
        let y0 = currentY
        let ddx = x0 - 2 * cx + x
        let ddy = y0 - 2 * cy + y
        let deviation = (ddx * ddx + ddy * ddy).squareRoot() / 4
        let n =
            deviation > maskFlatteningTolerance
            ? min(256, Int((deviation / maskFlatteningTolerance).squareRoot().rounded(.up))) : 1
        let step = 1 / Double(n)
        for i in 1..<max(n, 1) {
            let t = Double(i) * step
            let u = 1 - t
            line(u * u * x0 + 2 * u * t * cx + t * t * x, u * u * y0 + 2 * u * t * cy + t * t * y)
        }
        line(x, y)
    }

    mutating func cubic(_ c1x: Double, _ c1y: Double, _ c2x: Double, _ c2y: Double, _ x: Double, _ y: Double) {
        let x0 = currentX
        let y0 = currentY
        let ddx = max(abs(x0 - 2 * c1x + c2x), abs(c1x - 2 * c2x + x))
        let ddy = max(abs(y0 - 2 * c1y + c2y), abs(c1y - 2 * c2y + y))
        let deviation = 0.75 * (ddx * ddx + ddy * ddy).squareRoot()
        let n = max(1, min(256, Int((deviation / maskFlatteningTolerance).squareRoot().rounded(.up))))
        for i in 1...n {
            let t = Double(i) / Double(n)
            let u = 1 - t
            let a = u * u * u
            let b = 3 * u * u * t
            let c = 3 * u * t * t
            let d = t * t * t
            line(a * x0 + b * c1x + c * c2x + d * x, a * y0 + b * c1y + c * c2y + d * y)
        }
    }

    /// Adds one line's signed areas. Points lie inside [0, width] x [0, height] (the mask is the
    /// outline's control box), clamped anyway so a stray point never writes outside the cells.
    private mutating func addLine(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double) {
        guard ay != by else { return }
        let w = Double(width)
        let h = Double(height)
        let (direction, x0, y0, x1, y1): (Float, Double, Double, Double, Double) =
            ay < by ? (1, ax, ay, bx, by) : (-1, bx, by, ax, ay)
        let top = max(0, y0)
        let bottom = min(h, y1)
        guard top < bottom else { return }
        let slope = (x1 - x0) / (y1 - y0)
        var x = min(max(x0 + (top - y0) * slope, 0), w)
        var y = top
        let stride = width
        while y < bottom {
            let row = Int(y)
            let nextY = min(Double(row + 1), bottom)
            let dy = nextY - y
            let nextX = min(max(x + slope * dy, 0), w)
            let d = Float(dy) * direction
            let line = cells + row * stride
            let lo = min(x, nextX)
            let hi = max(x, nextX)
            let loFloor = lo.rounded(.down)
            let i0 = Int(loFloor)
            let i1 = Int(hi.rounded(.up))
            if i1 <= i0 + 1 {
                let middle = Float(0.5 * (x + nextX) - loFloor)
                line[i0] += d - d * middle
                line[i0 + 1] += d * middle
            } else {
                let s = Float(1 / (hi - lo))
                let f0 = Float(lo - loFloor)
                let a0 = 0.5 * s * (1 - f0) * (1 - f0)
                let f1 = Float(hi - hi.rounded(.up) + 1)
                let am = 0.5 * s * f1 * f1
                line[i0] += d * a0
                if i1 == i0 + 2 {
                    line[i0 + 1] += d * (1 - a0 - am)
                } else {
                    let a1 = s * (1.5 - f0)
                    line[i0 + 1] += d * (a1 - a0)
                    for i in (i0 + 2)..<(i1 - 1) { line[i] += d * s }
                    let a2 = a1 + Float(i1 - i0 - 3) * s
                    line[i1 - 1] += d * (1 - a2 - am)
                }
                line[i1] += d * am
            }
            x = nextX
            y = nextY
        }
    }

    /// The running sum, as round(min(|area|, 1) · 255) into the mask's rows.
    func write(into mask: UnsafeMutablePointer<UInt8>, stride: Int) {
        var sum: Float = 0
        for row in 0..<height {
            let out = mask + row * stride
            let line = cells + row * width
            for i in 0..<width {
                sum += line[i]
                out[i] = UInt8(min(abs(sum), 1) * 255 + 0.5)
            }
        }
    }
}

/// The largest distance between a curve and its chords, in pixels: the coverage a flattened edge
/// gains or loses in a pixel is at most this (far inside the 0.05 bound; GlyphAccuracyTests).
let maskFlatteningTolerance = 0.005

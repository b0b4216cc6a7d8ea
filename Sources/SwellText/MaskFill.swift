import SwellRaster

/// Exact-area coverage of a flattened glyph outline into a glyph-sized buffer of cells, with the
/// accumulator the path fill uses (`CoverageAccumulator`, in Float arithmetic), in one pass over
/// the whole mask: a glyph is small, so no tiles and no walking the outline once per 16 rows.
///
/// Rules: a row's deltas sum to zero over a closed outline, so the running sum runs straight
/// across row ends, and a delta at x = w lands in the next row's first cell, which is the same
/// place for the sum. Quadratics and cubics become lines within `maskFlatteningTolerance`.
/// Lines are queued and added in batches of eight whose set-up and first two row steps are
/// worked out in `SIMD8` lanes, each lane the same IEEE expression as the scalar accumulator,
/// and each cell receives the same additions in the same order: the coverage bytes are those of
/// adding the lines one at a time (MaskAccumulatorTests).
public struct MaskAccumulator {
    public private(set) var cells: UnsafeMutablePointer<Float>
    private var capacity: Int
    public private(set) var width = 0
    public private(set) var height = 0
    public var currentX = 0.0
    public var currentY = 0.0
    public var startX = 0.0
    public var startY = 0.0
    /// Two `LineBatch` slots (the per-line results of a batch's first two row steps), then the
    /// lines not yet added as four columns of `batchCapacity` Doubles (ax, ay, bx, by).
    private let pending: UnsafeMutableRawPointer
    private var pendingCount = 0

    public init() {
        capacity = 4096
        cells = .allocate(capacity: capacity)
        pending = .allocate(byteCount: 2 * LineBatch.bytes + 4 * batchCapacity * 8, alignment: 64)
    }

    public func free() {
        cells.deallocate()
        pending.deallocate()
    }

    /// Starts a mask of `width` x `height` pixels (all zero).
    public mutating func reset(width: Int, height: Int) {
        let needed = width * height + width + 4
        if needed > capacity {
            cells.deallocate()
            capacity = needed
            cells = .allocate(capacity: capacity)
        }
        cells.update(repeating: 0, count: needed)
        pendingCount = 0
        self.width = width
        self.height = height
    }

    public mutating func move(_ x: Double, _ y: Double) {
        close()
        currentX = x
        currentY = y
        startX = x
        startY = y
    }

    public mutating func close() {
        if currentX != startX || currentY != startY { line(startX, startY) }
    }

    /// Queues the line from the current point to (x, y); lines are added in batches, in order.
    public mutating func line(_ x: Double, _ y: Double) {
        let column = (pending + 2 * LineBatch.bytes).assumingMemoryBound(to: Double.self) + pendingCount
        column[0] = currentX
        column[batchCapacity] = currentY
        column[2 * batchCapacity] = x
        column[3 * batchCapacity] = y
        pendingCount &+= 1
        if pendingCount == batchCapacity { addPending() }
        currentX = x
        currentY = y
    }

    /// How many chords keep a quadratic within `maskFlatteningTolerance` of its curve, at most
    /// 256 (`quadChordCount`).
    @inline(__always)
    private func chordCount(_ x0: Double, _ y0: Double, _ cx: Double, _ cy: Double, _ x: Double, _ y: Double) -> Int {
        quadChordCount(x0, y0, cx, cy, x, y, tolerance: maskFlatteningTolerance, most: 256)
    }

    /// A quadratic's chords, queued eight points at a time (each point the same expression as
    /// one at a time, lane by lane).
    public mutating func quad(_ cx: Double, _ cy: Double, _ x: Double, _ y: Double) {
        let x0 = currentX
        let y0 = currentY
        let n = chordCount(x0, y0, cx, cy, x, y)
        if n > 1 {
            // Room for n - 1 lines and the last vector's spare lanes.
            if pendingCount + n + 8 > batchCapacity { addPending() }
            let step = 1 / Double(n)
            let first = (pending + 2 * LineBatch.bytes).assumingMemoryBound(to: Double.self) + pendingCount
            let raw = UnsafeMutableRawPointer(first)
            let column = batchCapacity * 8
            first[0] = x0
            first[batchCapacity] = y0
            let lanes = SIMD8<Double>(0, 1, 2, 3, 4, 5, 6, 7)
            for j in Swift.stride(from: 0, to: n - 1, by: 8) {
                let t = (lanes + Double(j + 1)) * step
                let u = 1 - t
                // The Bernstein weights named, each sum in two steps, in the same order of
                // evaluation: Swift 6.2 (the arm64 toolchain) times out on the one-line form.
                let startWeight: SIMD8<Double> = u * u
                let controlWeight: SIMD8<Double> = 2 * u * t
                let endWeight: SIMD8<Double> = t * t
                let pxNear = startWeight * x0 + controlWeight * cx
                let px = pxNear + endWeight * x
                let pyNear = startWeight * y0 + controlWeight * cy
                let py = pyNear + endWeight * y
                // Point j + 1 ends line j and starts line j + 1.
                raw.storeBytes(of: px, toByteOffset: (j + 1) * 8, as: SIMD8<Double>.self)
                raw.storeBytes(of: py, toByteOffset: column + (j + 1) * 8, as: SIMD8<Double>.self)
                raw.storeBytes(of: px, toByteOffset: 2 * column + j * 8, as: SIMD8<Double>.self)
                raw.storeBytes(of: py, toByteOffset: 3 * column + j * 8, as: SIMD8<Double>.self)
            }
            pendingCount += n - 1
            // The last point again in scalar code (the same value), not read back from the
            // vector just stored: the next curve's set-up depends on it.
            let t = Double(n - 1) * step
            let u = 1 - t
            currentX = u * u * x0 + 2 * u * t * cx + t * t * x
            currentY = u * u * y0 + 2 * u * t * cy + t * t * y
        }
        line(x, y)
    }

    public mutating func cubic(_ c1x: Double, _ c1y: Double, _ c2x: Double, _ c2y: Double, _ x: Double, _ y: Double) {
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

    /// Adds the queued lines, eight at a time: each line's set-up (order, clamps, slope) and its
    /// first two row steps (the areas of their one or two cells) are worked out in `SIMD8` lanes,
    /// then added to the cells one line after another, in the order the lines came. Most lines
    /// of a flattened glyph take one or two row steps of one or two cells (text-page.json:
    /// 43 581 lines, 68 256 row steps; 13 177 steps of two or more cells): a line taken alone
    /// cost about 130 instructions, mostly this set-up. Every value is the same expression as the
    /// scalar `CoverageAccumulator.addStep`, lane by lane (IEEE operations, nothing fused or
    /// reordered), and each cell receives the same additions in the same order, so the coverage
    /// bytes are the same.
    /// Steps of three or more cells and lines of three or more rows finish in scalar code.
    private mutating func addPending() {
        let count = pendingCount
        guard count > 0 else { return }
        pendingCount = 0
        let columns = (pending + 2 * LineBatch.bytes).assumingMemoryBound(to: Double.self)
        var padded = count
        while padded & 15 != 0 {
            // Horizontal lines add nothing: the last batches' spare lanes.
            for c in 0..<4 { columns[c * batchCapacity + padded] = 0 }
            padded += 1
        }
        // Two batches worked out before either is added: their long dependency chains (two
        // divisions and a dozen roundings and selects deep) overlap.
        let second = pending + LineBatch.bytes
        for first in Swift.stride(from: 0, to: count, by: 16) {
            computeBatch(columns + first, into: pending)
            computeBatch(columns + first + 8, into: second)
            applyBatch(pending, lanes: min(8, count - first))
            if count - first > 8 { applyBatch(second, lanes: min(8, count - first - 8)) }
        }
    }

    /// The set-up and first two row steps of eight lines, into `pending`'s `LineBatch` fields.
    @inline(__always)
    private func computeBatch(_ columns: UnsafeMutablePointer<Double>, into slot: UnsafeMutableRawPointer) {
        typealias V = SIMD8<Double>
        let raw = UnsafeRawPointer(columns)
        let ax = raw.loadUnaligned(as: V.self)
        let ay = raw.loadUnaligned(fromByteOffset: batchCapacity * 8, as: V.self)
        let bx = raw.loadUnaligned(fromByteOffset: 2 * batchCapacity * 8, as: V.self)
        let by = raw.loadUnaligned(fromByteOffset: 3 * batchCapacity * 8, as: V.self)
        let w = V(repeating: Double(width))
        let h = V(repeating: Double(height))
        // ay < by ? (1, ax, ay, bx, by) : (-1, bx, by, ax, ay)
        let down = ay .< by
        let x0 = bx.replacing(with: ax, where: down)
        let y0 = by.replacing(with: ay, where: down)
        let x1 = ax.replacing(with: bx, where: down)
        let y1 = ay.replacing(with: by, where: down)
        let direction = SIMD8<Float>(V(repeating: -1).replacing(with: 1, where: down))
        let top = y0.replacing(with: 0, where: y0 .< 0)  // max(0, y0)
        let bottom = h.replacing(with: y1, where: y1 .< h)  // min(h, y1)
        let valid = (ay .!= by) .& (top .< bottom)
        let slope = (x1 - x0) / (y1 - y0)
        let x = clampedX(x0 + (top - y0) * slope, w)
        // Where each step ends first (short chains), then each step's areas: the second step's
        // areas need not wait for the first's.
        let end1 = rowEnd(x, top, bottom: bottom, slope: slope, w: w)
        let end2 = rowEnd(end1.x, end1.y, bottom: bottom, slope: slope, w: w)
        let one = stepAreas(x, top, end1, direction: direction)
        let two = stepAreas(end1.x, end1.y, end2, direction: direction)
        let zero = SIMD8<Int64>(repeating: 0)
        let flags =
            zero.replacing(with: 1, where: valid) | zero.replacing(with: 2, where: one.wide)
            | zero.replacing(with: 4, where: end1.y .< bottom) | zero.replacing(with: 8, where: two.wide)
            | zero.replacing(with: 16, where: end2.y .< bottom)
        let b = LineBatch(slot)
        b.store(x, LineBatch.x)
        b.store(end1.x, LineBatch.nextX1)
        b.store(end2.x, LineBatch.nextX2)
        b.store(end2.y, LineBatch.nextY2)
        b.store(bottom, LineBatch.bottom)
        b.store(slope, LineBatch.slope)
        b.store(one.row, LineBatch.row1)
        b.store(one.index, LineBatch.index1)
        b.store(two.row, LineBatch.row2)
        b.store(two.index, LineBatch.index2)
        b.store(flags, LineBatch.flags)
        b.store(one.c0, LineBatch.c01)
        b.store(one.c1, LineBatch.c11)
        b.store(one.c2, LineBatch.c21)
        b.store(one.d, LineBatch.d1)
        b.store(two.c0, LineBatch.c02)
        b.store(two.c1, LineBatch.c12)
        b.store(two.c2, LineBatch.c22)
        b.store(two.d, LineBatch.d2)
        b.store(direction, LineBatch.direction)
    }

    /// min(max(v, 0), w), as the scalar code takes it.
    @inline(__always)
    private func clampedX(_ v: SIMD8<Double>, _ w: SIMD8<Double>) -> SIMD8<Double> {
        let m = v.replacing(with: 0, where: v .<= 0)
        return m.replacing(with: w, where: w .< m)
    }

    /// Where a row step of eight lines from (x, y) ends: the next row boundary or `bottom`, as
    /// `CoverageAccumulator.addRowSteps`' loop body finds it.
    @inline(__always)
    private func rowEnd(
        _ x: SIMD8<Double>, _ y: SIMD8<Double>, bottom: SIMD8<Double>, slope: SIMD8<Double>, w: SIMD8<Double>
    ) -> (x: SIMD8<Double>, y: SIMD8<Double>) {
        let rowUp = wholeFloor(y) + 1
        let nextY = rowUp.replacing(with: bottom, where: bottom .< rowUp)  // min(Double(row + 1), bottom)
        return (clampedX(x + slope * (nextY - y), w), nextY)
    }

    /// The areas of a row step of eight lines from (x, y) to `end`, as
    /// `CoverageAccumulator.addStep`: the cell index of its first cell and its areas for one cell
    /// (c0, c1) or two (c0, c1, c2); `wide` marks steps of three or more cells, left to
    /// `CoverageAccumulator.addWideStep`.
    @inline(__always)
    private func stepAreas(
        _ x: SIMD8<Double>, _ y: SIMD8<Double>, _ end: (x: SIMD8<Double>, y: SIMD8<Double>), direction: SIMD8<Float>
    ) -> VectorStep {
        let nextX = end.x
        let d = SIMD8<Float>(end.y - y) * direction
        let lo = x.replacing(with: nextX, where: nextX .< x)  // min(x, nextX)
        let hi = x.replacing(with: nextX, where: nextX .>= x)  // max(x, nextX)
        let loFloor = wholeFloor(lo)
        let hiCeil = wholeCeil(hi)
        let middle = SIMD8<Float>(0.5 * (x + nextX) - loFloor)
        let s = SIMD8<Float>(1 / (hi - lo))
        let f0 = SIMD8<Float>(lo - loFloor)
        let a0 = 0.5 * s * (1 - f0) * (1 - f0)
        let f1 = SIMD8<Float>(hi - hiCeil + 1)
        let am = 0.5 * s * f1 * f1
        // Whole numbers below 2^24: exact in Float, so the two-cell test can pick Float lanes.
        let two = SIMD8<Float>(hiCeil) .== SIMD8<Float>(loFloor) + 2
        let row = wholeFloor(y)
        return VectorStep(
            row: wholeInts(row), index: wholeInts(row * Double(width) + loFloor),
            c0: (d - d * middle).replacing(with: d * a0, where: two),
            c1: (d * middle).replacing(with: d * (1 - a0 - am), where: two),
            c2: SIMD8<Float>(repeating: 0).replacing(with: d * am, where: two), d: d,
            wide: hiCeil .> loFloor + 2)
    }

    /// Adds one row step of a batched line: a wide step through
    /// `CoverageAccumulator.addWideStep`, a narrow one as its three precomputed cells.
    @inline(__always)
    private func addStep(
        wide: Bool, row: Int, from x: Double, to nextX: Double, _ delta: Float, cell index: Int, _ c0: Float,
        _ c1: Float, _ c2: Float
    ) {
        if wide {
            coverage.addWideStep(cells + row &* width, x, nextX, delta)
        } else {
            let cell = cells + index
            cell[0] += c0
            cell[1] += c1
            cell[2] += c2
        }
    }

    /// Adds a computed batch's lines, lane by lane, in order.
    @inline(__always)
    private func applyBatch(_ slot: UnsafeMutableRawPointer, lanes: Int) {
        let b = LineBatch(slot)
        for k in 0..<lanes {
            let flags = b.int(LineBatch.flags, k)
            guard flags & 1 != 0 else { continue }
            let x = b.double(LineBatch.x, k)
            let nextX1 = b.double(LineBatch.nextX1, k)
            addStep(
                wide: flags & 2 != 0, row: b.int(LineBatch.row1, k), from: x, to: nextX1, b.float(LineBatch.d1, k),
                cell: b.int(LineBatch.index1, k), b.float(LineBatch.c01, k), b.float(LineBatch.c11, k),
                b.float(LineBatch.c21, k))
            guard flags & 4 != 0 else { continue }
            let nextX2 = b.double(LineBatch.nextX2, k)
            addStep(
                wide: flags & 8 != 0, row: b.int(LineBatch.row2, k), from: nextX1, to: nextX2, b.float(LineBatch.d2, k),
                cell: b.int(LineBatch.index2, k), b.float(LineBatch.c02, k), b.float(LineBatch.c12, k),
                b.float(LineBatch.c22, k))
            guard flags & 16 != 0 else { continue }
            coverage.addRowSteps(
                x: nextX2, y: b.double(LineBatch.nextY2, k), bottom: b.double(LineBatch.bottom, k),
                slope: b.double(LineBatch.slope, k), direction: b.float(LineBatch.direction, k))
        }
    }

    /// Adds the line from (ax, ay) to (bx, by) at once, one row step at a time in scalar code,
    /// without the queue: what the batches must equal bit for bit (MaskAccumulatorTests).
    public mutating func addLineAlone(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double) {
        addPending()
        coverage.addLine(ax, ay, bx, by, rows: Double(height), in: Float.self, exactEnd: false)
    }

    /// `quad` one chord at a time through `addLineAlone` (MaskAccumulatorTests).
    public mutating func quadAlone(_ cx: Double, _ cy: Double, _ x: Double, _ y: Double) {
        let x0 = currentX
        let y0 = currentY
        let n = chordCount(x0, y0, cx, cy, x, y)
        let step = 1 / Double(n)
        for i in 1..<max(n, 1) {
            let t = Double(i) * step
            let u = 1 - t
            let px = u * u * x0 + 2 * u * t * cx + t * t * x
            let py = u * u * y0 + 2 * u * t * cy + t * t * y
            addLineAlone(currentX, currentY, px, py)
            currentX = px
            currentY = py
        }
        addLineAlone(currentX, currentY, x, y)
        currentX = x
        currentY = y
    }

    /// Adds every queued line now.
    public mutating func flush() { addPending() }

    /// The cells as a `CoverageAccumulator`. Points lie inside [0, width] x [0, height] (the
    /// mask is the outline's control box), clamped anyway so a stray point never writes outside
    /// the cells.
    @inline(__always)
    private var coverage: CoverageAccumulator {
        CoverageAccumulator(cells: cells, stride: width, right: Double(width), touched: nil)
    }

    /// The running sum, as round(min(|area|, 1) · 255) into the mask's rows.
    public mutating func write(into mask: UnsafeMutablePointer<UInt8>, stride: Int) {
        addPending()
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

/// Lines queued before a batch is added (eight lanes a vector).
let batchCapacity = 320

/// The areas of one row step of eight lines (`MaskAccumulator.stepAreas`).
struct VectorStep {
    let row: SIMD8<Int64>
    let index: SIMD8<Int64>
    let c0: SIMD8<Float>
    let c1: SIMD8<Float>
    let c2: SIMD8<Float>
    let d: SIMD8<Float>
    let wide: SIMDMask<SIMD8<Int64>>
}

/// Where a computed batch keeps each value of its eight lines, as byte offsets into the
/// accumulator's scratch memory (64-byte aligned): read back lane by lane in `applyBatch`.
struct LineBatch {
    let base: UnsafeMutableRawPointer
    init(_ base: UnsafeMutableRawPointer) { self.base = base }

    // Eight Doubles or Int64s (64 bytes) each…
    static let x = 0, nextX1 = 64, nextX2 = 128, nextY2 = 192, bottom = 256, slope = 320
    static let row1 = 384, index1 = 448, row2 = 512, index2 = 576, flags = 640
    // …then eight Floats (32 bytes) each.
    static let c01 = 704, c11 = 736, c21 = 768, d1 = 800, c02 = 832, c12 = 864, c22 = 896, d2 = 928
    static let direction = 960
    static let bytes = 1024

    @inline(__always) func store<V: SIMD>(_ v: V, _ offset: Int) {
        base.storeBytes(of: v, toByteOffset: offset, as: V.self)
    }
    @inline(__always) func double(_ offset: Int, _ k: Int) -> Double {
        base.load(fromByteOffset: offset &+ k &* 8, as: Double.self)
    }
    @inline(__always) func int(_ offset: Int, _ k: Int) -> Int {
        Int(base.load(fromByteOffset: offset &+ k &* 8, as: Int64.self))
    }
    @inline(__always) func float(_ offset: Int, _ k: Int) -> Float {
        base.load(fromByteOffset: offset &+ k &* 4, as: Float.self)
    }
}

/// `v.rounded(.down)` for lanes in [-0, 2^51] (a row or column of the mask), in arithmetic: the
/// portable build (SSE2, no `roundpd`) would call libm's floor for every lane. v + 2^52 − 2^52
/// rounds v to the nearest whole number exactly; one less where that rounded up. (−0 gives +0,
/// which the callers use only as a row or a sum.)
@inline(__always)
func wholeFloor(_ v: SIMD8<Double>) -> SIMD8<Double> {
    let r = (v + 0x1p52) - 0x1p52
    return r.replacing(with: r - 1, where: r .> v)
}

/// `v.rounded(.up)` for lanes in [0, 2^51], as `wholeFloor`.
@inline(__always)
func wholeCeil(_ v: SIMD8<Double>) -> SIMD8<Double> {
    let r = (v + 0x1p52) - 0x1p52
    return r.replacing(with: r + 1, where: r .< v)
}

/// Whole-numbered lanes in [0, 2^52) as integers: v + 2^52 holds v in its low mantissa bits.
@inline(__always)
func wholeInts(_ v: SIMD8<Double>) -> SIMD8<Int64> {
    unsafeBitCast(v + 0x1p52, to: SIMD8<Int64>.self) & 0xF_FFFF_FFFF_FFFF
}

/// The largest distance between a curve and its chords, in pixels: the coverage a flattened edge
/// gains or loses in a pixel is at most this (far inside the 0.05 bound; GlyphAccuracyTests).
let maskFlatteningTolerance = 0.005

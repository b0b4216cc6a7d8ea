/// The fast paths for the sides of a ring: blocks of eight rows where each row meets the ring in
/// short runs (at most a window each) separated by the hole, painted with no per-run
/// bookkeeping:
/// - both crossings ≤ 4 px: sixteen four-pixel windows, four vectors (`paintNarrow`);
/// - both ≤ 8 px: one vector a row, eight pixels at each crossing (`paintWide`);
/// - one crossing beyond the frame's left or right edge (a large ring's side): at the visible
///   crossing, four rows a vector when it is ≤ 4 px (`paintNarrowOneSide`), else two
///   (`paintOneSide`);
/// - both ≤ 16 px (medium blocks, towards the ring's top and bottom), or one of them with the
///   other beyond the frame: a whole contiguous vector per crossing (`paintMedium`).
///
/// Why: a ring 2 px wide is steep (|dx/dy| ≤ 2, so each crossing spans ≤ 8 pixels) over ~90 % of
/// its rows; in ripples-1000, 59 % of the 8-row blocks have both crossings steep and 31 % one
/// crossing off the frame. There the general path's run splitting and window queue cost more
/// than the coverage itself: with coverage and blend replaced by no-ops, 72 % of the ring time
/// remained. Wasted lanes (a window is wider than most runs) cost less than the bookkeeping did.
///
/// Coverage: the narrow and wide painters compute one lane per row side and one vector per pixel
/// offset, so that the row model (`RowNormal`: one normal per row, no per-pixel division) has its
/// constants in its lanes, then transpose the results into windows (`LaneZip.swift`); medium
/// blocks use each pixel's own normal (`CircleLanes.coverage`), as the general path does. A
/// window lies inside the ring's touch range, and its pixels outside the runs are wholly in the
/// hole or outside, where the coverage is exactly 0: they are stored back unchanged. Which rows
/// are steep is decided per block of eight rows aligned to the frame, whatever the band
/// (`BlockRows`), so the output is the same for every band height and thread count.
///
/// Blends: each result vector is stored whole to a stack buffer and copied to its windows by a
/// call (`scatterQuarters`, `scatterHalves`; `scatterRows` once for a wide block's eight).
/// Stored straight to the 128- or 256-bit windows, LLVM's SLP vectoriser rebuilt the whole blend
/// in those pieces (four or two times the instructions); through the buffer it stays one 512-bit
/// chain (ripples-1000 −7 %).
@frozen @usableFromInline
struct SteepRows {
    /// First pixel of each row's left window, and of its right window.
    @usableFromInline let left: SIMD8<Int64>
    @usableFromInline let right: SIMD8<Int64>

    /// The windows of the eight rows `spans` describes, and whether every row is a steep crossing
    /// (`fits`); a row is not when the hole is missing or narrower than the gap between the
    /// windows, a run is longer than a window, or a window would leave `area`. (Only `area`'s
    /// columns matter: which rows are steep does not depend on the band, see `BlockRows`.)
    @inlinable @inline(__always)
    init(_ spans: RowSpans, area: ClipRect, window width: Int) {
        let window = SIMD8<Int64>(repeating: Int64(width))
        left = spans.touchStart
        right = spans.touchEnd &- window
        // Each of these is negative in a lane that breaks a condition. Together they also rule
        // out a missing hole (holeStart > holeEnd): `apart` needs a touch range of at least two
        // windows, the run conditions would then need less.
        let leftRunFits = left &+ window &- spans.holeStart
        let rightRunFits = spans.holeEnd &- right
        let apart = right &- left &- window
        let insideLeft = left &- SIMD8<Int64>(repeating: Int64(area.x0))
        let insideRight = SIMD8<Int64>(repeating: Int64(area.x1)) &- spans.touchEnd
        // A lane of the OR is negative where any condition is broken; one min over the lanes
        // (not a per-row bit mask: its lane extracts were ~10 % of the ring time).
        fits = (leftRunFits | rightRunFits | apart | insideLeft | insideRight).min() >= 0
        // One crossing off the frame (a large ring's side beyond the frame's edge): its run must
        // be wholly outside `area`, and the pixels between it and the other window in the hole.
        let x0 = SIMD8<Int64>(repeating: Int64(area.x0))
        let x1 = SIMD8<Int64>(repeating: Int64(area.x1))
        let leftHidden = x0 &- spans.holeStart
        let rightHidden = spans.holeEnd &- x1
        let rightInside = right &- x0
        let leftInside = x1 &- left &- window
        fitsRightOnly = (leftHidden | rightRunFits | rightInside | insideRight).min() >= 0
        fitsLeftOnly = (rightHidden | leftRunFits | insideLeft | leftInside).min() >= 0
    }

    /// How a steep block is painted (see the painters).
    @usableFromInline enum Path {
        case narrow, wide
        case narrowOneSide(SIMD8<Int64>)
        case oneSide(SIMD8<Int64>)
    }

    /// The width of a medium block's window: one whole vector.
    @inlinable static var mediumWindow: Int { 16 }

    /// Paints the eight rows of `rows` by the first steep path that fits them all (narrow, wide,
    /// then one visible crossing narrow before wide, then medium with two crossings or one) and
    /// returns true, or returns false (nothing painted) when some row needs the general path.
    @inlinable @inline(__always)
    static func paintIfSteep(
        _ spans: RowSpans, _ rows: BlockRows, area: ClipRect, _ lanes: CircleLanes, _ source: SourceColor
    ) -> Bool {
        let narrow = SteepRows(spans, area: area, window: quarterWidth)
        if narrow.fits {
            paint(.narrow, narrow, rows, lanes, source)
            return true
        }
        let wide = SteepRows(spans, area: area, window: steepWindow)
        if wide.fits {
            paint(.wide, wide, rows, lanes, source)
        } else if let x = narrow.oneSideWindows {
            paint(.narrowOneSide(x), narrow, rows, lanes, source)
        } else if let x = wide.oneSideWindows {
            paint(.oneSide(x), wide, rows, lanes, source)
        } else {
            // Medium blocks (runs of 9–16 px, towards a ring's top and bottom): a whole vector
            // per crossing, each pixel's own normal as on the general path.
            let medium = SteepRows(spans, area: area, window: mediumWindow)
            if medium.fits {
                medium.paintMedium(rows, both: true, medium.left, lanes, source)
            } else if let x = medium.oneSideWindows {
                medium.paintMedium(rows, both: false, x, lanes, source)
            } else {
                return false
            }
        }
        return true
    }

    /// Paints the eight rows with sixteen-pixel windows (`init` with `window: 16`): at `left` and
    /// `right`, or only at `x` when `both` is false. Each window is one contiguous vector,
    /// loaded, blended and stored whole; coverage is `CircleLanes.coverage` (each pixel's own
    /// normal), so these pixels get the general path's bytes.
    @inlinable @inline(never)
    func paintMedium(
        _ rows: BlockRows, both: Bool, _ x: SIMD8<Int64>, _ lanes: CircleLanes, _ source: SourceColor
    ) {
        let rowDy = rows.centres.dy(rowsFrom: rows.firstRow)
        @inline(__always) func window(_ r: Int, _ x: SIMD8<Int64>, _ dy: LaneFloats) {
            let address = rows.address(r, x)
            let before = address.loadUnaligned(as: PixelVector.self)
            let coverage = lanes.coverage(dx: rows.centres.dx(from: Int(truncatingIfNeeded: x[r])), dy: dy)
            address.storeBytes(of: blendCovered(before, coverage, source), as: PixelVector.self)
        }
        for r in 0..<8 {
            let dy = LaneFloats(repeating: rowDy[r])
            window(r, x, dy)
            if both { window(r, right, dy) }
        }
    }

    /// Paints by `path` with the ring's coverage model for steep rows: the row model
    /// (`RowNormal`) where it fits, else each pixel's own normal as on the general path.
    @inlinable @inline(__always)
    static func paint(_ path: Path, _ steep: SteepRows, _ rows: BlockRows, _ lanes: CircleLanes, _ source: SourceColor)
    {
        let dy = rows.centres.dy(pairedFrom: rows.firstRow)
        if lanes.rowModelFits {
            let at = RowNormalSteep(lanes, RowNormal(dy: dy, lanes), dySquared: dy * dy, rows.centres.offsetX)
            steep.paint(path, rows, at, source)
        } else {
            steep.paint(path, rows, PixelNormalSteep(lanes, dy: dy, rows.centres.offsetX), source)
        }
    }

    @inlinable @inline(__always)
    func paint<Coverage: SteepCoverage>(_ path: Path, _ rows: BlockRows, _ at: Coverage, _ source: SourceColor) {
        switch path {
        case .narrow: paintNarrow(rows, at, source)
        case .wide: paintWide(rows, at, source)
        case .narrowOneSide(let x): paintNarrowOneSide(x, rows, at, source)
        case .oneSide(let x): paintOneSide(x, rows, at, source)
        }
    }

    /// The windows of the visible crossing when every row has just one (the other wholly
    /// beyond the frame), or nil.
    @inlinable var oneSideWindows: SIMD8<Int64>? {
        fitsRightOnly ? right : (fitsLeftOnly ? left : nil)
    }

    /// Every row is a steep crossing on both sides.
    @usableFromInline let fits: Bool
    /// Every row's left crossing is wholly left of `area` and its right one steep.
    @usableFromInline let fitsRightOnly: Bool
    /// Every row's right crossing is wholly right of `area` and its left one steep.
    @usableFromInline let fitsLeftOnly: Bool

    /// Paints the eight rows with four-pixel windows (`init` with `window: 4`): lane 2r + s
    /// computes row r's left (s = 0) or right window, one vector a pixel offset, then the
    /// coverages are transposed into four vectors of four windows each.
    @inlinable @inline(never)
    func paintNarrow<Coverage: SteepCoverage>(_ rows: BlockRows, _ at: Coverage, _ source: SourceColor) {
        let columns = rows.centres.columns(left, right)
        let c = at.four(columns, from: 0)
        let (v0, v1, v2, v3) = windowsOfFour(c.0, c.1, c.2, c.3)
        @inline(__always) func windows(_ r: Int) -> (
            UnsafeMutableRawPointer, UnsafeMutableRawPointer, UnsafeMutableRawPointer, UnsafeMutableRawPointer
        ) {
            (rows.address(r, left), rows.address(r, right), rows.address(r + 1, left), rows.address(r + 1, right))
        }
        paintWholeQuarters(windows(0), v0, source)
        paintWholeQuarters(windows(2), v1, source)
        paintWholeQuarters(windows(4), v2, source)
        paintWholeQuarters(windows(6), v3, source)
    }

    /// Paints the eight rows with eight-pixel windows (`init` with `window: 8`): lane 2r + s
    /// computes row r's left or right window, one vector a pixel offset; transposed, each row's
    /// two windows are one vector.
    @inlinable @inline(never)
    func paintWide<Coverage: SteepCoverage>(_ rows: BlockRows, _ at: Coverage, _ source: SourceColor) {
        let columns = rows.centres.columns(left, right)
        let first = at.four(columns, from: 0)
        let second = at.four(columns, from: 4)
        let low = windowsOfFour(first.0, first.1, first.2, first.3)
        let high = windowsOfFour(second.0, second.1, second.2, second.3)
        // All eight rows' results are stored whole, then copied out by one call (−3 %; the same
        // for the four-vector painters made the buffer's closure an out-of-line function: +13 %).
        withUnsafeTemporaryAllocation(of: PixelVector.self, capacity: 8) { buffer in
            let results = buffer.baseAddress!
            @inline(__always) func blendRows(_ r: Int, _ first: LaneFloats, _ second: LaneFloats) {
                let (upper, lower) = zipQuads(first, second)
                results[r] = SteepWindows(left: rows.address(r, left), right: rows.address(r, right))
                    .blended(upper, source)
                results[r + 1] = SteepWindows(left: rows.address(r + 1, left), right: rows.address(r + 1, right))
                    .blended(lower, source)
            }
            blendRows(0, low.0, high.0)
            blendRows(2, low.1, high.1)
            blendRows(4, low.2, high.2)
            blendRows(6, low.3, high.3)
            scatterRows(UnsafeRawPointer(results), rows, left, right)
        }
    }

    /// Paints the eight rows where only one crossing is in the frame, with four-pixel windows at
    /// `x` (`init` with `window: 4`): lane 2r + h computes pixels 2h and 2h + 1 of row r.
    @inlinable @inline(never)
    func paintNarrowOneSide<Coverage: SteepCoverage>(
        _ x: SIMD8<Int64>, _ rows: BlockRows, _ at: Coverage, _ source: SourceColor
    ) {
        let columns = rows.centres.columns(x, x) + LaneFloats(0, 2, 0, 2, 0, 2, 0, 2, 0, 2, 0, 2, 0, 2, 0, 2)
        let (upper, lower) = zipOnes(at(columns, 0), at(columns, 1))
        paintWholeQuarters(
            (rows.address(0, x), rows.address(1, x), rows.address(2, x), rows.address(3, x)), upper, source)
        paintWholeQuarters(
            (rows.address(4, x), rows.address(5, x), rows.address(6, x), rows.address(7, x)), lower, source)
    }

    /// Paints the eight rows where only one crossing is in the frame, with eight-pixel windows
    /// at `x`: lane 2r + h computes pixels 4h...4h + 3 of row r; transposed, two rows a vector.
    @inlinable @inline(never)
    func paintOneSide<Coverage: SteepCoverage>(
        _ x: SIMD8<Int64>, _ rows: BlockRows, _ at: Coverage, _ source: SourceColor
    ) {
        let columns = rows.centres.columns(x, x) + LaneFloats(0, 4, 0, 4, 0, 4, 0, 4, 0, 4, 0, 4, 0, 4, 0, 4)
        let c = at.four(columns, from: 0)
        let (v0, v1, v2, v3) = windowsOfFour(c.0, c.1, c.2, c.3)
        SteepWindows(left: rows.address(0, x), right: rows.address(1, x)).blend(v0, source)
        SteepWindows(left: rows.address(2, x), right: rows.address(3, x)).blend(v1, source)
        SteepWindows(left: rows.address(4, x), right: rows.address(5, x)).blend(v2, source)
        SteepWindows(left: rows.address(6, x), right: rows.address(7, x)).blend(v3, source)
    }
}

/// Two eight-pixel windows (of one row or two) blended as one vector's halves.
@frozen @usableFromInline
struct SteepWindows {
    @usableFromInline let left: UnsafeMutableRawPointer
    @usableFromInline let right: UnsafeMutableRawPointer

    @inlinable @inline(__always)
    init(left: UnsafeMutableRawPointer, right: UnsafeMutableRawPointer) {
        self.left = left
        self.right = right
    }

    /// Source-over at `coverage`; zero-coverage lanes are stored back as loaded. The result is
    /// stored whole and copied out, as in `paintWholeQuarters` (two 256-bit stores split the
    /// blend in two).
    @inlinable @inline(__always)
    func blend(_ coverage: LaneFloats, _ source: SourceColor) {
        let result = blended(coverage, source)
        withUnsafeTemporaryAllocation(of: PixelVector.self, capacity: 1) { buffer in
            buffer.baseAddress!.initialize(to: result)
            scatterHalves(UnsafeRawPointer(buffer.baseAddress!), left, right)
        }
    }
}

extension SteepWindows {
    /// The two windows' pixels after source-over at `coverage` (zero-coverage lanes as loaded).
    @inlinable @inline(__always)
    func blended(_ coverage: LaneFloats, _ source: SourceColor) -> PixelVector {
        let before = PixelVector(
            lowHalf: left.loadUnaligned(as: SIMD8<UInt32>.self), highHalf: right.loadUnaligned(as: SIMD8<UInt32>.self))
        return blendCovered(before, coverage, source)
    }
}

/// Copies eight rows' results (64 bytes each at `from`) to their two eight-pixel windows at
/// `left` and `right` (see `scatterQuarters`).
@inlinable @inline(never)
func scatterRows(_ from: UnsafeRawPointer, _ rows: BlockRows, _ left: SIMD8<Int64>, _ right: SIMD8<Int64>) {
    for r in 0..<8 {
        rows.address(r, left).storeBytes(
            of: from.loadUnaligned(fromByteOffset: 64 * r, as: SIMD8<UInt32>.self), as: SIMD8<UInt32>.self)
        rows.address(r, right).storeBytes(
            of: from.loadUnaligned(fromByteOffset: 64 * r + 32, as: SIMD8<UInt32>.self), as: SIMD8<UInt32>.self)
    }
}

/// Copies 64 bytes at `from` to two eight-pixel windows (see `scatterQuarters`).
@inlinable @inline(never)
func scatterHalves(_ from: UnsafeRawPointer, _ left: UnsafeMutableRawPointer, _ right: UnsafeMutableRawPointer) {
    left.storeBytes(of: from.loadUnaligned(as: SIMD8<UInt32>.self), as: SIMD8<UInt32>.self)
    right.storeBytes(of: from.loadUnaligned(fromByteOffset: 32, as: SIMD8<UInt32>.self), as: SIMD8<UInt32>.self)
}

/// The width of a steep row's window, in pixels: two fill a vector.
@inlinable @inline(__always) var steepWindow: Int { 8 }

/// The eight rows of a steep block as its painters write them. Blocks are aligned to multiples
/// of eight frame rows and a block is steep or not whatever the band, so each row gets the
/// same coverage model (and bytes) for any band height and thread count; rows of the block
/// outside the band (`from..<to` are the lanes inside) are written to `scratch`, never to the
/// frame, where another thread may be drawing them.
@frozen @usableFromInline
struct BlockRows {
    /// The block's first row and the row stride: not the `PixelSurface`, whose owner reference
    /// cost a retain and a release per painter call (5 % of ripples-1000).
    @usableFromInline let firstRowPixels: UnsafeMutableRawPointer
    @usableFromInline let stride: Int
    @usableFromInline let firstRow: Int
    @usableFromInline let from: Int
    @usableFromInline let to: Int
    @usableFromInline let scratch: UnsafeMutableRawPointer
    @usableFromInline let centres: PixelCentres

    @inlinable @inline(__always)
    init(
        _ surface: PixelSurface, firstRow: Int, lanes: Range<Int>, scratch: UnsafeMutableRawPointer,
        _ centres: PixelCentres
    ) {
        self.init(
            pixels: UnsafeMutableRawPointer(surface.row(firstRow)), stride: surface.stride, firstRow: firstRow,
            lanes: lanes, scratch: scratch, centres)
    }

    /// Rows `stride` bytes apart from `pixels`, the address of the block's first row's column 0
    /// (a copy of the frame's rows: `SteepRows.paintIfSteepThroughCopy`).
    @inlinable @inline(__always)
    init(
        pixels: UnsafeMutableRawPointer, stride: Int, firstRow: Int, lanes: Range<Int>,
        scratch: UnsafeMutableRawPointer, _ centres: PixelCentres
    ) {
        firstRowPixels = pixels
        self.stride = stride
        self.firstRow = firstRow
        from = lanes.lowerBound
        to = lanes.upperBound
        self.scratch = scratch
        self.centres = centres
    }

    /// The address of row `lane`'s window starting at column `x[lane]`.
    @inlinable @inline(__always)
    func address(_ lane: Int, _ x: SIMD8<Int64>) -> UnsafeMutableRawPointer {
        let pixel = firstRowPixels + (lane &* stride &+ Int(truncatingIfNeeded: x[lane]) &* 4)
        return lane >= from && lane < to ? pixel : scratch
    }
}

/// A steep painter's coverage of sixteen pixels: lane m at whole-pixel column offset
/// `columns[m] + k` (exact in `Float`) on its row (`PixelCentres` adds the centre's fraction).
@usableFromInline
protocol SteepCoverage {
    func callAsFunction(_ columns: LaneFloats, _ k: Float) -> LaneFloats
    /// The coverages at offsets k...k + 3.
    func four(_ columns: LaneFloats, from k: Float) -> (LaneFloats, LaneFloats, LaneFloats, LaneFloats)
}

extension SteepCoverage {
    @inlinable @inline(__always)
    func four(_ columns: LaneFloats, from k: Float) -> (LaneFloats, LaneFloats, LaneFloats, LaneFloats) {
        (self(columns, k), self(columns, k + 1), self(columns, k + 2), self(columns, k + 3))
    }
}

/// Each pixel's own normal (`CircleLanes.coverage`), as on the general path.
@frozen @usableFromInline
struct PixelNormalSteep: SteepCoverage {
    @usableFromInline let lanes: CircleLanes
    @usableFromInline let dy: LaneFloats
    @usableFromInline let offsetX: Float

    @inlinable @inline(__always)
    init(_ lanes: CircleLanes, dy: LaneFloats, _ offsetX: Float) {
        self.lanes = lanes
        self.dy = dy
        self.offsetX = offsetX
    }

    @inlinable @inline(__always)
    func callAsFunction(_ columns: LaneFloats, _ k: Float) -> LaneFloats {
        lanes.coverage(dx: (columns + k) + offsetX, dy: dy)
    }
}

/// The row model (`RowNormal`).
@frozen @usableFromInline
struct RowNormalSteep: SteepCoverage {
    @usableFromInline let lanes: CircleLanes
    @usableFromInline let normal: RowNormal
    @usableFromInline let dySquared: LaneFloats
    @usableFromInline let offsetX: Float
    /// With the arc term (not `CircleLanes.straight`).
    @usableFromInline let arcs: Bool

    @inlinable @inline(__always)
    init(_ lanes: CircleLanes, _ normal: RowNormal, dySquared: LaneFloats, _ offsetX: Float) {
        self.lanes = lanes
        self.normal = normal
        self.dySquared = dySquared
        self.offsetX = offsetX
        arcs = !lanes.straight
    }

    @inlinable @inline(__always)
    func callAsFunction(_ columns: LaneFloats, _ k: Float) -> LaneFloats {
        normal.coverage(dx: (columns + k) + offsetX, dySquared: dySquared, lanes, arcs: arcs)
    }

    /// Not inlined: inlined, the coverages' operations met the transposes' lane shuffles in one
    /// basic block and LLVM's SLP vectoriser split them into 128- and 256-bit pieces; here they
    /// end in four whole 512-bit results (returned through memory, forwarded whole).
    @inlinable @inline(never)
    func four(_ columns: LaneFloats, from k: Float) -> (LaneFloats, LaneFloats, LaneFloats, LaneFloats) {
        (self(columns, k), self(columns, k + 1), self(columns, k + 2), self(columns, k + 3))
    }
}

/// Blends four four-pixel windows at `coverage` (zero-coverage lanes stored back as loaded)
/// with the blend in one 512-bit vector: the result is stored whole to the stack and copied out
/// by `scatterQuarters`. (Stored to the windows directly, the four 128-bit stores made LLVM's
/// SLP vectoriser build the whole blend four times in 128-bit pieces.)
@inlinable @inline(__always)
func paintWholeQuarters(
    _ pixels: (UnsafeMutableRawPointer, UnsafeMutableRawPointer, UnsafeMutableRawPointer, UnsafeMutableRawPointer),
    _ coverage: LaneFloats, _ source: SourceColor
) {
    let result = blendCovered(loadQuarters(pixels), coverage, source)
    withUnsafeTemporaryAllocation(of: PixelVector.self, capacity: 1) { buffer in
        buffer.baseAddress!.initialize(to: result)
        scatterQuarters(UnsafeRawPointer(buffer.baseAddress!), pixels)
    }
}

/// Copies 64 bytes at `from` to four windows, 16 bytes each. Not inlined, so the buffer escapes
/// and LLVM keeps the whole-vector store.
@inlinable @inline(never)
func scatterQuarters(
    _ from: UnsafeRawPointer,
    _ to: (UnsafeMutableRawPointer, UnsafeMutableRawPointer, UnsafeMutableRawPointer, UnsafeMutableRawPointer)
) {
    to.0.storeBytes(of: from.loadUnaligned(as: SIMD4<UInt32>.self), as: SIMD4<UInt32>.self)
    to.1.storeBytes(of: from.loadUnaligned(fromByteOffset: 16, as: SIMD4<UInt32>.self), as: SIMD4<UInt32>.self)
    to.2.storeBytes(of: from.loadUnaligned(fromByteOffset: 32, as: SIMD4<UInt32>.self), as: SIMD4<UInt32>.self)
    to.3.storeBytes(of: from.loadUnaligned(fromByteOffset: 48, as: SIMD4<UInt32>.self), as: SIMD4<UInt32>.self)
}

extension SteepRows {
    /// `paintIfSteep` for a block whose windows may leave the clip (its edge cuts `columns`, the
    /// columns the block's rows reach in the frame): the band's rows of those columns are
    /// copied to a buffer and painted there with the frame's windows, and so with the coverage
    /// model the whole frame would give them; only the clip's part is copied back. Rare (a
    /// clip's edge through a ring's side); it keeps a pixel's bytes independent of the clip.
    @inlinable @inline(never)
    static func paintIfSteepThroughCopy(
        _ spans: RowSpans, _ surface: PixelSurface, firstRow: Int, lanes: Range<Int>, columns: Range<Int>,
        clip: ClipRect, frameColumns: ClipRect, _ centres: PixelCentres, _ circle: CircleLanes,
        _ source: SourceColor
    ) -> Bool {
        let width = columns.count
        guard width > 0 else { return false }
        // Eight rows, then a medium window's worth for the rows outside the band.
        return withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 8 * width + mediumWindow) { buffer in
            let copy = buffer.baseAddress!
            for lane in lanes {
                (copy + lane * width).update(from: surface.row(firstRow + lane) + columns.lowerBound, count: width)
            }
            let rows = BlockRows(
                pixels: UnsafeMutableRawPointer(copy) - columns.lowerBound * 4, stride: width * 4, firstRow: firstRow,
                lanes: lanes, scratch: UnsafeMutableRawPointer(copy + 8 * width), centres)
            guard paintIfSteep(spans, rows, area: frameColumns, circle, source) else { return false }
            let keptStart = max(columns.lowerBound, clip.x0)
            let keptEnd = min(columns.upperBound, clip.x1)
            guard keptStart < keptEnd else { return true }
            for lane in lanes {
                (surface.row(firstRow + lane) + keptStart).update(
                    from: copy + lane * width + (keptStart - columns.lowerBound), count: keptEnd - keptStart)
            }
            return true
        }
    }
}

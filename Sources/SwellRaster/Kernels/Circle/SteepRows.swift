/// The fast paths for the steep sides of a ring: blocks of eight rows where each row meets the
/// ring in short runs (at most a window each) separated by the hole, painted with no per-run
/// bookkeeping and the same coverage (`CircleLanes`, `PixelCentres`) as the general path:
/// - both crossings ≤ 4 px: sixteen four-pixel windows, four vectors (`paintNarrow`);
/// - both ≤ 8 px: one vector a row, eight pixels at each crossing (`paint`);
/// - one crossing beyond the frame's left or right edge (a large ring's side): at the visible
///   crossing, four rows a vector when it is ≤ 4 px (`paintNarrowOneSide`), else two
///   (`paintOneSide`).
///
/// Why: a ring 2 px wide is steep (|dx/dy| ≤ 2, so each crossing spans ≤ 8 pixels) over ~90 % of
/// its rows; in ripples-1000, 59 % of the 8-row blocks have both crossings steep and 31 % one
/// crossing off the frame. There the general path's run splitting and window queue cost more
/// than the coverage itself: with coverage and blend replaced by no-ops, 72 % of the ring time
/// remained. Wasted lanes (a window is wider than most runs) cost less than the bookkeeping did.
/// A window lies inside the ring's touch range, and its pixels outside the runs are wholly in
/// the hole, where `CircleLanes` gives coverage exactly 0: they are stored back unchanged, so
/// the output is the general path's, byte for byte, whichever rows form a block.
@frozen @usableFromInline
struct SteepRows {
    /// First pixel of each row's left window, and of its right window.
    @usableFromInline let left: SIMD8<Int64>
    @usableFromInline let right: SIMD8<Int64>

    /// The windows of the eight rows `spans` describes, with a bit set in `failing` for each row
    /// that is not a steep crossing: the hole is missing or narrower than the gap between the
    /// windows, a run is longer than a window, a window would leave `area`, or the row is at or
    /// beyond `rows` (the block's rows left to draw).
    @inlinable @inline(__always)
    init(_ spans: RowSpans, area: ClipRect, window width: Int, rows: Int) {
        let window = SIMD8<Int64>(repeating: Int64(width))
        left = spans.touchStart
        right = spans.touchEnd &- window
        // Each of these is negative in a lane that breaks a condition. Together they also rule
        // out a missing hole (holeStart > holeEnd): the runs would then be ≥ 16 px long.
        let leftRunFits = left &+ window &- spans.holeStart
        let rightRunFits = spans.holeEnd &- right
        let apart = right &- left &- window
        let insideLeft = left &- SIMD8<Int64>(repeating: Int64(area.x0))
        let insideRight = SIMD8<Int64>(repeating: Int64(area.x1)) &- spans.touchEnd
        let inBlock = SIMD8<Int64>(repeating: Int64(rows) - 1) &- SIMD8<Int64>(0, 1, 2, 3, 4, 5, 6, 7)
        let rowBits = SIMD8<Int64>(1, 2, 4, 8, 16, 32, 64, 128)
        let negative = (leftRunFits | rightRunFits | apart | insideLeft | insideRight | inBlock) &>> 63
        failing = (negative & rowBits).wrappedSum()
        // One crossing off the frame (a large ring's side beyond the frame's edge): its run must
        // be wholly outside `area`, and the pixels between it and the other window in the hole.
        let x0 = SIMD8<Int64>(repeating: Int64(area.x0))
        let x1 = SIMD8<Int64>(repeating: Int64(area.x1))
        let leftHidden = x0 &- spans.holeStart
        let rightHidden = spans.holeEnd &- x1
        let rightInside = right &- x0
        let leftInside = x1 &- left &- window
        let onlyRight = (leftHidden | rightRunFits | rightInside | insideRight | inBlock) &>> 63
        let onlyLeft = (rightHidden | leftRunFits | insideLeft | leftInside | inBlock) &>> 63
        failingRightOnly = (onlyRight & rowBits).wrappedSum()
        failingLeftOnly = (onlyLeft & rowBits).wrappedSum()
    }

    /// Paints the eight rows from `firstRow` by the first steep path that fits them all (narrow,
    /// wide, then one visible crossing, narrow before wide) and returns true, or returns false
    /// (nothing painted) when some row needs the general path.
    @inlinable @inline(__always)
    static func paintIfSteep(
        _ spans: RowSpans, rows: Int, _ surface: PixelSurface, area: ClipRect, firstRow: Int,
        _ centres: PixelCentres, _ lanes: CircleLanes, _ source: SourceColor
    ) -> Bool {
        let narrow = SteepRows(spans, area: area, window: quarterWidth, rows: rows)
        if narrow.failing == 0 {
            narrow.paintNarrow(surface, firstRow: firstRow, centres, lanes, source)
            return true
        }
        let wide = SteepRows(spans, area: area, window: steepWindow, rows: rows)
        if wide.failing == 0 {
            wide.paint(surface, firstRow: firstRow, centres, lanes, source)
            return true
        }
        if let x = narrow.oneSideWindows {
            narrow.paintNarrowOneSide(x, surface, firstRow: firstRow, centres, lanes, source)
            return true
        }
        if let x = wide.oneSideWindows {
            wide.paintOneSide(x, surface, firstRow: firstRow, centres, lanes, source)
            return true
        }
        return false
    }

    /// The windows of the visible crossing when every row has just one (the other wholly
    /// beyond the frame), or nil.
    @inlinable var oneSideWindows: SIMD8<Int64>? {
        failingRightOnly == 0 ? right : (failingLeftOnly == 0 ? left : nil)
    }

    /// Rows (bit i for row i of the block) that are not steep crossings on both sides.
    @usableFromInline let failing: Int64
    /// Rows whose left crossing is not wholly left of `area` or whose right one is not steep.
    @usableFromInline let failingRightOnly: Int64
    /// Rows whose right crossing is not wholly right of `area` or whose left one is not steep.
    @usableFromInline let failingLeftOnly: Int64

    /// Paints the eight rows from `firstRow` with four-pixel windows (`init` with `window: 4`):
    /// sixteen windows, four vectors, through the general path's window painter.
    @inlinable @inline(never)
    func paintNarrow(
        _ surface: PixelSurface, firstRow: Int, _ centres: PixelCentres, _ lanes: CircleLanes, _ source: SourceColor
    ) {
        @inline(__always) func address(_ x: SIMD8<Int64>, _ lane: Int) -> UnsafeMutableRawPointer {
            UnsafeMutableRawPointer(surface.row(firstRow + lane) + Int(truncatingIfNeeded: x[lane]))
        }
        let pixels = (
            address(left, 0), address(right, 0), address(left, 1), address(right, 1),
            address(left, 2), address(right, 2), address(left, 3), address(right, 3),
            address(left, 4), address(right, 4), address(left, 5), address(right, 5),
            address(left, 6), address(right, 6), address(left, 7), address(right, 7)
        )
        let leftDx = centres.columns(left)
        let rightDx = centres.columns(right)
        let rowDy = centres.dy(rowsFrom: firstRow)
        let dx = SIMD16<Float>(
            leftDx[0], rightDx[0], leftDx[1], rightDx[1], leftDx[2], rightDx[2], leftDx[3], rightDx[3],
            leftDx[4], rightDx[4], leftDx[5], rightDx[5], leftDx[6], rightDx[6], leftDx[7], rightDx[7])
        let dy = SIMD16<Float>(
            rowDy[0], rowDy[0], rowDy[1], rowDy[1], rowDy[2], rowDy[2], rowDy[3], rowDy[3],
            rowDy[4], rowDy[4], rowDy[5], rowDy[5], rowDy[6], rowDy[6], rowDy[7], rowDy[7])
        paintWindows(queueLength, pixels, dx, dy, -1, centres.offsetX, lanes, source)
    }

    /// Paints the eight rows from `firstRow` where only one crossing is in the frame, with
    /// four-pixel windows at `x` (`init` with `window: 4`): eight windows, two vectors.
    @inlinable @inline(never)
    func paintNarrowOneSide(
        _ x: SIMD8<Int64>, _ surface: PixelSurface, firstRow: Int, _ centres: PixelCentres, _ lanes: CircleLanes,
        _ source: SourceColor
    ) {
        @inline(__always) func address(_ lane: Int) -> UnsafeMutableRawPointer {
            UnsafeMutableRawPointer(surface.row(firstRow + lane) + Int(truncatingIfNeeded: x[lane]))
        }
        let columns = centres.columns(x)
        let rowDy = centres.dy(rowsFrom: firstRow)
        let laneOffset = LaneFloats(0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3)
        let upper = lanes.coverage(
            dx: spreadQuarters(columns.lowHalf) + laneOffset + centres.offsetX, dy: spreadQuarters(rowDy.lowHalf))
        let lower = lanes.coverage(
            dx: spreadQuarters(columns.highHalf) + laneOffset + centres.offsetX, dy: spreadQuarters(rowDy.highHalf))
        paintQuarters(4, (address(0), address(1), address(2), address(3)), upper, -1, source)
        paintQuarters(4, (address(4), address(5), address(6), address(7)), lower, -1, source)
    }

    /// Paints the eight rows from `firstRow`, four at a time: the four coverage computations are
    /// independent, so the core overlaps their long dependency chains (one row at a time was
    /// bound by their latency: 14.1 against 12.8 ms on ripples-1000).
    @inlinable @inline(never)
    func paint(
        _ surface: PixelSurface, firstRow: Int, _ centres: PixelCentres, _ lanes: CircleLanes, _ source: SourceColor
    ) {
        paintFour(surface, 0, firstRow: firstRow, centres, lanes, source)
        paintFour(surface, 4, firstRow: firstRow, centres, lanes, source)
    }

    /// Paints the eight rows from `firstRow` where only one crossing is in the frame, at the
    /// windows `x` (`left` or `right`): two rows a vector, four vectors computed together.
    @inlinable @inline(never)
    func paintOneSide(
        _ x: SIMD8<Int64>, _ surface: PixelSurface, firstRow: Int, _ centres: PixelCentres, _ lanes: CircleLanes,
        _ source: SourceColor
    ) {
        Self.paintTogether(
            pairedWindow(x, surface, 0, firstRow: firstRow, centres),
            pairedWindow(x, surface, 2, firstRow: firstRow, centres),
            pairedWindow(x, surface, 4, firstRow: firstRow, centres),
            pairedWindow(x, surface, 6, firstRow: firstRow, centres), lanes, source)
    }

    /// Rows `lane` and `lane + 1`: their windows at `x` as one vector's two halves.
    @inlinable @inline(__always)
    func pairedWindow(
        _ x: SIMD8<Int64>, _ surface: PixelSurface, _ lane: Int, firstRow: Int, _ centres: PixelCentres
    ) -> SteepWindows {
        let y = firstRow + lane
        let upperX = Int(truncatingIfNeeded: x[lane])
        let lowerX = Int(truncatingIfNeeded: x[lane + 1])
        let dx = centres.dx(windowsFrom: upperX, lowerX)
        let dy = LaneFloats(lowHalf: SIMD8(repeating: centres.dy(y)), highHalf: SIMD8(repeating: centres.dy(y + 1)))
        return SteepWindows(
            left: UnsafeMutableRawPointer(surface.row(y) + upperX),
            right: UnsafeMutableRawPointer(surface.row(y + 1) + lowerX), dx: dx, dy: dy)
    }

    @inlinable @inline(__always)
    func paintFour(
        _ surface: PixelSurface, _ first: Int, firstRow: Int, _ centres: PixelCentres, _ lanes: CircleLanes,
        _ source: SourceColor
    ) {
        Self.paintTogether(
            window(surface, first, firstRow: firstRow, centres),
            window(surface, first + 1, firstRow: firstRow, centres),
            window(surface, first + 2, firstRow: firstRow, centres),
            window(surface, first + 3, firstRow: firstRow, centres), lanes, source)
    }

    /// Four vectors' coverage first, then their blends: the four coverage chains are independent,
    /// so the core overlaps them (one row at a time was bound by their latency).
    @inlinable @inline(__always)
    static func paintTogether(
        _ a: SteepWindows, _ b: SteepWindows, _ c: SteepWindows, _ d: SteepWindows, _ lanes: CircleLanes,
        _ source: SourceColor
    ) {
        let coverageA = lanes.coverage(dx: a.dx, dy: a.dy)
        let coverageB = lanes.coverage(dx: b.dx, dy: b.dy)
        let coverageC = lanes.coverage(dx: c.dx, dy: c.dy)
        let coverageD = lanes.coverage(dx: d.dx, dy: d.dy)
        a.blend(coverageA, source)
        b.blend(coverageB, source)
        c.blend(coverageC, source)
        d.blend(coverageD, source)
    }

    /// Row `lane` of the block: its two windows and their pixel centres' offsets from the centre.
    @inlinable @inline(__always)
    func window(_ surface: PixelSurface, _ lane: Int, firstRow: Int, _ centres: PixelCentres) -> SteepWindows {
        let y = firstRow + lane
        let row = surface.row(y)
        let leftX = Int(truncatingIfNeeded: left[lane])
        let rightX = Int(truncatingIfNeeded: right[lane])
        let dx = centres.dx(windowsFrom: leftX, rightX)
        let dy = LaneFloats(repeating: centres.dy(y))
        return SteepWindows(
            left: UnsafeMutableRawPointer(row + leftX), right: UnsafeMutableRawPointer(row + rightX), dx: dx, dy: dy)
    }
}

/// One steep row's two windows (eight pixels each) and their pixel centres' offsets from the
/// ring's centre.
@frozen @usableFromInline
struct SteepWindows {
    @usableFromInline let left: UnsafeMutableRawPointer
    @usableFromInline let right: UnsafeMutableRawPointer
    @usableFromInline let dx: LaneFloats
    @usableFromInline let dy: LaneFloats

    @inlinable @inline(__always)
    init(left: UnsafeMutableRawPointer, right: UnsafeMutableRawPointer, dx: LaneFloats, dy: LaneFloats) {
        self.left = left
        self.right = right
        self.dx = dx
        self.dy = dy
    }

    /// Source-over at `coverage`; zero-coverage lanes are stored back as loaded.
    @inlinable @inline(__always)
    func blend(_ coverage: LaneFloats, _ source: SourceColor) {
        let before = PixelVector(
            lowHalf: left.loadUnaligned(as: SIMD8<UInt32>.self), highHalf: right.loadUnaligned(as: SIMD8<UInt32>.self))
        let after = SwellRaster.blend(before, source, alpha: coverage * source.alpha)
        let keep = zeroLanes(coverage)
        let result = (after & ~keep) | (before & keep)
        left.storeBytes(of: result.lowHalf, as: SIMD8<UInt32>.self)
        right.storeBytes(of: result.highHalf, as: SIMD8<UInt32>.self)
    }
}

/// The width of a steep row's window, in pixels: two fill a vector.
@inlinable @inline(__always) var steepWindow: Int { 8 }

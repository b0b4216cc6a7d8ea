/// Band planning for `FrameRenderer`: cuts a frame's damage into the work items its threads
/// take, row bands or vertical strips (`RenderTuning` chooses how).
///
/// Rules: the damage is first made disjoint rectangles, then cut; the items cover it exactly,
/// in order, so any cut gives the same bytes (every kernel's pixels are independent of its
/// clip). One thread draws each rectangle as one band. Several take bands of decreasing
/// estimated cost (`guidedBands`) for frames of mostly circles (capped at about a core's L2
/// cache of pixels) or without waves; frames with waves get few bands of equal estimated cost
/// (`cutIntoBalancedBands`), since their kernels compute columns again in every band; frames of
/// wave strokes and layers only get one vertical strip a thread (`cutIntoStrips`). Storage is
/// kept between frames: planning allocates nothing once warm.
public struct BandPlan {
    /// The damage as disjoint rectangles, and the edges `disjointRects` sorts them with.
    private(set) var regions: [ClipRect] = []
    private var edges: [Int] = []
    /// The work items: bands of rows, or strips of columns (`drewStrips`).
    private(set) var bands: [ClipRect] = []
    /// Each row's estimated cost (`cutIntoBalancedBands`).
    private var rowCosts: [Int] = []
    /// Whether the last frame planned was cut into strips.
    private(set) var drewStrips = false

    /// Cuts `damage` into `bands` for `threads` threads (`RenderTuning.bandThreads`), with what
    /// binning found (`bins`, `counts`).
    mutating func cut(
        _ damage: Damage, _ list: DisplayList, _ surface: PixelSurface, bins: FrameBins, counts: FrameBins.Counts,
        tuning: RenderTuning, threads: Int
    ) {
        disjointRects(of: damage, into: &regions, edges: &edges)
        var rows = 0
        for region in regions { rows += region.y1 - region.y0 }
        let circles = counts.circles
        let mostlyCircles = 2 * circles > list.commands.count
        let bandHeight = tuning.rowsPerBand(
            height: rows, width: surface.width, mostlyCircles: mostlyCircles, repeatsColumns: counts.waves > 0,
            threads: threads)
        drewStrips = false
        if threads == 1 || tuning.bandHeight != nil {
            cutIntoBands(bandHeight)
        } else if cutsIntoStrips(tuning.stripCut, isStrokeFrame: bins.isStrokeFrame) {
            cutIntoStrips(threads: threads, columns: tuning.stripColumns)
            drewStrips = true
        } else if mostlyCircles || counts.waves == 0 {
            // Circles keep their cache-sized bands as the largest, on multiples of eight rows.
            let alignment = circles > 0 ? 8 : pathBandRows
            let mostRows = mostlyCircles ? bandHeight : rows
            withRowCosts(list, surface, bins) { plan, costs, _ in
                BandPlan.guidedBands(
                    costs, plan.regions, threads: threads, alignment: alignment, mostRows: mostRows, into: &plan.bands)
            }
        } else {
            let count = (rows + bandHeight - 1) / bandHeight
            cutIntoBalancedBands(count, list, surface, bins, alignment: circles > 0 ? 8 : 1)
        }
    }

    /// Whether this frame is cut into vertical strips (`RenderTuning.stripCut`).
    private func cutsIntoStrips(_ stripCut: RenderTuning.StripCut, isStrokeFrame: Bool) -> Bool {
        switch stripCut {
        case .never: return false
        case .always: return true
        case .strokes: return isStrokeFrame
        }
    }

    /// Cuts every damage rectangle into vertical strips of its full height: one a thread (or,
    /// with `columns`, strips narrowing from both sides towards the middle). The caller takes
    /// them from the left, the helpers from the right (`ParallelStrips`).
    ///
    /// Why strips: the waveform's strokes and its layer's horizontal-gradient mask are the same
    /// work in every column, and in a strip a stroke computes only its own columns; in row bands
    /// each stroke's columns (sines, end cuts, chord bounds) are computed once per frame in a
    /// phase of their own before the bands (`StrokeColumnTable`, ~95 µs of the two-thread
    /// frame's ~330), whose end every thread waits for. Why from both ends: each thread then
    /// draws the same columns every frame, which stay in its core's cache (strips handed out by
    /// one counter changed hands from frame to frame, and were slower). Why not narrower strips:
    /// each costs several µs of set-up per stroke, and the 64-column cut was slower than one
    /// strip a thread.
    private mutating func cutIntoStrips(threads: Int, columns: Int?) {
        bands.removeAll(keepingCapacity: true)
        for region in regions {
            let perThread = (region.x1 - region.x0 + threads - 1) / threads
            let columns = columns ?? max(64, (perThread + 63) / 64 * 64)
            BandPlan.appendStrips(of: region, columns: columns, threads: threads, into: &bands)
        }
    }

    /// Appends to `strips` the strips of `region`, left to right: on each side a `1 / (2 ·
    /// threads)` share of its columns cut on multiples of `columns` (at least `columns` wide),
    /// then the same cut of what lies between, down to one or two strips of `columns` in the
    /// middle (the region's edge strips also take its columns before the first multiple and
    /// after the last).
    public static func appendStrips(of region: ClipRect, columns: Int, threads: Int, into strips: inout [ClipRect]) {
        appendStrips(of: region, from: region.x0, to: region.x1, columns: columns, threads: threads, into: &strips)
    }

    private static func appendStrips(
        of region: ClipRect, from left: Int, to right: Int, columns: Int, threads: Int, into strips: inout [ClipRect]
    ) {
        let low = (left + columns - 1) / columns
        let high = right / columns
        guard high - low > 2 else {
            // The middle: at most two strips, cut at the multiple between them.
            let cut = high - low == 2 ? (low + 1) * columns : right
            strips.append(ClipRect(x0: left, y0: region.y0, x1: cut, y1: region.y1))
            if cut < right { strips.append(ClipRect(x0: cut, y0: region.y0, x1: right, y1: region.y1)) }
            return
        }
        let width = max(1, (high - low) / (2 * threads)) * columns
        strips.append(ClipRect(x0: left, y0: region.y0, x1: low * columns + width, y1: region.y1))
        appendStrips(
            of: region, from: low * columns + width, to: high * columns - width, columns: columns, threads: threads,
            into: &strips)
        strips.append(ClipRect(x0: high * columns - width, y0: region.y0, x1: right, y1: region.y1))
    }

    /// Cuts every disjoint damage rectangle into bands of at most `bandHeight` rows.
    private mutating func cutIntoBands(_ bandHeight: Int) {
        bands.removeAll(keepingCapacity: true)
        for region in regions {
            var top = region.y0
            while top < region.y1 {
                let bottom = min(region.y1, top + bandHeight)
                bands.append(ClipRect(x0: region.x0, y0: top, x1: region.x1, y1: bottom))
                top = bottom
            }
        }
    }

    /// Cuts the damage rectangles into about `count` bands of equal estimated cost: a row costs
    /// the widths of the commands' rectangles crossing it (an eighth of that in a wave fill's
    /// covered rows, `cheapRows`), plus a quarter of the frame's width (clearing and writing
    /// it). Cuts fall on multiples of `alignment` rows (eight when the frame has rings or discs:
    /// their kernel cuts a block of eight rows through a heap temporary).
    ///
    /// Why: equal rows left one of two threads waiting when the commands crowd one side of the
    /// damage (a waveform's strokes pile up around its baseline, text sits at the top of its band).
    private mutating func cutIntoBalancedBands(
        _ count: Int, _ list: DisplayList, _ surface: PixelSurface, _ bins: FrameBins, alignment: Int
    ) {
        withRowCosts(list, surface, bins) { plan, costs, total in
            let share = max(1, (total + count - 1) / max(1, count))
            plan.bands.removeAll(keepingCapacity: true)
            var spent = 0
            var goal = share
            for region in plan.regions {
                var top = region.y0
                for y in region.y0..<region.y1 {
                    spent += costs[y]
                    guard spent >= goal, (y + 1) % alignment == 0, y + 1 < region.y1 else { continue }
                    plan.bands.append(ClipRect(x0: region.x0, y0: top, x1: region.x1, y1: y + 1))
                    top = y + 1
                    while goal <= spent { goal += share }
                }
                plan.bands.append(ClipRect(x0: region.x0, y0: top, x1: region.x1, y1: region.y1))
            }
        }
    }

    /// Calls `body` with the plan, each row's estimated cost (`sumRowCosts`) and their sum over
    /// the damage rectangles' rows, in the storage kept between frames. The per-row work runs on
    /// a local array through its buffer: indexing stored storage in these loops paid an
    /// exclusivity check per access, ~20 µs a frame of the two-thread waveform's serial part (a
    /// per-frame trace), a tenth of a band.
    private mutating func withRowCosts(
        _ list: DisplayList, _ surface: PixelSurface, _ bins: FrameBins,
        _ body: (inout BandPlan, UnsafeBufferPointer<Int>, Int) -> Void
    ) {
        var costs: [Int] = []
        swap(&costs, &rowCosts)
        defer { swap(&costs, &rowCosts) }
        costs.removeAll(keepingCapacity: true)
        costs.append(contentsOf: repeatElement(0, count: surface.height + 1))
        let total = costs.withUnsafeMutableBufferPointer { costs in sumRowCosts(costs, list, surface, bins) }
        costs.withUnsafeBufferPointer { costs in body(&self, costs, total) }
    }

    /// Cuts `regions` (disjoint rectangles, rows within `costs`) into `bands` of decreasing
    /// estimated cost (`costs[y]`: row y's), to be taken in this order from a shared counter:
    /// each about a `1 / (2 · threads)` share of the cost not yet cut, down to `1 / (16 ·
    /// threads)` of the whole; cuts on multiples of `alignment` rows, and a band cut once it
    /// reaches `mostRows` rows (at the next multiple). The bands cover the regions exactly, in
    /// order.
    ///
    /// Why: a row's estimated cost is rough (the slideshow's reveal edge rows cost twice its inner
    /// rows; a band of rings many times a band of a wave's covered rows). With bands of equal
    /// estimated cost, the thread that took the last one finished ~0.3 ms after the other, 13 %
    /// of the two-thread slideshow and layers frames (a per-frame trace). Large bands first and
    /// small ones last let whichever thread is free take the next, and the last ones are short:
    /// both finish together. Sixteen rows (`pathBandRows`) for frames without circles: the path
    /// kernel works in tiles of 16 rows from the band's top, walking the whole path for each, so
    /// a band of 50 rows paid a fourth walk for its last 2 rows.
    public static func guidedBands(
        _ costs: UnsafeBufferPointer<Int>, _ regions: [ClipRect], threads: Int, alignment: Int, mostRows: Int,
        into bands: inout [ClipRect]
    ) {
        var remaining = 0
        for region in regions {
            for y in region.y0..<region.y1 { remaining += costs[y] }
        }
        let smallest = max(1, remaining / (16 * threads))
        bands.removeAll(keepingCapacity: true)
        for region in regions {
            var top = region.y0
            var spent = 0
            for y in region.y0..<region.y1 {
                spent += costs[y]
                let full = spent >= max(smallest, remaining / (2 * threads)) || y + 1 - top >= mostRows
                guard full, (y + 1) % alignment == 0, y + 1 < region.y1 else { continue }
                bands.append(ClipRect(x0: region.x0, y0: top, x1: region.x1, y1: y + 1))
                remaining -= spent
                spent = 0
                top = y + 1
            }
            bands.append(ClipRect(x0: region.x0, y0: top, x1: region.x1, y1: region.y1))
            remaining -= spent
        }
    }

    /// Fills `costs` (zeroed, `height + 1` rows) with each row's estimated cost (see
    /// `cutIntoBalancedBands`) and returns the sum over the damage rectangles' rows.
    private func sumRowCosts(
        _ costs: UnsafeMutableBufferPointer<Int>, _ list: DisplayList, _ surface: PixelSurface, _ bins: FrameBins
    ) -> Int {
        let width = surface.width
        let height = surface.height
        @inline(__always) func add(_ cost: Int, _ y0: Int, _ y1: Int) {
            let top = max(0, min(height, y0))
            let bottom = max(top, min(height, y1))
            costs[top] += cost
            costs[bottom] -= cost
        }
        let rects = bins.rects
        for rect in rects where !rect.isEmpty { add(rect.x1 - rect.x0, rect.y0, rect.y1) }
        for index in bins.waveFills where !rects[index].isEmpty {
            guard let covered = cheapRows(of: list.commands[index], surface) else { continue }
            let rect = rects[index]
            add((rect.x0 - rect.x1) * 7 / 8, max(rect.y0, covered.lowerBound), min(rect.y1, covered.upperBound))
        }
        var running = max(1, width / 4)
        for y in 0..<height {
            running += costs[y]
            costs[y] = running
        }
        var total = 0
        for region in regions {
            for y in region.y0..<region.y1 { total += costs[y] }
        }
        return total
    }

    /// The rows of a wave fill that it covers fully (nil: none): over virtual rows, as in
    /// scenes that fill waves first, each costs one pixel's blend, not a row's
    /// (`UniformRows`); the layers scene's flow covers a fifth of the frame so.
    private func cheapRows(of command: FrameCommand, _ surface: PixelSurface) -> Range<Int>? {
        guard case .draw(let draw) = command, case .waveFill(let wave) = draw.shape, draw.origin == .zero,
            let fill = WaveFillRows(
                wave, SourceColor(draw.color), surface: surface, clip: draw.clip ?? surface.bounds)
        else { return nil }
        return fill.fullRows
    }
}

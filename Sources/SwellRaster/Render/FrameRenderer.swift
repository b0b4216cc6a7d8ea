import Synchronization

/// Renders display lists (shapes, pictures, layers and their masks) in horizontal bands, on one
/// thread or several, drawing only the pixels that can differ from the previous frame.
///
/// Why bands: threads take bands from a shared counter, so the work spreads evenly however it
/// is distributed down the frame. By default one thread draws the rows as one band; several
/// take bands of decreasing estimated cost, largest first, so they finish together
/// (`guidedBands`), none taller than about 1 MiB of pixels (`circleBandBytes`, 136 rows at 1920
/// wide) when most commands are rings or discs (their read-modify-write of pixels scattered over
/// the frame then stays in the core's L2 cache); frames with wave fills or strokes and few
/// circles keep one to four bands a thread of equal estimated cost, of at least
/// `minimumBandRows` (`rowsPerBand` says why). Every kernel's pixels are independent of its
/// clip rectangle (FrameRendererTests), so the output is byte-identical for any band height and
/// thread count, and to the plain op-by-op `render(_:into:)` of a `DisplayList`.
///
/// Each command's bounding rectangle is computed once per frame ("binning"; a layer's begin and
/// end get the union of their contents); a band then draws only the commands that reach it,
/// clipped to the band. A layer copies the band's part of its rectangle aside when it begins
/// (the "below" copy, per band, in its thread's scratch) and mixes it back through the mask when
/// it ends: no whole-frame copy. Within a band, rows stay "virtual" (one colour per row,
/// `UniformRows`) while they are uniform: the clear writes nothing, a full-width wave fill turns
/// each of its fully covered virtual rows into its one-pixel blend, an opaque picture covering
/// the band's columns replaces them, and any other drawing first writes the virtual rows of its
/// rectangle; the rest are written once at the end of the band.
///
/// Damage (FrameDamage.swift): the commands' rectangles and hashes are kept from one frame to
/// the next; the rows of the commands between the common prefix and suffix of the two frames
/// are the damage (`Damage`, at most 16 rectangles, each the frame's width — the kernels' pixels
/// depend on the clip's rows only when it spans the width, see `wholeRows` — except where only
/// glyph runs and pictures meet a changed one's rectangle, `keepingColumns`), cut into disjoint
/// rectangles and then into bands. Only those are drawn; the surface keeps the previous frame elsewhere.
///
/// Occlusion: within a band, a command is not drawn in the rows that a later opaque picture or
/// the fully covered rows of a later opaque full-width wave fill cover (outside any layer):
/// those pixels are the occluder's whatever lay under them (`BandJob.visibleRows`). In the curve
/// rows of the last such fill, earlier wave fills also skip the 16-column groups it covers
/// (`HiddenGroups`, `BandJob.hiddenGroups`).
///
/// Shared columns: a wave stroke that several bands draw has its columns (cross-sections, cap
/// edges, chord bounds) computed once per frame before the bands, on every thread
/// (`StrokeColumnTable`); each band then draws only the column groups that reach its rows.
/// Frames of wave strokes and layers only (the waveform) are cut instead into vertical strips,
/// one a thread, each computing its own columns (`cutIntoStrips`).
///
/// Figure (the virtual kiosk, `scripts/vm/strip-bench --icount`: render plus the copy to a DRM
/// dumb buffer in millions of guest instructions, 2026-12-03, history in docs/speed.md): the strip
/// page (examples/strip.json, a picture under a 70-row wave strip, 1920x1080) 1.35 a frame
/// against 0.98 for the strip alone over white (1.38x; 2.2x before the occlusion and exact rows).
/// Storage is reused between frames: after the first frame of a given command count and size,
/// rendering allocates nothing, on one thread or several (the helper threads are created once,
/// `WorkerPool`). The commands are read without reference counting (`withUnretained`): the list
/// holds them while the frame is drawn.
public final class FrameRenderer {
    /// Rows per band, or nil for the default (`rowsPerBand`).
    public let bandHeight: Int?
    /// Worker threads; 1 renders on the calling thread.
    public let threads: Int
    /// The threads the rows are cut into bands for (default `threads`). More than `threads`
    /// draws the same bands in sequence: what the cut alone costs, without a second core (the
    /// columns a wave computes again in each band show here; contention between cores does not).
    public var bandThreads: Int

    /// Each command's rectangle this frame (a layer's begin and end: the union of its contents).
    private var rects: [ClipRect] = []
    /// Open layers while binning: the begin's index and the union of its contents so far.
    private var openLayers: [(begin: Int, union: ClipRect)] = []
    /// This frame's and the previous frame's command signatures, and the images each held (kept
    /// one frame longer, so an image's address is not reused while it is compared).
    private var signatures: [CommandSignature] = []
    private var previousSignatures: [CommandSignature] = []
    private var images: [PixelBuffer] = []
    private var previousImages: [PixelBuffer] = []
    /// The surface and background of the previous tracked frame (nil: none, or forgotten), and
    /// the surface's owner, held so that a new buffer cannot take its memory's address unnoticed.
    private var previousTarget: Target?
    private var previousOwner: AnyObject?
    /// Commands that cover a rectangle with opaque pixels whatever is under them, in order:
    /// what an earlier command draws in their rows is hidden (`BandJob.visibleRows`).
    private var occluders: [Occluder] = []
    /// The last opaque full-width wave fill outside layers (-1: none): the earlier commands may
    /// leave alone the pixels of its curve rows that it covers (`HiddenGroups`).
    private var columnOccluder = -1
    private var damage = Damage()
    /// The damage as disjoint rectangles, then cut into bands: the work items.
    private var regions: [ClipRect] = []
    private var edges: [Int] = []
    private var bands: [ClipRect] = []
    /// Each row's estimated cost (`cutIntoBalancedBands`).
    private var rowCosts: [Int] = []
    /// This frame's wave fills (their covered rows cost little, `cheapRows`).
    private var waveFills: [Int] = []
    /// Whether the last binned frame holds wave strokes and nothing but layers besides (the
    /// waveform scene; `bin` finds it while it sorts the commands).
    private var isStrokeFrame = false
    /// One per thread: virtual row colours and the layers' band-local "below" copies.
    private let scratch: [BandScratch]
    private var views: ScratchViews
    /// The helper threads (created on the first frame drawn in several bands) and their band counter.
    private var helpers: WorkerPool?
    private let bandCounter = BandCounter()
    /// Whether wave strokes drawn in several bands have their columns computed once per frame
    /// (`StrokeColumnTable`; the same bytes either way: off only to measure and test it).
    public var sharesStrokeColumns = true
    /// How many strokes the last frame drawn shared their columns for.
    public private(set) var sharedStrokes = 0
    /// Which frames several threads draw in vertical strips instead of row bands
    /// (`cutIntoStrips`; the same bytes either way).
    public var stripCut = StripCut.strokes
    /// The strips' cuts fall on multiples of this many columns, and none but a region's edge
    /// strips is narrower (best a multiple of 16, the kernels' column groups, or a group's
    /// columns are computed in both strips); nil: one strip per thread (`bandThreads`), a
    /// multiple of 64 columns wide.
    public var stripColumns: Int?
    /// Whether the last frame drawn was cut into strips.
    public private(set) var drewStrips = false
    private let strokeColumns = StrokeColumnTable()
    private var pool: WorkerPool {
        if let helpers { return helpers }
        let created = WorkerPool(helpers: threads - 1)
        helpers = created
        return created
    }
    /// Viewport rendering (FrameViewport.swift): the canvas rows drawn before cropping, the
    /// tile they were last copied to (nil: none, or forgotten) and its owner, and the damage in
    /// the tile's pixels.
    var viewportRows: PixelBuffer?
    var previousTile: Target?
    var previousTileOwner: AnyObject?
    var tileDamage = Damage()

    struct Target: Equatable {
        var base: UnsafeMutableRawPointer
        var width: Int
        var height: Int
        var stride: Int
        var background: UInt32
    }

    public init(threads: Int = 1, bandHeight: Int? = nil) {
        precondition(threads >= 1 && (bandHeight ?? 1) >= 1)
        self.threads = threads
        self.bandHeight = bandHeight
        bandThreads = threads
        scratch = (0..<threads).map { _ in BandScratch() }
        views = ScratchViews(scratch.map(\.view))
    }

    /// The rows per band used for `height` rows to draw (the damaged rows, or the frame's height
    /// when it is drawn whole) `width` pixels wide, when `mostlyCircles` of its commands are rings
    /// and discs (see the type's notes).
    ///
    /// Why equal bands, one per thread when the rows are few: a wave stroke or fill computes its
    /// columns (sines, cross-sections, end cuts: ~11 % of the waveform's frame) again in every
    /// band it meets, so the waveform's 200-row bundle cut into seven 32-row bands cost two
    /// threads 70 % more CPU time than one (task-clock, 480 frames), and was slower on two
    /// threads than on one. Bands of at least `minimumBandRows`, up to four per thread for the
    /// balance a shared counter gives, in a multiple of the threads so none waits on a short last
    /// band.
    ///
    /// A frame with no wave fill or stroke (`repeatsColumns` false: no kernel computing its
    /// columns again in every band) is cut finer, up to eight bands a thread of at least
    /// `minimumFineBandRows`: the slideshow's reveal rows cost unevenly (the path's edges in its
    /// first and last band), and with three bands a thread one thread waited ~0.33 ms of a
    /// 2.5 ms frame for the other (a per-frame trace, portable build). On several threads such
    /// frames, and frames of mostly circles, are now cut by `guidedBands` instead (this height
    /// then only caps the circles' bands).
    public func rowsPerBand(height: Int, width: Int, mostlyCircles: Bool, repeatsColumns: Bool = true) -> Int {
        if let bandHeight { return bandHeight }
        guard mostlyCircles else {
            let minimum = repeatsColumns ? FrameRenderer.minimumBandRows : FrameRenderer.minimumFineBandRows
            let most = repeatsColumns ? 4 : 8
            let perThread = bandThreads == 1 ? 1 : min(most, max(1, height / (bandThreads * minimum)))
            let count = bandThreads * perThread
            return max(1, (height + count - 1) / count)
        }
        let perThread = bandThreads == 1 ? height : max(32, (height + bandThreads * 4 - 1) / (bandThreads * 4))
        let cacheRows = max(32, FrameRenderer.circleBandBytes / max(1, width * 4))
        return max(1, min(perThread, cacheRows))
    }

    /// The fewest rows a band of a frame not made mostly of circles is cut into when several
    /// threads share it (fewer only when there are fewer rows than threads times this, and then
    /// one band per thread).
    public static let minimumBandRows = 96

    /// `minimumBandRows` for frames without wave fills or strokes.
    public static let minimumFineBandRows = 48

    /// A band's pixel bytes when circles dominate the frame: about a core's L2 cache (1 MiB on
    /// Zen 4/5, 512 KiB on a Raspberry Pi 5's Cortex-A76, where 1 MiB bands still halve the
    /// working set of a whole 1080p frame).
    public static let circleBandBytes = 1 << 20

    /// Renders `list` into `surface` and returns the pixels that may differ from the previous
    /// frame rendered into it. With `tracksDamage`, and a previous tracked frame of this renderer
    /// on the same surface, size and background not forgotten by `invalidate()`, only those
    /// pixels are drawn, the rest keeping the previous frame's; a frame equal to the previous one
    /// draws nothing and returns no damage. Otherwise every pixel is drawn and the damage is the
    /// whole frame. The damage is this renderer's storage: a caller keeping it past the next
    /// frame copies its rectangles (`Damage.formUnion`).
    @discardableResult
    public func render(_ list: DisplayList, into surface: PixelSurface, tracksDamage: Bool = true) -> Damage {
        precondition(
            surface.width == list.width && surface.height == list.height, "surface size differs from the list's")
        return renderRows(list, 0..<list.height, into: surface, tracksDamage: tracksDamage)
    }

    /// Draws only the rows `rows` of `list` into `surface`, addressed in the list's coordinates
    /// (as wide as the list, `rows.upperBound` high), whose rows above `rows` need not be
    /// memory: every band lies within `rows`, and every kernel clips to its band. The damage is
    /// within `rows`, in the list's coordinates.
    func renderRows(_ list: DisplayList, _ rows: Range<Int>, into surface: PixelSurface, tracksDamage: Bool) -> Damage {
        // Sleeping helpers wake while this thread bins the commands and finds the damage.
        helpers?.wake()
        let (circles, waves, depth) = bin(list, tracksDamage: tracksDamage)
        findDamage(list, surface, rows: rows, tracksDamage: tracksDamage, rowAlignment: circles > 0 ? 8 : 1)
        if !damage.isEmpty {
            disjointRects(of: damage, into: &regions, edges: &edges)
            var damagedRows = 0
            for region in regions { damagedRows += region.y1 - region.y0 }
            cutDamage(list, surface, rows: damagedRows, circles: circles, waves: waves)
            findOccluders(list, surface)
            shareStrokeColumns(list, surface, waves: waves)
            var tallest = 1
            for band in bands { tallest = max(tallest, band.y1 - band.y0) }
            for (index, worker) in scratch.enumerated() {
                worker.reserve(rows: tallest, width: surface.width, depth: depth)
                views.views[index] = worker.view
            }
            renderBands(list, surface)
        }
        // The previous frame's images can go now; this frame's stay until the next is compared.
        swap(&images, &previousImages)
        images.removeAll(keepingCapacity: true)
        return damage
    }

    /// Forgets the previous frame: the next `render` draws every pixel. A new or resized surface
    /// is noticed on its own (a `PixelBuffer`'s by its owner, wrapped memory by its address);
    /// this is for memory written by someone else, lost, or reallocated at the same address.
    public func invalidate() {
        previousTarget = nil
        previousOwner = nil
        previousTile = nil
        previousTileOwner = nil
    }

    /// Fills `rects` (and, when tracking, `signatures` and `images`); returns how many commands
    /// are rings or discs, how many wave fills or strokes, and how deep layers nest. The commands
    /// are read without reference counting (`withUnretained`).
    private func bin(_ list: DisplayList, tracksDamage: Bool) -> (circles: Int, waves: Int, depth: Int) {
        rects.removeAll(keepingCapacity: true)
        waveFills.removeAll(keepingCapacity: true)
        openLayers.removeAll(keepingCapacity: true)
        var counts = BinCounts()
        list.commands.withUnsafeBufferPointer { commands in
            for index in commands.indices {
                commands.withUnretained(index) { command in
                    bin(command, index, width: list.width, height: list.height, counts: &counts)
                }
            }
        }
        // A layer never ended does nothing (its contents are drawn as they are).
        for layer in openLayers { rects[layer.begin] = ClipRect(x0: 0, y0: 0, x1: 0, y1: 0) }
        isStrokeFrame = counts.strokes > 0 && counts.strokes + counts.layerCommands == list.commands.count
        if tracksDamage { sign(list) }
        return (counts.circles, counts.waves, counts.depth)
    }

    /// What `bin` counts while it walks the commands.
    private struct BinCounts {
        var circles = 0
        var waves = 0
        var depth = 0
        var strokes = 0
        var layerCommands = 0
    }

    /// Appends command `index`'s rectangle to `rects` (a layer's end: the union of its contents,
    /// also given to its begin) and counts it.
    private func bin(
        _ command: borrowing FrameCommand, _ index: Int, width: Int, height: Int, counts: inout BinCounts
    ) {
        rects.append(bounds(of: command, width: width, height: height))
        switch command {
        case .draw(let draw):
            switch draw.shape {
            case .ring, .disc: counts.circles += 1
            case .waveFill:
                counts.waves += 1
                waveFills.append(index)
            case .waveStroke:
                counts.waves += 1
                counts.strokes += 1
            default: break
            }
        case .beginLayer:
            counts.layerCommands += 1
            openLayers.append((index, ClipRect(x0: 0, y0: 0, x1: 0, y1: 0)))
            counts.depth = max(counts.depth, openLayers.count)
        case .endLayer:
            counts.layerCommands += 1
            guard let layer = openLayers.popLast() else { return }
            rects[layer.begin] = layer.union
            rects[index] = layer.union
        case .image, .maskedImage:
            break
        }
        if let last = openLayers.indices.last, !rects[index].isEmpty {
            openLayers[last].union = openLayers[last].union.union(rects[index])
        }
    }

    /// Fills `signatures` (the previous frame's kept in `previousSignatures`) and `images`.
    private func sign(_ list: DisplayList) {
        swap(&signatures, &previousSignatures)
        signatures.removeAll(keepingCapacity: true)
        list.commands.withUnsafeBufferPointer { commands in
            for index in commands.indices {
                commands.withUnretained(index) { command in
                    signatures.append(CommandSignature(command, rect: rects[index]))
                    switch command {
                    // Kept (retained) until the next frame is compared.
                    case .image(let image, _, _), .maskedImage(let image, _, _): images.append(image)
                    default: break
                    }
                }
            }
        }
    }

    /// This frame's damage within `rows`: the changed commands' rectangles (on multiples of
    /// `rowAlignment` rows, see `wholeRows`), or all of `rows` when there is no previous frame on
    /// this surface to compare with.
    private func findDamage(
        _ list: DisplayList, _ surface: PixelSurface, rows: Range<Int>, tracksDamage: Bool, rowAlignment: Int
    ) {
        let drawn = ClipRect(x0: 0, y0: rows.lowerBound, x1: surface.width, y1: rows.upperBound)
        let target = Target(
            base: surface.base, width: surface.width, height: surface.height, stride: surface.stride,
            background: list.background.opaquePixel)
        damage.removeAll()
        if tracksDamage, let previous = previousTarget, previous == target, previousOwner === surface.owner {
            addChanges(
                from: previousSignatures, to: signatures, width: surface.width, height: surface.height,
                rowAlignment: rowAlignment, into: &damage)
            damage.formIntersection(drawn)
        } else {
            damage.add(drawn)
        }
        previousTarget = tracksDamage ? target : nil
        previousOwner = tracksDamage ? surface.owner : nil
    }

    /// Fills `occluders`: the opaque pictures and the opaque full-width wave fills' fully covered
    /// rows, outside every layer (inside one, the layer's mask may let the pixels below show).
    /// Why: over a picture, a wave strip's front wave hides the rows below its curve; the
    /// picture's copy and the back wave's blend there were a third of the strip page's frame.
    private func findOccluders(_ list: DisplayList, _ surface: PixelSurface) {
        occluders.removeAll(keepingCapacity: true)
        columnOccluder = -1
        var depth = 0
        // The column occluder's group rows cost a sample pass per band: only worth it when an
        // earlier wave fill can skip pixels with them (not for examples/wave.json's one fill).
        var fillBefore = false
        list.commands.withUnsafeBufferPointer { commands in
            for index in commands.indices where !rects[index].isEmpty {
                commands.withUnretained(index) { command in
                    switch command {
                    case .beginLayer: depth += 1
                    case .endLayer: depth = max(0, depth - 1)
                    case .image(_, let alpha, _) where depth == 0 && alpha >= 1:
                        // The picture's pixels are copied: nothing under them shows.
                        occluders.append(Occluder(index: index, rect: rects[index]))
                    case .draw(let draw) where depth == 0:
                        if let rect = opaqueRows(of: draw, on: surface) {
                            occluders.append(Occluder(index: index, rect: rect))
                        }
                        if fillBefore && isFullWidthOpaqueFill(draw, on: surface) { columnOccluder = index }
                    default: break
                    }
                    if case .draw(let draw) = command, case .waveFill = draw.shape { fillBefore = true }
                }
            }
        }
    }

    /// Cuts the disjoint damage rectangles (`rows` rows in all) into `bands`: one band on
    /// one thread (or bands of the fixed `bandHeight`); on several, frames of mostly circles and
    /// frames without waves into bands of decreasing cost (`guidedBands`), frames with waves into
    /// bands of equal estimated cost (`cutIntoBalancedBands`: their kernels compute columns
    /// again in each band, so they keep few, tall ones).
    private func cutDamage(_ list: DisplayList, _ surface: PixelSurface, rows: Int, circles: Int, waves: Int) {
        let mostlyCircles = 2 * circles > list.commands.count
        let bandHeight = rowsPerBand(
            height: rows, width: surface.width, mostlyCircles: mostlyCircles, repeatsColumns: waves > 0)
        drewStrips = false
        if bandThreads == 1 || self.bandHeight != nil {
            cutIntoBands(bandHeight)
        } else if cutsIntoStrips {
            cutIntoStrips()
            drewStrips = true
        } else if mostlyCircles || waves == 0 {
            // Circles keep their cache-sized bands as the largest, on multiples of eight rows.
            cutIntoGuidedBands(
                list, surface, alignment: circles > 0 ? 8 : pathBandRows, mostRows: mostlyCircles ? bandHeight : rows)
        } else {
            cutIntoBalancedBands((rows + bandHeight - 1) / bandHeight, list, surface, alignment: circles > 0 ? 8 : 1)
        }
    }

    /// Whether this frame is cut into vertical strips (`stripCut`).
    private var cutsIntoStrips: Bool {
        switch stripCut {
        case .never: return false
        case .always: return true
        case .strokes: return isStrokeFrame
        }
    }

    /// Cuts every damage rectangle into vertical strips of its full height: one a thread (or,
    /// with `stripColumns`, strips narrowing from both sides towards the middle). The caller
    /// takes them from the left, the helpers from the right (`ParallelStrips`).
    ///
    /// Why strips: the waveform's strokes and its layer's horizontal-gradient mask are the same
    /// work in every column, and in a strip a stroke computes only its own columns; in row bands
    /// each stroke's columns (sines, end cuts, chord bounds) were computed once per frame in a
    /// phase of their own before the bands (`StrokeColumnTable`, ~95 µs of the two-thread
    /// frame's ~330), whose end every thread waited for. The waveform's two-thread p50 was 3–6 %
    /// shorter (docs/speed.md). Why from both ends: each thread then draws the same columns every
    /// frame, which stay in its core's cache (strips handed out by one counter changed hands
    /// from frame to frame, and were slower). Why not narrower strips: each costs several µs of
    /// set-up per stroke, and the 64-column cut was slower than one strip a thread.
    private func cutIntoStrips() {
        bands.removeAll(keepingCapacity: true)
        for region in regions {
            let perThread = (region.x1 - region.x0 + bandThreads - 1) / bandThreads
            let columns = stripColumns ?? max(64, (perThread + 63) / 64 * 64)
            FrameRenderer.appendStrips(of: region, columns: columns, threads: bandThreads, into: &bands)
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
    private func cutIntoBands(_ bandHeight: Int) {
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
    /// covered rows, `cheapRows`), plus a quarter of the frame's width (clearing and writing it). Cuts fall on multiples of `alignment` rows (eight when the
    /// frame has rings or discs: their kernel cuts a block of eight rows through a heap temporary).
    ///
    /// Why: equal rows left one of two threads waiting when the commands crowd one side of the
    /// damage (a waveform's strokes pile up around its baseline, text sits at the top of its band).
    private func cutIntoBalancedBands(_ count: Int, _ list: DisplayList, _ surface: PixelSurface, alignment: Int) {
        withRowCosts(list, surface) { costs, total in
            let share = max(1, (total + count - 1) / max(1, count))
            bands.removeAll(keepingCapacity: true)
            var spent = 0
            var goal = share
            for region in regions {
                var top = region.y0
                for y in region.y0..<region.y1 {
                    spent += costs[y]
                    guard spent >= goal, (y + 1) % alignment == 0, y + 1 < region.y1 else { continue }
                    bands.append(ClipRect(x0: region.x0, y0: top, x1: region.x1, y1: y + 1))
                    top = y + 1
                    while goal <= spent { goal += share }
                }
                bands.append(ClipRect(x0: region.x0, y0: top, x1: region.x1, y1: region.y1))
            }
        }
    }

    /// Cuts the damage rectangles into bands of decreasing estimated cost (`guidedBands`).
    private func cutIntoGuidedBands(_ list: DisplayList, _ surface: PixelSurface, alignment: Int, mostRows: Int) {
        withRowCosts(list, surface) { costs, _ in
            FrameRenderer.guidedBands(
                costs, regions, threads: bandThreads, alignment: alignment, mostRows: mostRows, into: &bands)
        }
    }

    /// Calls `body` with each row's estimated cost (`sumRowCosts`) and their sum over the damage
    /// rectangles' rows, in the storage kept between frames. The per-row work runs on a local
    /// array through its buffer: indexing the stored property in these loops paid an exclusivity
    /// check per access, ~20 µs a frame of the two-thread waveform's serial part (a per-frame
    /// trace), a tenth of a band.
    private func withRowCosts(
        _ list: DisplayList, _ surface: PixelSurface, _ body: (UnsafeBufferPointer<Int>, Int) -> Void
    ) {
        var costs: [Int] = []
        swap(&costs, &rowCosts)
        defer { swap(&costs, &rowCosts) }
        costs.removeAll(keepingCapacity: true)
        costs.append(contentsOf: repeatElement(0, count: surface.height + 1))
        let total = costs.withUnsafeMutableBufferPointer { costs in sumRowCosts(costs, list, surface) }
        costs.withUnsafeBufferPointer { costs in body(costs, total) }
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
    /// of the two-thread slideshow and layers frames (a per-frame trace, docs/speed.md). Large
    /// bands first and small ones last let whichever thread is free take the next, and the last
    /// ones are short: both finish together. Sixteen rows (`pathBandRows`) for frames without
    /// circles: the path kernel works in tiles of 16 rows from the band's top, walking the whole
    /// path for each, so a band of 50 rows paid a fourth walk for its last 2 rows.
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
    private func sumRowCosts(_ costs: UnsafeMutableBufferPointer<Int>, _ list: DisplayList, _ surface: PixelSurface)
        -> Int
    {
        let width = surface.width
        let height = surface.height
        @inline(__always) func add(_ cost: Int, _ y0: Int, _ y1: Int) {
            let top = max(0, min(height, y0))
            let bottom = max(top, min(height, y1))
            costs[top] += cost
            costs[bottom] -= cost
        }
        for rect in rects where !rect.isEmpty { add(rect.x1 - rect.x0, rect.y0, rect.y1) }
        for index in waveFills where !rects[index].isEmpty {
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

    /// Computes the columns of the wave strokes that several bands draw, once, before the bands
    /// (`StrokeColumnTable`): on the pool's threads, in items taken from a counter. A frame
    /// without waves (`waves`: its wave fills and strokes) does not look at its commands.
    private func shareStrokeColumns(_ list: DisplayList, _ surface: PixelSurface, waves: Int) {
        sharedStrokes = 0
        guard sharesStrokeColumns, !drewStrips, waves > 0, bands.count > 1 else { return }
        let (strokes, items) = list.commands.withUnsafeBufferPointer { commands in
            rects.withUnsafeBufferPointer { rects in
                bands.withUnsafeBufferPointer { bands in
                    strokeColumns.plan(commands, rects: rects, bands: bands, surface: surface)
                }
            }
        }
        sharedStrokes = strokes
        guard items > 0 else { return }
        let view = strokeColumns.view
        if threads == 1 || items == 1 {
            for item in 0..<items { view.fill(item: item, surface: surface) }
            return
        }
        bandCounter.next.store(0, ordering: .relaxed)
        let run = ParallelStrokeColumns(table: view, items: items, surface: surface, counter: bandCounter)
        withUnsafePointer(to: run) { run in
            pool.run(ParallelStrokeColumns.body, context: UnsafeRawPointer(run))
        }
    }

    /// Draws the strips of `job` on the pool (`ParallelStrips`).
    private func renderStrips(_ job: BandJob) {
        precondition(job.bands.count < 1 << 31)
        bandCounter.next.store(job.bands.count << 32, ordering: .relaxed)
        let run = ParallelStrips(job: job, views: views, ends: bandCounter)
        withUnsafePointer(to: run) { run in
            pool.run(ParallelStrips.body, context: UnsafeRawPointer(run))
        }
    }

    private func renderBands(_ list: DisplayList, _ surface: PixelSurface) {
        list.commands.withUnsafeBufferPointer { commands in
            rects.withUnsafeBufferPointer { rects in
                bands.withUnsafeBufferPointer { bands in
                    occluders.withUnsafeBufferPointer { occluders in
                        let job = BandJob(
                            commands: commands, rects: rects, bands: bands, occluders: occluders,
                            columnOccluder: columnOccluder, strokes: sharedStrokes > 0 ? strokeColumns.view : nil,
                            surface: surface, background: list.background.opaquePixel)
                        if threads == 1 || bands.count == 1 {
                            for band in bands { job.render(band, views[0]) }
                            return
                        }
                        if drewStrips {
                            renderStrips(job)
                            return
                        }
                        bandCounter.next.store(0, ordering: .relaxed)
                        let run = ParallelBands(job: job, views: views, counter: bandCounter)
                        withUnsafePointer(to: run) { run in
                            pool.run(ParallelBands.body, context: UnsafeRawPointer(run))
                        }
                    }
                }
            }
        }
    }
}

extension FrameRenderer {
    /// Which frames several threads draw in vertical strips (`cutIntoStrips`) instead of bands of rows.
    public enum StripCut: Sendable {
        /// Never (to measure and test).
        case never
        /// Frames of wave strokes and layers only (the default).
        case strokes
        /// Every frame cut on several threads (to test that every kernel's pixels are the same
        /// whatever the clip's columns; not for rings and discs, whose edge columns differ, see
        /// `wholeRows`).
        case always
    }
}

/// One frame's strips for the worker pool, taken from both ends of the list: the caller from
/// the first, the helpers from the last (`FrameRenderer.cutIntoStrips` says why).
private struct ParallelStrips {
    let job: BandJob
    let views: ScratchViews
    /// The next strip from the front in the low 32 bits, one past the next from the back in the
    /// high 32 bits.
    let ends: BandCounter

    static let body: PoolBody = { context, worker in
        let run = context.assumingMemoryBound(to: ParallelStrips.self)
        let bands = run.pointee.job.bands
        while let strip = run.pointee.take(fromFront: worker == 0) {
            run.pointee.job.render(bands[strip], run.pointee.views[worker])
        }
    }

    /// The next strip from the front or the back (nil: none left).
    func take(fromFront: Bool) -> Int? {
        var old = ends.next.load(ordering: .relaxed)
        while true {
            let front = old & 0xFFFF_FFFF
            let back = old >> 32
            guard front < back else { return nil }
            let (exchanged, original) = ends.next.compareExchange(
                expected: old, desired: fromFront ? old + 1 : old - (1 << 32), ordering: .relaxed)
            if exchanged { return fromFront ? front : back - 1 }
            old = original
        }
    }
}

/// One frame's bands for the worker pool: each thread takes the next band from the counter
/// until none is left (bands of equal cost balance threads that start together; a helper that
/// starts late takes fewer, or none).
private struct ParallelBands {
    let job: BandJob
    let views: ScratchViews
    let counter: BandCounter

    static let body: PoolBody = { context, worker in
        let run = context.assumingMemoryBound(to: ParallelBands.self)
        let bands = run.pointee.job.bands
        while true {
            let band = run.pointee.counter.next.wrappingAdd(1, ordering: .relaxed).oldValue
            guard band < bands.count else { return }
            run.pointee.job.render(bands[band], run.pointee.views[worker])
        }
    }
}

/// The shared stroke columns' fill items for the worker pool, taken from the counter.
private struct ParallelStrokeColumns {
    let table: StrokeColumnTable.View
    let items: Int
    let surface: PixelSurface
    let counter: BandCounter

    static let body: PoolBody = { context, _ in
        let run = context.assumingMemoryBound(to: ParallelStrokeColumns.self)
        while true {
            let item = run.pointee.counter.next.wrappingAdd(1, ordering: .relaxed).oldValue
            guard item < run.pointee.items else { return }
            run.pointee.table.fill(item: item, surface: run.pointee.surface)
        }
    }
}

/// The next band to take, shared by the pool's threads (reset for every frame).
private final class BandCounter: Sendable {
    let next = Atomic<Int>(0)
}

/// A command whose pixels in `rect` are the same whatever was under them (an opaque picture, the
/// fully covered rows of an opaque wave fill).
struct Occluder {
    var index: Int
    var rect: ClipRect
}

/// The rows an opaque wave fill covers fully, across its clip's columns (nil: none, or not a
/// full-width opaque fill). Those pixels get the colour itself in every path of the kernel
/// (`WaveBlender.fullSpan`, `fullPixel`), whatever they were.
private func opaqueRows(of command: DrawCommand, on surface: PixelSurface) -> ClipRect? {
    guard let wave = opaqueWaveInPlace(command),
        let fill = WaveFillRows(
            wave, SourceColor(command.color), surface: surface, clip: command.clip ?? surface.bounds),
        !fill.fullRows.isEmpty
    else { return nil }
    return ClipRect(x0: fill.area.x0, y0: fill.fullRows.lowerBound, x1: fill.area.x1, y1: fill.fullRows.upperBound)
}

/// Whether `command` is an opaque wave fill across the surface's width, drawn where it is: one
/// whose curve rows can hide column groups of earlier commands (`BandJob.hiddenGroups`).
private func isFullWidthOpaqueFill(_ command: DrawCommand, on surface: PixelSurface) -> Bool {
    guard opaqueWaveInPlace(command) != nil else { return false }
    guard let clip = command.clip else { return true }
    return clip.x0 <= 0 && clip.x1 >= surface.width
}

/// The wave of an opaque wave fill drawn where it is (no origin shift): a fill whose covered
/// pixels are its colour whatever lay under them, the one kind of occluder both `opaqueRows`
/// and `isFullWidthOpaqueFill` look for.
private func opaqueWaveInPlace(_ command: DrawCommand) -> Wave? {
    guard case .waveFill(let wave) = command.shape, command.origin == .zero, SourceColor(command.color).alpha >= 1
    else { return nil }
    return wave
}

/// One frame's commands and rectangles, shared read-only by the threads drawing its bands.
private struct BandJob: @unchecked Sendable {
    let commands: UnsafeBufferPointer<FrameCommand>
    let rects: UnsafeBufferPointer<ClipRect>
    let bands: UnsafeBufferPointer<ClipRect>
    /// In command order.
    let occluders: UnsafeBufferPointer<Occluder>
    /// `FrameRenderer.columnOccluder`.
    let columnOccluder: Int
    /// The wave strokes' columns computed for every band (nil: none this frame).
    let strokes: StrokeColumnTable.View?
    let surface: PixelSurface
    let background: UInt32

    /// Draws every command reaching `area` (one band of a damage rectangle), clipped to it, and
    /// only in the rows no later occluder hides.
    func render(_ band: ClipRect, _ scratch: BandScratch.View) {
        let rows = UniformRows(colors: scratch.colors - band.y0, surface: surface, columns: band.x0..<band.x1)
        // The clear writes nothing yet: every row of the band starts virtual, in the background.
        rows.clear(band.y0..<band.y1, to: background)
        let hidden = hiddenGroups(in: band, scratch)
        var depth = 0
        for index in 0..<commands.count {
            guard !rects[index].intersection(band).isEmpty else { continue }
            // Read without reference counting: the list holds the commands for the frame.
            commands.withUnretained(index) { command in
                draw(command, index, in: band, rows, scratch, hidden: hidden, depth: &depth)
            }
        }
        rows.materialise(band.y0..<band.y1)
    }

    /// Draws command `index` of `render`'s band in the rows no later occluder hides; `depth`
    /// counts the layers open.
    func draw(
        _ command: borrowing FrameCommand, _ index: Int, in band: ClipRect, _ rows: UniformRows,
        _ scratch: BandScratch.View, hidden: HiddenGroups?, depth: inout Int
    ) {
        let shown = visibleRows(of: index, in: band, isCircle: command.isCircle)
        let area = ClipRect(x0: band.x0, y0: shown.lowerBound, x1: band.x1, y1: shown.upperBound)
        let region = rects[index].intersection(area)
        // A layer's begin and end are hidden in the same rows (no occluder lies inside a
        // layer), so what one skips the other does too; the depth still counts them.
        switch command {
        case .beginLayer: depth += 1
        case .endLayer: depth -= 1
        default: break
        }
        guard !region.isEmpty else { return }
        switch command {
        case .draw(let command):
            let extent = (rects[index].y0, rects[index].y1)
            if let shared = strokes?.stroke(index) {
                SwellRaster.draw(command, shared: shared, on: rows, within: area, extent: extent)
            } else {
                SwellRaster.draw(
                    command, on: rows, within: area, extent: extent, hidden: index < columnOccluder ? hidden : nil)
            }
        case .beginLayer:
            saveBelow(region, rows, scratch, depth: depth - 1, band: band)
        case .endLayer(let mask, let placement):
            maskLayer(region, rows, scratch, depth: depth, band: band, mask, placement)
        case .image(let image, let alpha, let placement):
            drawImage(image, alpha: alpha, placement, rows, in: region, of: area)
        case .maskedImage(let image, let path, let placement):
            rows.materialise(region.y0..<region.y1)
            guard let on = placement.target(surface, within: region) else { return }
            fillPath(on.surface, path, painter: ImagePainter(image.surface), clip: on.clip)
        }
    }

    /// A picture's part of `region` (its rectangle within `area`, the band's visible rows). An
    /// opaque picture over the band's whole width replaces its rows: no need to write their
    /// virtual colour first.
    func drawImage(
        _ image: PixelBuffer, alpha: Float, _ placement: OpPlacement, _ rows: UniformRows, in region: ClipRect,
        of area: ClipRect
    ) {
        let replaces = alpha >= 1 && region.x0 == area.x0 && region.x1 == area.x1
        if !replaces { rows.materialise(region.y0..<region.y1) }
        if let on = placement.target(surface, within: region) {
            compositeImage(on.surface, image.surface, alpha: alpha, clip: on.clip)
        }
        if replaces { rows.markWritten(region.y0..<region.y1) }
    }

    /// A layer's begin: keeps what is below the layer in `region` for its end's mask. A row still
    /// virtual keeps only its colour (nothing written, nothing copied); a written row's pixels
    /// are copied to the layer's "below" band.
    ///
    /// Why: the waveform's bundle is drawn over the clear's virtual rows; materialising and
    /// copying them cost a band's pixels written twice and read once more by the mask, memory
    /// traffic the two cores share.
    func saveBelow(_ region: ClipRect, _ rows: UniformRows, _ scratch: BandScratch.View, depth: Int, band: ClipRect) {
        let colors = scratch.belowColors(depth, top: band.y0)
        let below = scratch.below(depth, top: band.y0, bottom: band.y1)
        var y = region.y0
        while y < region.y1 {
            let color = rows.colors[y]
            var end = y + 1
            while end < region.y1 && (rows.colors[end] == UniformRows.written) == (color == UniformRows.written) {
                end += 1
            }
            if color == UniformRows.written {
                for row in y..<end { colors[row] = UniformRows.written }
                compositeImage(below, surface, alpha: 1, clip: ClipRect(x0: region.x0, y0: y, x1: region.x1, y1: end))
            } else {
                for row in y..<end { colors[row] = rows.colors[row] }
            }
            y = end
        }
    }

    /// A layer's end: mixes the layer's pixels in `region` back towards what was below it,
    /// through the mask. A row virtual both below and in the layer, in the same colour, is left
    /// as it is (mix(c, c, t) is c in every channel: the layer drew nothing there); a row
    /// virtual below is mixed towards its colour, the same bytes as towards a copy of it.
    func maskLayer(
        _ region: ClipRect, _ rows: UniformRows, _ scratch: BandScratch.View, depth: Int, band: ClipRect,
        _ mask: HorizontalGradientMask, _ placement: OpPlacement
    ) {
        let colors = scratch.belowColors(depth, top: band.y0)
        let below = scratch.below(depth, top: band.y0, bottom: band.y1)
        var y = region.y0
        while y < region.y1 {
            // Runs of rows to mix, between rows left alone.
            guard rows.colors[y] == UniformRows.written || rows.colors[y] != colors[y] else {
                y += 1
                continue
            }
            var end = y + 1
            while end < region.y1 && (rows.colors[end] == UniformRows.written || rows.colors[end] != colors[end]) {
                end += 1
            }
            rows.materialise(y..<end)
            let run = ClipRect(x0: region.x0, y0: y, x1: region.x1, y1: end)
            if let on = placement.target(surface, within: run), let from = placement.target(below, within: run) {
                applyLayerMask(
                    on.surface, below: from.surface, belowColors: colors + placement.origin.y, mask, clip: on.clip)
            }
            y = end
        }
    }

    /// The pixels of `band` the column occluder stores its colour in (nil: none, or the band
    /// does not span the frame's width, or the fill's kernel does not store whole groups).
    /// Its clip is the one `draw(_:on:within:extent:)` gives the fill in this band.
    func hiddenGroups(in band: ClipRect, _ scratch: BandScratch.View) -> HiddenGroups? {
        guard columnOccluder >= 0, band.x0 == 0, band.x1 == surface.width,
            !rects[columnOccluder].intersection(band).isEmpty,
            case .draw(let command) = commands[columnOccluder], case .waveFill(let wave) = command.shape
        else { return nil }
        var clip = band.intersection(surface.bounds)
        if let own = command.clip { clip = clip.intersection(own) }
        let source = SourceColor(command.color)
        guard let fill = WaveFillRows(wave, source, surface: surface, clip: clip) else { return nil }
        return fill.hiddenGroups(wave, source, surface: surface, into: scratch.hidden)
    }

    /// The rows of `band` where command `index` can show: all of them but those at its top or
    /// bottom that a later occluder covers across the band's columns. Rows in the middle are
    /// kept (one range per command). Rings and discs keep whole blocks of eight rows (their
    /// kernel cuts a block through a heap temporary).
    func visibleRows(of index: Int, in band: ClipRect, isCircle: Bool) -> Range<Int> {
        var top = band.y0
        var bottom = band.y1
        var trimmed = true
        while trimmed && top < bottom {
            trimmed = false
            for occluder in occluders.reversed() {
                guard occluder.index > index else { break }
                let rect = occluder.rect
                guard rect.x0 <= band.x0 && rect.x1 >= band.x1 && rect.y0 < bottom && rect.y1 > top else { continue }
                if rect.y0 <= top {
                    top = min(bottom, rect.y1)
                    trimmed = true
                } else if rect.y1 >= bottom {
                    bottom = rect.y0
                    trimmed = true
                }
            }
        }
        guard top < bottom else { return top..<top }
        if isCircle {
            top = max(band.y0, top & ~7)
            bottom = min(band.y1, (bottom + 7) & ~7)
        }
        return top..<bottom
    }
}

extension Shape {
    /// Rings and discs (their kernel paints blocks of eight rows).
    var isCircle: Bool {
        switch self {
        case .ring, .disc: return true
        default: return false
        }
    }
}

extension FrameCommand {
    /// A ring or disc drawn (`Shape.isCircle`).
    var isCircle: Bool {
        guard case .draw(let command) = self else { return false }
        return command.shape.isCircle
    }
}

/// A thread's storage for its bands: a virtual colour per row, and a band of pixels per open
/// layer for what was below it. Grown when a frame needs more; never shrunk.
private final class BandScratch {
    private var colors = UnsafeMutablePointer<UInt32>.allocate(capacity: 1)
    private var colorCapacity = 1
    private var hidden = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
    private var hiddenCapacity = 1
    private var belowColors = UnsafeMutablePointer<UInt32>.allocate(capacity: 1)
    private var belowColorCapacity = 1
    private var layers = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 64)
    private var layerBytes = 64
    private var rows = 1
    private var stride = 64
    private var width = 1

    deinit {
        colors.deallocate()
        hidden.deallocate()
        belowColors.deallocate()
        layers.deallocate()
    }

    func reserve(rows: Int, width: Int, depth: Int) {
        if colorCapacity < rows {
            colors.deallocate()
            colors = .allocate(capacity: rows)
            colorCapacity = rows
        }
        let groups = (width + laneCount - 1) / laneCount
        if hiddenCapacity < groups {
            hidden.deallocate()
            hidden = .allocate(capacity: groups)
            hiddenCapacity = groups
        }
        if belowColorCapacity < max(1, depth) * rows {
            belowColors.deallocate()
            belowColors = .allocate(capacity: max(1, depth) * rows)
            belowColorCapacity = max(1, depth) * rows
        }
        self.rows = rows
        self.width = width
        stride = (width * 4 + 63) & ~63
        let bytes = max(1, depth) * rows * stride
        if layerBytes < bytes {
            layers.deallocate()
            layers = .allocate(byteCount: bytes, alignment: 64)
            layerBytes = bytes
        }
    }

    var view: View {
        View(
            colors: colors, hidden: hidden, belowColors: belowColors, layers: layers, rows: rows, stride: stride,
            width: width)
    }

    struct View: @unchecked Sendable {
        let colors: UnsafeMutablePointer<UInt32>
        /// Per column group, for `BandJob.hiddenGroups`.
        let hidden: UnsafeMutablePointer<Int32>
        /// Per open layer and row: the row's virtual colour below the layer, or
        /// `UniformRows.written` when its pixels are in the layer's "below" band.
        let belowColors: UnsafeMutablePointer<UInt32>
        let layers: UnsafeMutableRawPointer
        let rows: Int
        let stride: Int
        let width: Int

        /// Layer `depth`'s "below" band for frame rows [top, bottom), as a surface addressed by
        /// frame rows: its row `y` is the scratch's row `y - top` (rows above `top` are never
        /// touched: every use is clipped to the band).
        func below(_ depth: Int, top: Int, bottom: Int) -> PixelSurface {
            let band = layers + depth * rows * stride
            return PixelSurface(base: band - top * stride, width: width, height: bottom, stride: stride)
        }

        /// Layer `depth`'s row colours below it, indexed by frame row (as `below`).
        func belowColors(_ depth: Int, top: Int) -> UnsafeMutablePointer<UInt32> {
            belowColors + depth * rows - top
        }
    }
}

/// The threads' scratch views, indexed by worker.
private struct ScratchViews: @unchecked Sendable {
    var views: [BandScratch.View]
    init(_ views: [BandScratch.View]) { self.views = views }
    subscript(worker: Int) -> BandScratch.View { views[worker] }
}

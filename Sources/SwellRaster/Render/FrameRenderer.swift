import Synchronization

/// Renders display lists (shapes, pictures, layers and their masks) in horizontal bands, on one
/// thread or several, drawing only the pixels that can differ from the previous frame.
///
/// A frame goes through four jobs, each a type of its own:
/// - binning (`FrameBins`, FrameBins.swift): each command's bounding rectangle, computed once
///   per frame (a layer's begin and end get the union of their contents), its signature for the
///   damage, and the occluders;
/// - damage (FrameDamage.swift): the commands' rectangles and hashes are kept from one frame to
///   the next; the rows of the commands between the common prefix and suffix of the two frames
///   are the damage (`Damage`, at most 16 rectangles, each the frame's width — the kernels'
///   pixels depend on the clip's rows only when it spans the width, see `wholeRows` — except
///   where only glyph runs and pictures meet a changed one's rectangle, `keepingColumns`). Only
///   that is drawn; the surface keeps the previous frame elsewhere;
/// - band planning (`BandPlan`, BandPlan.swift): the damage cut into disjoint rectangles and
///   then into bands or strips, as `RenderTuning` says;
/// - band drawing (`BandJob`, BandDrawing.swift): threads take bands from a shared counter (the
///   helpers of a `WorkerPool`), each with its own storage (`BandScratch`).
///
/// Rules:
/// - Same bytes for any cut: every kernel's pixels are independent of its clip rectangle
///   (FrameRendererTests), so the output is byte-identical for any band height and thread
///   count, and to the plain op-by-op `render(_:into:)` of a `DisplayList`.
/// - A band draws only the commands that reach it, clipped to it. A layer copies the band's
///   part of its rectangle aside when it begins (in its thread's scratch) and mixes it back
///   through the mask when it ends: no whole-frame copy. Rows stay "virtual" (one colour per
///   row, `UniformRows`) while they are uniform, and are written once at the end of the band.
/// - Occlusion: within a band, a command is not drawn in the rows that a later opaque picture
///   or the fully covered rows of a later opaque full-width wave fill cover (outside any
///   layer); in the curve rows of the last such fill, earlier wave fills also skip the 16-column
///   groups it covers (`HiddenGroups`).
/// - Shared columns: a wave stroke that several bands draw has its columns computed once per
///   frame before the bands, on every thread (`StrokeColumnTable`); frames of wave strokes and
///   layers only are cut instead into vertical strips, one a thread.
/// - No allocation per frame: storage is reused between frames; after the first frame of a
///   given command count and size, rendering allocates nothing, on one thread or several (the
///   helper threads are created once). The commands are read without reference counting
///   (`withUnretained`): the list holds them while the frame is drawn.
///
/// Figure (the virtual kiosk, `scripts/vm/strip-bench --icount`: render plus the copy to a DRM
/// dumb buffer in millions of guest instructions): the strip page (examples/strip.json, a
/// picture under a 70-row wave strip, 1920x1080) 1.35 a frame against 0.98 for the strip alone
/// over white (1.38x).
public final class FrameRenderer {
    /// Worker threads; 1 renders on the calling thread.
    public let threads: Int
    /// How frames are cut for the threads (never a byte of the output).
    public var tuning: RenderTuning

    private var bins = FrameBins()
    private var plan = BandPlan()
    /// The surface and background of the previous tracked frame (nil: none, or forgotten), and
    /// the surface's owner, held so that a new buffer cannot take its memory's address unnoticed.
    private var previousTarget: Target?
    private var previousOwner: AnyObject?
    private var damage = Damage()
    /// One per thread: virtual row colours and the layers' band-local "below" copies.
    private let scratch: [BandScratch]
    private var views: ScratchViews
    /// The helper threads (created on the first frame drawn in several bands) and their band counter.
    private var helpers: WorkerPool?
    private let bandCounter = BandCounter()
    /// How many strokes the last frame drawn shared their columns for.
    public private(set) var sharedStrokes = 0
    private let strokeColumns = StrokeColumnTable()
    private var pool: WorkerPool {
        if let helpers { return helpers }
        let created = WorkerPool(helpers: threads - 1, pinsHelpers: tuning.pinsHelpers)
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

    public init(threads: Int = 1, tuning: RenderTuning = RenderTuning()) {
        precondition(threads >= 1)
        self.threads = threads
        self.tuning = tuning
        scratch = (0..<threads).map { _ in BandScratch() }
        views = ScratchViews(scratch.map(\.view))
    }

    /// A renderer whose bands are `bandHeight` rows (nil: the default cut).
    public convenience init(threads: Int, bandHeight: Int?) {
        self.init(threads: threads, tuning: RenderTuning(bandHeight: bandHeight))
    }

    /// Says a frame is coming: its content update (the scene building the display list) begins.
    /// Helper threads asleep since the last frame start waking now (`WorkerPool.wake`), so that
    /// by `render` they are spinning, not still on their way out of the kernel: on a paced
    /// kiosk (a frame every 16.7 ms, the helpers asleep in between) that wake-up otherwise
    /// landed inside the frame, and two threads drew the waveform slower than one. Optional
    /// (`render` wakes them too, later); a renderer on one thread, or whose helpers are
    /// awake, does nothing. Changes no pixel.
    public func prepare() {
        helpers?.wake()
    }

    /// Times the helper threads were woken early (by `prepare()` or `render`) from their
    /// sleep between frames; 0 on one thread (measuring and tests).
    public var helperWakeups: Int { helpers?.wakeups ?? 0 }

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
        let counts = bins.bin(list, tracksDamage: tracksDamage)
        findDamage(list, surface, rows: rows, tracksDamage: tracksDamage, rowAlignment: counts.circles > 0 ? 8 : 1)
        if !damage.isEmpty {
            plan.cut(damage, list, surface, bins: bins, counts: counts, tuning: tuning, threads: bandThreads)
            bins.findOccluders(list, surface)
            shareStrokeColumns(list, surface, waves: counts.waves)
            var tallest = 1
            for band in plan.bands { tallest = max(tallest, band.y1 - band.y0) }
            for (index, worker) in scratch.enumerated() {
                worker.reserve(rows: tallest, width: surface.width, depth: counts.depth)
                views.views[index] = worker.view
            }
            renderBands(list, surface)
        }
        bins.endFrame()
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
                from: bins.previousSignatures, to: bins.signatures, width: surface.width, height: surface.height,
                rowAlignment: rowAlignment, into: &damage)
            damage.formIntersection(drawn)
        } else {
            damage.add(drawn)
        }
        previousTarget = tracksDamage ? target : nil
        previousOwner = tracksDamage ? surface.owner : nil
    }

    /// Computes the columns of the wave strokes that several bands draw, once, before the bands
    /// (`StrokeColumnTable`): on the pool's threads, in items taken from a counter. A frame
    /// without waves (`waves`: its wave fills and strokes) does not look at its commands.
    private func shareStrokeColumns(_ list: DisplayList, _ surface: PixelSurface, waves: Int) {
        sharedStrokes = 0
        guard tuning.sharesStrokeColumns, !plan.drewStrips, waves > 0, plan.bands.count > 1 else { return }
        let (strokes, items) = list.commands.withUnsafeBufferPointer { commands in
            bins.rects.withUnsafeBufferPointer { rects in
                plan.bands.withUnsafeBufferPointer { bands in
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

    /// Whether this frame's damage is large enough for streaming fills (`tuning.streamingFillBytes`).
    private func streamsFill(_ surface: PixelSurface) -> Bool {
        guard let threshold = tuning.streamingFillBytes else { return false }
        var bytes = 0
        for region in plan.regions { bytes += (region.x1 - region.x0) * (region.y1 - region.y0) * 4 }
        return bytes >= threshold
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
            bins.rects.withUnsafeBufferPointer { rects in
                plan.bands.withUnsafeBufferPointer { bands in
                    bins.occluders.withUnsafeBufferPointer { occluders in
                        var job = BandJob(
                            commands: commands, rects: rects, bands: bands, occluders: occluders,
                            columnOccluder: bins.columnOccluder, strokes: sharedStrokes > 0 ? strokeColumns.view : nil,
                            surface: surface, background: list.background.opaquePixel)
                        job.streamsFill = streamsFill(surface)
                        if threads == 1 || bands.count == 1 {
                            for band in bands { job.render(band, views[0]) }
                            return
                        }
                        if plan.drewStrips {
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
    /// `RenderTuning.StripCut`.
    public typealias StripCut = RenderTuning.StripCut

    /// Rows per band, or nil for the default (`tuning.bandHeight`).
    public var bandHeight: Int? { tuning.bandHeight }

    /// The threads the rows are cut into bands for (`tuning.bandThreads`, else `threads`).
    public var bandThreads: Int {
        get { tuning.bandThreads ?? threads }
        set { tuning.bandThreads = newValue }
    }

    /// `tuning.sharesStrokeColumns`.
    public var sharesStrokeColumns: Bool {
        get { tuning.sharesStrokeColumns }
        set { tuning.sharesStrokeColumns = newValue }
    }

    /// `tuning.streamingFillBytes`.
    public var streamingFillBytes: Int? {
        get { tuning.streamingFillBytes }
        set { tuning.streamingFillBytes = newValue }
    }

    /// `tuning.stripCut`.
    public var stripCut: StripCut {
        get { tuning.stripCut }
        set { tuning.stripCut = newValue }
    }

    /// `tuning.stripColumns`.
    public var stripColumns: Int? {
        get { tuning.stripColumns }
        set { tuning.stripColumns = newValue }
    }

    /// The work items (row bands or strips) the last frame drawn was cut into, in the order
    /// the threads take them (tests and measuring; a copy).
    public var bandsDrawn: [ClipRect] { plan.bands }

    /// Whether the last frame drawn was cut into strips.
    public var drewStrips: Bool { plan.drewStrips }
}

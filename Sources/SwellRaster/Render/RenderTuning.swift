import SwellSystem

/// How a `FrameRenderer` cuts a frame for its threads: one value, given at init (and changed
/// between frames only to measure). No field changes a byte of the output: every kernel's
/// pixels are independent of its clip rectangle (FrameRendererTests, StripsTests,
/// SharedStrokeColumnsTests), so only the speed depends on it.
///
/// The defaults: one thread draws the rows as one band; several take bands of decreasing
/// estimated cost (`BandPlan.guidedBands`), none taller than about `circleBandBytes` of pixels
/// when most commands are rings or discs; frames with wave fills or strokes and few circles
/// keep one to four bands a thread of equal estimated cost, of at least `minimumBandRows`
/// (`rowsPerBand` says why); frames of wave strokes and layers only are cut into vertical strips
/// (`stripCut`), and wave strokes that several row bands draw have their columns computed once
/// (`sharesStrokeColumns`).
public struct RenderTuning: Sendable, Equatable {
    /// Rows per band, or nil for the default (`rowsPerBand`). A fixed height also turns off the
    /// strips and the guided bands: the rows are cut into bands of this height.
    public var bandHeight: Int?
    /// The threads the rows are cut into bands for (nil: the renderer's `threads`). More than
    /// `threads` draws the same bands in sequence: what the cut alone costs, without a second
    /// core (the columns a wave computes again in each band show here; contention between cores
    /// does not).
    public var bandThreads: Int?
    /// Whether wave strokes drawn in several bands have their columns computed once per frame
    /// (`StrokeColumnTable`; the same bytes either way: off only to measure and test it).
    public var sharesStrokeColumns: Bool
    /// Which frames several threads draw in vertical strips instead of row bands
    /// (`BandPlan.cutIntoStrips`; the same bytes either way).
    public var stripCut: StripCut
    /// The strips' cuts fall on multiples of this many columns, and none but a region's edge
    /// strips is narrower (best a multiple of 16, the kernels' column groups, or a group's
    /// columns are computed in both strips); nil: one strip per thread, a multiple of 64
    /// columns wide.
    public var stripColumns: Int?
    /// The fewest rows a band of a frame not made mostly of circles is cut into when several
    /// threads share it (fewer only when there are fewer rows than threads times this, and then
    /// one band per thread). Default 96.
    public var minimumBandRows: Int
    /// `minimumBandRows` for frames without wave fills or strokes. Default 48.
    public var minimumFineBandRows: Int
    /// A band's pixel bytes when circles dominate the frame: about a core's L2 cache (1 MiB on
    /// Zen 4/5, 512 KiB on a Raspberry Pi 5's Cortex-A76, where 1 MiB bands still halve the
    /// working set of a whole 1080p frame). Default 1 MiB (136 rows at 1920 wide).
    public var circleBandBytes: Int
    /// Frames whose damage is at least this many bytes write the rows no command drew in
    /// streaming stores, which do not read the memory they overwrite and leave it out of the
    /// cache (`BandJob.streamFill`); smaller ones in plain stores, which leave the rows in the
    /// cache for the presenter's copy. nil: never. Default `defaultStreamingFillBytes`. Never a
    /// byte of the output.
    public var streamingFillBytes: Int?
    /// Whether the helper threads each keep to one processor (`WorkerPool.init`), read when
    /// the renderer creates them (its first frame drawn on several threads). Default true.
    public var pinsHelpers: Bool

    /// Half the machine's largest cache (`SwellSystem.largestCacheBytes`), at least 4 MiB: a
    /// damage that large would not stay in the cache until it is presented, so its plain fill
    /// would read every line from memory (read-for-ownership) only to write it back. A 1080p
    /// frame (8 MiB) streams on an Intel N100 (6 MiB L3) or a Raspberry Pi 5 (2 MiB), not on
    /// the 32 MiB-L3 EPYC here; a 4k frame (33 MiB) streams on both.
    public static let defaultStreamingFillBytes = max(4 << 20, (largestCacheBytes ?? 0) / 2)

    public init(
        bandHeight: Int? = nil, bandThreads: Int? = nil, sharesStrokeColumns: Bool = true,
        stripCut: StripCut = .strokes, stripColumns: Int? = nil, minimumBandRows: Int = 96,
        minimumFineBandRows: Int = 48, circleBandBytes: Int = 1 << 20,
        streamingFillBytes: Int? = RenderTuning.defaultStreamingFillBytes, pinsHelpers: Bool = true
    ) {
        precondition((bandHeight ?? 1) >= 1 && (bandThreads ?? 1) >= 1, "bands and threads are at least 1")
        self.bandHeight = bandHeight
        self.bandThreads = bandThreads
        self.sharesStrokeColumns = sharesStrokeColumns
        self.stripCut = stripCut
        self.stripColumns = stripColumns
        self.minimumBandRows = minimumBandRows
        self.minimumFineBandRows = minimumFineBandRows
        self.circleBandBytes = circleBandBytes
        self.streamingFillBytes = streamingFillBytes
        self.pinsHelpers = pinsHelpers
    }

    /// Which frames several threads draw in vertical strips (`BandPlan.cutIntoStrips`) instead
    /// of bands of rows.
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

    /// The rows per band used for `height` rows to draw (the damaged rows, or the frame's height
    /// when it is drawn whole) `width` pixels wide on `threads` threads (`bandThreads`), when
    /// `mostlyCircles` of its commands are rings and discs.
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
    /// frames, and frames of mostly circles, are cut by `BandPlan.guidedBands` instead (this
    /// height then only caps the circles' bands).
    public func rowsPerBand(
        height: Int, width: Int, mostlyCircles: Bool, repeatsColumns: Bool = true, threads: Int
    ) -> Int {
        if let bandHeight { return bandHeight }
        guard mostlyCircles else {
            let minimum = repeatsColumns ? minimumBandRows : minimumFineBandRows
            let most = repeatsColumns ? 4 : 8
            let perThread = threads == 1 ? 1 : min(most, max(1, height / (threads * minimum)))
            let count = threads * perThread
            return max(1, (height + count - 1) / count)
        }
        let perThread = threads == 1 ? height : max(32, (height + threads * 4 - 1) / (threads * 4))
        let cacheRows = max(32, circleBandBytes / max(1, width * 4))
        return max(1, min(perThread, cacheRows))
    }
}

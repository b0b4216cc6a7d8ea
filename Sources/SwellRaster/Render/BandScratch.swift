/// Per-thread storage for `FrameRenderer`'s bands (band drawing, BandDrawing.swift): each thread
/// keeps a virtual colour per row (`UniformRows`), the column groups the column occluder hides,
/// and per open layer a band of pixels and row colours for what was below it.
///
/// Rules: grown when a frame needs more, never shrunk, so after the first frame of a given size
/// and layer depth a frame allocates nothing; raw pointers, read through `View`, so the
/// kernels' inner loops pay no bounds checks, reference counting or copy-on-write.

/// A thread's storage for its bands: a virtual colour per row, and a band of pixels per open
/// layer for what was below it. Grown when a frame needs more; never shrunk.
final class BandScratch {
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
struct ScratchViews: @unchecked Sendable {
    var views: [BandScratch.View]
    init(_ views: [BandScratch.View]) { self.views = views }
    subscript(worker: Int) -> BandScratch.View { views[worker] }
}

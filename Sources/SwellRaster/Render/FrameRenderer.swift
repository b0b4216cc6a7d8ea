import Dispatch
import Synchronization

/// Renders frames in horizontal bands, on one thread or several.
///
/// Why bands: threads take bands from a shared counter, so the work spreads evenly however it
/// is distributed down the frame. By default a frame is cut into four bands per thread (one
/// band on one thread): measured on ripples-1000 and waves (1920x1080, one core), smaller bands
/// bought no cache benefit with the current kernels (ripples 11.1–11.4 ms for 32–1080 rows) and
/// cost the wave kernels their per-band column sampling (waves 1.5 ms at 16 rows, 0.78 ms at 64,
/// 0.58 ms whole-frame). Every kernel's pixels are independent of its clip rectangle
/// (FrameRendererTests), so the output is byte-identical for any band height and thread count.
///
/// Each command's row extent is computed once per frame ("binning"); a band then draws only the
/// commands that reach it, clipped to the band. Within a band, rows stay "virtual" (one colour per
/// row, `UniformRows`) while they are uniform: the clear writes nothing, a full-width wave fill
/// turns each of its fully covered virtual rows into its one-pixel blend, and any other drawing
/// first writes the virtual rows of its extent; the rest are written once at the end of the band.
/// waves.json (1920x1080, one thread): 0.37–0.38 ms against 0.56–0.62 ms before lazy rows and the
/// kernel changes that came with it (WaveFill.swift), a memset being 0.065 ms; measured with
/// `scripts/build; .build/tuned-native/release/swell render bench-data/waves.json --repeat 60
/// --threads 1`. Same bytes as `render(_:into:)` (FrameRendererTests, LazyRowsTests). Storage is
/// reused between frames: after the first frame of a given command count and height, rendering
/// allocates nothing on one thread (Dispatch may allocate its own bookkeeping when several threads
/// are used).
public final class FrameRenderer {
    /// Rows per band, or nil for the default (four bands per thread, at least 32 rows).
    public let bandHeight: Int?
    /// Worker threads; 1 renders on the calling thread.
    public let threads: Int
    private var extents: [(top: Int, bottom: Int)] = []
    /// One virtual colour per frame row (`UniformRows`), grown once to the tallest frame.
    private var rowColors: UnsafeMutablePointer<UInt32>
    private var rowCapacity = 0

    public init(threads: Int = 1, bandHeight: Int? = nil) {
        precondition(threads >= 1 && (bandHeight ?? 1) >= 1)
        self.threads = threads
        self.bandHeight = bandHeight
        rowColors = .allocate(capacity: 0)
    }

    deinit { rowColors.deallocate() }

    /// The rows per band used for a frame `height` rows tall.
    public func rowsPerBand(height: Int) -> Int {
        if let bandHeight { return bandHeight }
        if threads == 1 { return height }
        return max(32, (height + threads * 4 - 1) / (threads * 4))
    }

    /// Renders `frame` (background, then commands in order) into `surface`.
    public func render(_ frame: Frame, into surface: PixelSurface) {
        precondition(
            surface.width == frame.width && surface.height == frame.height, "surface size differs from the frame's")
        extents.removeAll(keepingCapacity: true)
        for command in frame.commands {
            extents.append(rowExtent(of: command.shape, frameHeight: surface.height))
        }
        let bandHeight = rowsPerBand(height: surface.height)
        let bandCount = (surface.height + bandHeight - 1) / bandHeight
        let extents = self.extents
        if rowCapacity < surface.height {
            rowColors.deallocate()
            rowColors = .allocate(capacity: surface.height)
            rowCapacity = surface.height
        }
        let rows = UniformRows(colors: rowColors, surface: surface)
        if threads == 1 || bandCount == 1 {
            for band in 0..<bandCount { Self.renderBand(band, bandHeight, frame, extents, rows) }
            return
        }
        let next = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: min(threads, bandCount)) { _ in
            while true {
                let band = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard band < bandCount else { return }
                Self.renderBand(band, bandHeight, frame, extents, rows)
            }
        }
    }

    private static func renderBand(
        _ band: Int, _ bandHeight: Int, _ frame: Frame, _ extents: [(top: Int, bottom: Int)], _ rows: UniformRows
    ) {
        let top = band * bandHeight
        let area = ClipRect(x0: 0, y0: top, x1: rows.surface.width, y1: min(rows.surface.height, top + bandHeight))
        // The clear writes nothing yet: every row of the band starts virtual, in the background.
        rows.clear(area.y0..<area.y1, to: frame.background.opaquePixel)
        extents.withUnsafeBufferPointer { extents in
            frame.commands.withUnsafeBufferPointer { commands in
                for index in 0..<commands.count where extents[index].top < area.y1 && extents[index].bottom > area.y0 {
                    draw(commands[index], on: rows, within: area, extent: extents[index])
                }
            }
        }
        rows.materialise(area.y0..<area.y1)
    }
}

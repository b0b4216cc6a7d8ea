import Dispatch
import Synchronization

/// Renders frames in horizontal bands, on one thread or several.
///
/// Why bands: threads take bands from a shared counter, so the work spreads evenly however it
/// is distributed down the frame. By default a frame is cut into four bands per thread (one
/// band on one thread), and into bands of about 1 MiB of pixels (`circleBandBytes`, 136 rows at
/// 1920 wide) when most commands are rings or discs: their read-modify-write of pixels scattered
/// over the frame then stays in the core's L2 cache. Measured with `swell render LIST --repeat 40
/// --threads 1 --band-rows N` (1920x1080, one core, 2026-11-30): ripples-1000 13.3 ms whole-frame,
/// 11.2 ms at 64 rows, 11.0 at 128, 11.4 at 256; waves prefer one band (0.35 ms whole-frame,
/// 0.43 at 128 rows, 0.50 at 64: each band pays the wave kernels' column sampling). Every
/// kernel's pixels are independent of its clip rectangle (FrameRendererTests), so the output is
/// byte-identical for any band height and thread count.
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
    /// Rows per band, or nil for the default (`rowsPerBand`).
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

    /// The rows per band used for a frame `height` rows tall and `width` pixels wide, when
    /// `mostlyCircles` of its commands are rings and discs (see the type's notes).
    public func rowsPerBand(height: Int, width: Int, mostlyCircles: Bool) -> Int {
        if let bandHeight { return bandHeight }
        let perThread = threads == 1 ? height : max(32, (height + threads * 4 - 1) / (threads * 4))
        guard mostlyCircles else { return perThread }
        let cacheRows = max(32, FrameRenderer.circleBandBytes / max(1, width * 4))
        return min(perThread, cacheRows)
    }

    /// A band's pixel bytes when circles dominate the frame: about a core's L2 cache (1 MiB on
    /// Zen 4/5, 512 KiB on a Raspberry Pi 5's Cortex-A76, where 1 MiB bands still halve the
    /// working set of a whole 1080p frame).
    public static let circleBandBytes = 1 << 20

    /// Renders `frame` (background, then commands in order) into `surface`.
    public func render(_ frame: Frame, into surface: PixelSurface) {
        precondition(
            surface.width == frame.width && surface.height == frame.height, "surface size differs from the frame's")
        extents.removeAll(keepingCapacity: true)
        var circles = 0
        for command in frame.commands {
            extents.append(rowExtent(of: command.shape, frameHeight: surface.height))
            switch command.shape {
            case .ring, .disc: circles += 1
            default: break
            }
        }
        let bandHeight = rowsPerBand(
            height: surface.height, width: surface.width, mostlyCircles: 2 * circles > frame.commands.count)
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

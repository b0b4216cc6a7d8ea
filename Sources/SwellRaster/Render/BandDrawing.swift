/// Band drawing for `FrameRenderer`: one band (or strip) of a frame, drawn by whichever thread
/// takes it, and the worker-pool bodies that hand bands, strips and shared stroke columns out.
///
/// Rules: a band draws only the commands whose rectangle (`FrameBins.rects`) reaches it,
/// clipped to it, and only in the rows no later occluder hides; rows stay virtual
/// (`UniformRows`) while they are uniform, and are written once at the end of the band. A
/// layer copies the band's part of what lies below it into its thread's scratch
/// (`BandScratch`) and mixes it back through the mask when it ends. The band's pixels are the
/// plain op-by-op pipeline's, for any band or thread count. Everything a band reads is shared
/// read-only through unsafe buffers (`BandJob`), and the commands are read without reference
/// counting (`withUnretained`): a band allocates nothing.

import CSpin
import Synchronization

/// One frame's commands and rectangles, shared read-only by the threads drawing its bands.
struct BandJob: @unchecked Sendable {
    let commands: UnsafeBufferPointer<FrameCommand>
    let rects: UnsafeBufferPointer<ClipRect>
    let bands: UnsafeBufferPointer<ClipRect>
    /// In command order.
    let occluders: UnsafeBufferPointer<Occluder>
    /// `FrameBins.columnOccluder`.
    let columnOccluder: Int
    /// The wave strokes' columns computed for every band (nil: none this frame).
    let strokes: StrokeColumnTable.View?
    let surface: PixelSurface
    let background: UInt32
    /// Whether the rows no command wrote are filled in streaming stores at the band's end
    /// (`RenderTuning.streamingFillBytes`).
    var streamsFill = false

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
        if streamsFill {
            streamFill(rows, band.y0..<band.y1)
        } else {
            rows.materialise(band.y0..<band.y1)
        }
    }

    /// `rows.materialise(range)` at a band's end in streaming stores (`swell_stream_fill32`): the
    /// rows still virtual there are written by nothing else this frame, so their lines need not
    /// be read from memory first. Fenced, so the thread that presents the frame sees them.
    ///
    /// Why: on a large frame whose rows are mostly background (the text page: gaps between
    /// lines, margins) the plain fill read every line it wrote (read-for-ownership), twice a
    /// memset's traffic; the band's rows that commands drew stay in plain stores (the kernels
    /// read them).
    func streamFill(_ rows: UniformRows, _ range: Range<Int>) {
        let low = max(range.lowerBound, 0)
        let high = min(range.upperBound, surface.height)
        let columns = rows.columns
        var streamed = false
        for y in low..<high {
            let color = rows.colors[y]
            guard color != UniformRows.written else { continue }
            swell_stream_fill32(surface.row(y) + columns.lowerBound, color, columns.count)
            rows.colors[y] = UniformRows.written
            streamed = true
        }
        if streamed { swell_stream_fence() }
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

/// One frame's strips for the worker pool, taken from both ends of the list: the caller from
/// the first, the helpers from the last (`BandPlan.cutIntoStrips` says why).
struct ParallelStrips {
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
struct ParallelBands {
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
struct ParallelStrokeColumns {
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

/// The next band to take, shared by the pool's threads (reset for every frame), alone on its
/// cache line: every thread writes it once per band, and a neighbour written per band or per
/// frame (another object's field in the same 64-byte line, or in the 128-byte pair that Intel's
/// adjacent-line prefetcher fetches together) would make every take a miss for the others.
/// The object's header is 16 bytes and malloc aligns to 16, so 112 bytes of padding before the
/// counter and 120 after keep any other allocation at least 112 bytes from it, whatever the
/// object's address.
final class BandCounter: Sendable {
    private let before: Padding = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    let next = Atomic<Int>(0)
    private let after: Padding = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    private let afterTail = 0

    private typealias Padding = (Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int)
}

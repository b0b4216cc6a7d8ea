import SwellDisplay
import SwellInput
import SwellRaster
import SwellService

/// One content spread over several outputs as one canvas (`swell run --span A,B`).
///
/// The content draws the whole canvas, once per loop time, into a buffer kept here; each
/// output's `SpanTile` copies its rectangle of it into the output's shadow buffer. Rendering the
/// canvas once and cropping it is what makes the seam exact (every output shows the same frame's
/// bytes: the halves are the columns of the whole canvas, by construction), and it is also the
/// cheapest way: the renderer cannot cut columns without changing bytes at the cut (see
/// `FrameRenderer.render(_:into:viewport:)`), so two tiles each drawn on their own would each
/// cost whole canvas rows, twice the work. The bezel's columns are drawn and shown nowhere.
///
/// The loop draws one output per round, each at its own reading of the clock, so the tiles of
/// one refresh ask at slightly different times. A new canvas frame is drawn only when the output
/// asking has already copied the current one: the others then copy that same frame (at most
/// about one refresh old), so every output shows the same instant and the canvas costs one
/// render per refresh, not one per output. An output that stops asking (unplugged, screen off)
/// holds nothing up: the others draw new frames as they ask.
///
/// Damage: each canvas frame's damage is added to every tile's pending damage (the part of it
/// inside the tile), and a tile copies and reports only that. A tile whose output missed canvas
/// frames (another output rendered them) thus still gets their damage; a new or resized shadow
/// buffer gets the whole tile.
public final class SpanCanvas {
    public let layout: SpanLayout
    public let content: any KioskContent
    private let canvas: PixelBuffer
    /// The loop time the canvas holds (nil: none yet), and its frame's number (from 1).
    private var renderedTime: Double?
    private var generation = 0
    /// Per tile: the canvas frame it copied last (0: none).
    private var copiedGeneration: [Int]
    /// Per tile: canvas rectangles changed since the tile last copied them.
    private var pending: [Damage]
    /// Per tile: the damage last returned (tile coordinates), reused.
    private var tileDamage: [Damage]
    /// Per tile: the surface it copied to last (a different one gets the whole tile).
    private var lastTarget: [Target?]
    /// Whether the content was told it is shown.
    private var announced = false
    private var lastFilesChange: Double?
    /// Canvas frames drawn (each shared by the tiles that copied it).
    public private(set) var canvasFrames = 0
    /// The contents to give the loop, one per output in `layout`'s order.
    public private(set) var tiles: [SpanTile] = []

    private struct Target: Equatable {
        let base: UnsafeMutableRawPointer
        let width: Int
        let height: Int
        let stride: Int
    }

    /// `content` draws the canvas (it is laid out at the canvas's size, and its touches are in
    /// canvas coordinates).
    public init(layout: SpanLayout, content: any KioskContent) {
        self.layout = layout
        self.content = content
        canvas = PixelBuffer(width: layout.canvasWidth, height: layout.canvasHeight)
        let count = layout.tiles.count
        pending = Array(repeating: Damage(), count: count)
        tileDamage = Array(repeating: Damage(), count: count)
        lastTarget = Array(repeating: nil, count: count)
        copiedGeneration = Array(repeating: 0, count: count)
        tiles = (0..<count).map { SpanTile(span: self, index: $0) }
    }

    /// The whole canvas as last drawn (tests compare the outputs with it).
    public var canvasSurface: PixelSurface { canvas.surface }

    /// Draws the canvas for `time` when tile `index` has copied the current frame (or there is
    /// none), unless it holds that time already, and files its damage with every tile.
    private func renderCanvas(at time: Double, for index: Int) {
        guard renderedTime == nil || (copiedGeneration[index] == generation && renderedTime != time) else { return }
        renderedTime = time
        generation += 1
        canvasFrames += 1
        let damage = content.render(at: time, into: canvas.surface)
        for index in pending.indices {
            for rect in damage.rects {
                let inside = rect.intersection(layout.tiles[index])
                if !inside.isEmpty { pending[index].add(inside) }
            }
        }
    }

    func render(tile index: Int, at time: Double, into surface: PixelSurface) -> Damage {
        renderCanvas(at: time, for: index)
        copiedGeneration[index] = generation
        let rect = layout.tiles[index]
        let target = Target(base: surface.base, width: surface.width, height: surface.height, stride: surface.stride)
        if lastTarget[index] != target {
            lastTarget[index] = target
            pending[index].removeAll()
            pending[index].add(rect)
        }
        tileDamage[index].removeAll()
        // A shadow of another size than the tile (a mode changed under a span) shows what fits.
        let visible = ClipRect(x0: 0, y0: 0, x1: surface.width, y1: surface.height)
        for canvasRect in pending[index].rects {
            let local = canvasRect.offsetBy(-rect.x0, -rect.y0).intersection(visible)
            guard !local.isEmpty else { continue }
            copy(local, origin: rect, into: surface)
            tileDamage[index].add(local)
        }
        pending[index].removeAll()
        return tileDamage[index]
    }

    /// Copies the tile rectangle `local` (tile coordinates) from the canvas into `surface`.
    private func copy(_ local: ClipRect, origin: ClipRect, into surface: PixelSurface) {
        let source = canvas.surface
        let count = local.x1 - local.x0
        for y in local.y0..<local.y1 {
            // Two steps: Swift 6.2 rejects row(a) + (b + c) in one expression.
            let sourceRow = source.row(y + origin.y0)
            (surface.row(y) + local.x0).update(from: sourceRow + (local.x0 + origin.x0), count: count)
        }
    }

    func handle(_ touch: TouchEvent, tile index: Int, at time: Double) {
        var event = touch
        event.x += Double(layout.tiles[index].x0)
        event.y += Double(layout.tiles[index].y0)
        content.handle(event, at: time)
    }

    func isIdle(tile index: Int, at time: Double) -> Bool {
        pending[index].isEmpty && lastTarget[index] != nil && content.isIdle(at: time)
    }

    /// Every tile's loop reports the change; the content takes it up once per time.
    func filesChanged(_ paths: [String], at time: Double) {
        guard lastFilesChange != time else { return }
        lastFilesChange = time
        content.filesChanged(paths, at: time)
    }

    /// The content is shown once the first output shows its tile: an output unplugged at start
    /// draws nothing until it comes back, and must not hold up the announcement (systemd's
    /// READY=1 would never come).
    func shown(tile index: Int) {
        guard !announced else { return }
        announced = true
        content.shown()
    }
}

/// One output's part of a `SpanCanvas`, as that output's loop content.
public final class SpanTile: KioskContent {
    public unowned let span: SpanCanvas
    public let index: Int

    init(span: SpanCanvas, index: Int) {
        self.span = span
        self.index = index
    }

    /// This output's rectangle of the canvas.
    public var rect: ClipRect { span.layout.tiles[index] }

    public func render(at time: Double, into surface: PixelSurface) -> Damage {
        span.render(tile: index, at: time, into: surface)
    }

    /// A touch on this output (its picture's coordinates) reaches the content where the
    /// canvas shows it, so a touch near a seam acts across it.
    public func handle(_ touch: TouchEvent, at time: Double) { span.handle(touch, tile: index, at: time) }

    public func isIdle(at time: Double) -> Bool { span.isIdle(tile: index, at: time) }

    public func nextWake(after time: Double) -> Double? { span.content.nextWake(after: time) }

    public func filesChanged(_ paths: [String], at time: Double) { span.filesChanged(paths, at: time) }

    public func fileChanged(at time: Double) { span.filesChanged([], at: time) }

    public func shown() { span.shown(tile: index) }
}

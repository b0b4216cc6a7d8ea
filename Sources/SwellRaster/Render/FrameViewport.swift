/// One tile of a canvas larger than the screen: a video wall's box shows the rectangle `rect`
/// of a `canvasWidth` x `canvasHeight` scene, laid out at the canvas's size.
public struct Viewport: Equatable, Sendable {
    public let canvasWidth: Int
    public let canvasHeight: Int
    public let rect: ClipRect

    /// Nil unless `rect` is non-empty and inside the canvas.
    public init?(canvasWidth: Int, canvasHeight: Int, rect: ClipRect) {
        guard canvasWidth > 0, canvasHeight > 0, !rect.isEmpty, rect.x0 >= 0, rect.y0 >= 0,
            rect.x1 <= canvasWidth, rect.y1 <= canvasHeight
        else { return nil }
        self.canvasWidth = canvasWidth
        self.canvasHeight = canvasHeight
        self.rect = rect
    }

    public var width: Int { rect.x1 - rect.x0 }
    public var height: Int { rect.y1 - rect.y0 }
    /// Whether the tile is the whole canvas (then it is rendered as a plain frame).
    public var isWholeCanvas: Bool { width == canvasWidth && height == canvasHeight }
}

extension FrameRenderer {
    /// Renders the rectangle `viewport` of `list` (laid out for a canvas of the list's size)
    /// into `tile`, the viewport's size, and returns the tile's pixels that may differ from the
    /// previous frame rendered into it (tile coordinates; the same contract as
    /// `render(_:into:tracksDamage:)`). The bytes are the canvas's, for every viewport.
    ///
    /// How: bands are rows, so rows are cheap to select: the renderer draws only the canvas rows
    /// `viewport.y0..<viewport.y1`, into a surface addressed in canvas rows. Columns are not cut:
    /// the ring kernel chooses its paths (steep rows, edge windows, full spans) by where its clip
    /// cuts a ring, so a ring clipped at the tile's left or right edge would get other bytes in
    /// its last bit than on the whole canvas (see `wholeRows` in FrameDamage.swift): with the
    /// bands cut to the tile's columns, ViewportStitchTests failed for the ripples (a pixel
    /// 0xffffb3af against the canvas's 0xffffb4af, inside a 101-wide tile). A tile as
    /// wide as the canvas is drawn straight into `tile`; a narrower one into whole canvas rows
    /// kept here (`viewportRows`, which also keep the previous frame for damage), whose
    /// damaged part of the tile's columns is then copied to `tile`. A tile of a 2x2 wall thus
    /// costs half a canvas frame, not a quarter.
    @discardableResult
    public func render(
        _ list: DisplayList, into tile: PixelSurface, viewport: ClipRect, tracksDamage: Bool = true
    ) -> Damage {
        precondition(
            viewport.x0 >= 0 && viewport.y0 >= 0 && viewport.x1 <= list.width && viewport.y1 <= list.height
                && !viewport.isEmpty, "the viewport lies outside the list")
        precondition(
            tile.width == viewport.x1 - viewport.x0 && tile.height == viewport.y1 - viewport.y0,
            "the tile's size differs from the viewport's")
        let rows = viewport.y0..<viewport.y1
        if viewport.x0 == 0 && viewport.x1 == list.width {
            let canvas = canvasRows(of: tile, from: viewport.y0, owner: tile.owner)
            let damage = renderRows(list, rows, into: canvas, tracksDamage: tracksDamage)
            tileDamage.removeAll()
            for rect in damage.rects { tileDamage.add(rect.offsetBy(0, -viewport.y0)) }
            return tileDamage
        }
        let scratch = reservedViewportRows(width: list.width, height: rows.count)
        let canvas = canvasRows(of: scratch.surface, from: viewport.y0, owner: scratch)
        let damage = renderRows(list, rows, into: canvas, tracksDamage: tracksDamage)
        // The tile keeps the previous frame only if it is the memory the last frame went to.
        let target = Target(
            base: tile.base, width: tile.width, height: tile.height, stride: tile.stride,
            background: list.background.opaquePixel)
        let sameTile = tracksDamage && previousTile == target && previousTileOwner === tile.owner
        previousTile = tracksDamage ? target : nil
        previousTileOwner = tracksDamage ? tile.owner : nil
        tileDamage.removeAll()
        if sameTile {
            for rect in damage.rects {
                tileDamage.add(rect.intersection(viewport).offsetBy(-viewport.x0, -viewport.y0))
            }
        } else {
            tileDamage.add(tile.bounds)
        }
        for rect in tileDamage.rects { copy(rect, from: canvas, offset: viewport, to: tile) }
        return tileDamage
    }

    /// `surface` (whose row 0 is canvas row `top`) addressed in canvas rows, as wide as the
    /// canvas: only rows from `top` on are memory, and only they are drawn.
    private func canvasRows(of surface: PixelSurface, from top: Int, owner: AnyObject?) -> PixelSurface {
        PixelSurface(
            base: surface.base - top * surface.stride, width: surface.width, height: top + surface.height,
            stride: surface.stride, owner: owner)
    }

    /// Whole canvas rows for a narrower tile, reused while the size stays.
    private func reservedViewportRows(width: Int, height: Int) -> PixelBuffer {
        if let rows = viewportRows, rows.width == width, rows.height == height { return rows }
        let rows = PixelBuffer(width: width, height: height)
        viewportRows = rows
        return rows
    }

    /// Copies the tile rectangle `rect` from `canvas` (canvas coordinates) into `tile`.
    private func copy(_ rect: ClipRect, from canvas: PixelSurface, offset viewport: ClipRect, to tile: PixelSurface) {
        let count = rect.x1 - rect.x0
        for y in rect.y0..<rect.y1 {
            // Two steps: Swift 6.2 rejects row(a) + (b + c) in one expression.
            let sourceRow = canvas.row(y + viewport.y0)
            let source = sourceRow + (rect.x0 + viewport.x0)
            (tile.row(y) + rect.x0).update(from: source, count: count)
        }
    }
}

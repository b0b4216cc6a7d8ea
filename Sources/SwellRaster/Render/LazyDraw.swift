/// Draws one command of a band whose rows may still be virtual (`UniformRows`).
///
/// A wave fill spanning the full width keeps its fully covered rows virtual (one blended
/// colour per still-virtual row) and writes only the rows where its curve lies, reading the
/// virtual ones' colour instead of their pixels (waves.json, 1080p, one thread, 2-core Xeon: 0.96 → 0.89 ms); every other
/// command first writes the virtual rows it can touch (its row extent within the clip), then
/// draws as `draw(_:on:within:)` does. Such a fill may leave the pixels `hidden` names alone
/// (a later opaque fill's: see `HiddenGroups`).
@inlinable
func draw(
    _ command: DrawCommand, on rows: UniformRows, within area: ClipRect, extent: (top: Int, bottom: Int),
    hidden: HiddenGroups? = nil
) {
    let surface = rows.surface
    guard let clip = drawableClip(command, surface, within: area) else { return }
    if case .waveFill(let wave) = command.shape, command.origin == .zero, rows.isFullWidth, clip.x0 == 0,
        clip.x1 == surface.width
    {
        let source = SourceColor(command.color)
        guard let fill = WaveFillRows(wave, source, surface: surface, clip: clip) else { return }
        // The fill writes every pixel of its curve rows, blending virtual rows from their colour.
        fill.drawCurve(surface, wave, source, virtualColors: rows.colors, hidden: hidden)
        rows.markWritten(fill.curveRows)
        rows.blendFullRows(fill.fullRows, with: WaveBlender(source), hidden: hidden)
        return
    }
    materialise(rows, extent: extent, within: clip)
    draw(command, on: surface, within: area)
}

/// `draw(_:on:within:extent:hidden:)` for a wave stroke whose columns the frame's bands share
/// (`StrokeColumnTable`): the same rows written first, the same pixels.
func draw(
    _ command: DrawCommand, shared: SharedStrokeColumns, on rows: UniformRows, within area: ClipRect,
    extent: (top: Int, bottom: Int)
) {
    let surface = rows.surface
    guard let clip = drawableClip(command, surface, within: area), case .waveStroke(let stroke) = command.shape
    else { return }
    materialise(rows, extent: extent, within: clip)
    strokeWave(surface, stroke, SourceColor(command.color), clip: clip, shared: shared)
}

/// Where `command` can draw within `area`: its own clip and the surface's bounds (nil: nowhere,
/// or its colour is transparent).
@inlinable @inline(__always)
func drawableClip(_ command: DrawCommand, _ surface: PixelSurface, within area: ClipRect) -> ClipRect? {
    var clip = area.intersection(surface.bounds)
    if let own = command.clip { clip = clip.intersection(own) }
    guard !clip.isEmpty, command.color.a > 0 else { return nil }
    return clip
}

/// Writes the virtual rows a command can touch: its row extent within `clip`.
@inlinable @inline(__always)
func materialise(_ rows: UniformRows, extent: (top: Int, bottom: Int), within clip: ClipRect) {
    let top = max(extent.top, clip.y0)
    rows.materialise(top..<max(top, min(extent.bottom, clip.y1)))
}

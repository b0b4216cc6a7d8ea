/// Composites one command onto a surface, limited to `area` (already inside the surface),
/// dispatching to the shape's SIMD kernel.
@inlinable
public func draw(_ command: DrawCommand, on surface: PixelSurface, within area: ClipRect) {
    var clip = area.intersection(surface.bounds)
    if let own = command.clip { clip = clip.intersection(own) }
    guard !clip.isEmpty, command.color.a > 0 else { return }
    let origin = command.origin
    guard origin == .zero else {
        guard let placed = surface.placed(at: origin) else { return }
        drawShape(command, on: placed, clip: clip.offsetBy(-origin.x, -origin.y))
        return
    }
    drawShape(command, on: surface, clip: clip)
}

/// The kernel call of `draw`, on a surface and clip already in the shape's coordinates.
@inlinable
func drawShape(_ command: DrawCommand, on surface: PixelSurface, clip: ClipRect) {
    let source = SourceColor(command.color)
    switch command.shape {
    case .ring(let ring): fillRing(surface, ring, source, clip: clip)
    case .disc(let disc): fillDisc(surface, disc, source, clip: clip)
    case .waveFill(let wave): fillWave(surface, wave, source, clip: clip)
    case .waveStroke(let stroke): strokeWave(surface, stroke, source, clip: clip)
    case .path(let path): fillPath(surface, path, source, clip: clip)
    case .glyphs(let run): fillGlyphs(surface, run, source, clip: clip)
    }
}

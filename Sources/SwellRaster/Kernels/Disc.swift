/// Composites a filled, anti-aliased circle: the ring kernel with no hole (see Ring.swift for
/// the design and measured accuracy and speed).
@inlinable
public func fillDisc(_ surface: PixelSurface, _ shape: Disc, _ source: SourceColor, clip: ClipRect) {
    fillAnnulus(
        surface, centerX: shape.centerX, centerY: shape.centerY, outer: shape.radius, inner: 0, source, clip: clip)
}

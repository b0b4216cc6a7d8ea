/// Composites an anti-aliased ring: points whose distance from the centre lies within
/// radius ± width/2 (inner radius clamped at 0, so radius < width/2 gives a disc).
/// Width ≤ 0, NaN or infinite fields draw nothing.
@inlinable
public func fillRing(_ surface: PixelSurface, _ shape: Ring, _ source: SourceColor, clip: ClipRect) {
    guard shape.width > 0, shape.width.isFinite, shape.radius.isFinite else { return }
    let outer = shape.radius + shape.width / 2
    let inner = max(shape.radius - shape.width / 2, 0)
    fillAnnulus(surface, centerX: shape.centerX, centerY: shape.centerY, outer: outer, inner: inner, source, clip: clip)
}

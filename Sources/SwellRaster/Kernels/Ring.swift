// PLACEHOLDER: the fillRing kernel is being written; it draws nothing yet.
@inlinable
public func fillRing(_ surface: PixelSurface, _ shape: Ring, _ source: SourceColor, clip: ClipRect) {
}

// PLACEHOLDER: the fillWave kernel is being written; it draws nothing yet.
@inlinable
public func fillWave(_ surface: PixelSurface, _ shape: Wave, _ source: SourceColor, clip: ClipRect) {
}

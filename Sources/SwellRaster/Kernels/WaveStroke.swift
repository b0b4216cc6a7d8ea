// PLACEHOLDER: the strokeWave kernel is being written; it draws nothing yet.
@inlinable
public func strokeWave(_ surface: PixelSurface, _ shape: WaveStroke, _ source: SourceColor, clip: ClipRect) {
}

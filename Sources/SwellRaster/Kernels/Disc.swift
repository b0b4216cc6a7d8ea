// PLACEHOLDER: the fillDisc kernel is being written; it draws nothing yet.
@inlinable
public func fillDisc(_ surface: PixelSurface, _ shape: Disc, _ source: SourceColor, clip: ClipRect) {
}

/// Fills the clip rectangle with an opaque colour (the frame's background).
@inlinable
public func clear(_ surface: PixelSurface, color: Color, clip: ClipRect) {
    let area = clip.intersection(surface.bounds)
    guard !area.isEmpty else { return }
    let pixel = color.opaquePixel
    for y in area.y0..<area.y1 {
        (surface.row(y) + area.x0).update(repeating: pixel, count: area.x1 - area.x0)
    }
}

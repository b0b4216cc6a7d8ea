/// Compositing of opaque images that already have the surface's size and origin (a scene
/// scales each image once with `scaleImageToFill`, then composites it every frame 1:1).

/// Composites `image` over the clip rectangle of `surface` at constant `alpha` (1 copies rows).
@inlinable
public func compositeImage(_ surface: PixelSurface, _ image: PixelSurface, alpha: Float, clip: ClipRect) {
    let area = clip.intersection(surface.bounds).intersection(image.bounds)
    guard !area.isEmpty, alpha > 0 else { return }
    let t = LaneFloats(repeating: min(alpha, 1))
    for y in area.y0..<area.y1 {
        let destination = surface.row(y)
        let source = image.row(y)
        if alpha >= 1 {
            (destination + area.x0).update(from: source + area.x0, count: area.x1 - area.x0)
            continue
        }
        var x = area.x0
        while x < area.x1 {
            let count = min(laneCount, area.x1 - x)
            mixLanes(destination, toward: source, at: x, count: count, t)
            x += count
        }
    }
}

/// Paints an image through a coverage mask (e.g. a path fill): out = mix(dst, image, alpha · coverage).
@frozen
public struct ImagePainter: CoveragePainter {
    public let image: PixelSurface
    public let alpha: Float

    @inlinable
    public init(_ image: PixelSurface, alpha: Float = 1) {
        self.image = image
        self.alpha = alpha
    }

    @inlinable @inline(__always)
    public func paint(_ row: UnsafeMutablePointer<UInt32>, y: Int, x: Int, count: Int, coverage: LaneFloats) {
        guard y < image.height else { return }
        let visible = min(count, image.width - x)
        guard visible > 0 else { return }
        mixLanes(row, toward: image.row(y), at: x, count: visible, coverage * alpha)
    }

    @inlinable @inline(__always)
    public func paintSpan(_ row: UnsafeMutablePointer<UInt32>, y: Int, from x0: Int, to x1: Int, coverage: Float) {
        guard y < image.height else { return }
        let end = min(x1, image.width)
        guard end > x0 else { return }
        let source = image.row(y)
        let t = coverage * alpha
        if t >= 1 {
            (row + x0).update(from: source + x0, count: end - x0)
            return
        }
        let lanes = LaneFloats(repeating: t)
        var x = x0
        while x < end {
            let count = min(laneCount, end - x)
            mixLanes(row, toward: source, at: x, count: count, lanes)
            x += count
        }
    }
}

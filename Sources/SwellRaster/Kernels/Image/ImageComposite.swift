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

/// Scales `source` to cover all of `destination` keeping its aspect ratio (the overflow is
/// cropped equally on both sides), like a photo "scaled to fill". Each output pixel averages
/// a grid of bilinear samples over its footprint in the source, so downscaling does not alias.
/// Runs once per image and size, not per frame.
public func scaleImageToFill(_ source: PixelSurface, into destination: PixelSurface) {
    let scale = max(
        Double(destination.width) / Double(source.width), Double(destination.height) / Double(source.height))
    let offsetX = (Double(source.width) * scale - Double(destination.width)) / 2
    let offsetY = (Double(source.height) * scale - Double(destination.height)) / 2
    let samples = min(8, max(1, Int((1 / scale).rounded(.up))))
    let weight = 1 / Double(samples * samples)
    func channels(_ pixel: UInt32) -> SIMD4<Double> {
        SIMD4(Double((pixel >> 16) & 0xFF), Double((pixel >> 8) & 0xFF), Double(pixel & 0xFF), 0)
    }
    func bilinear(_ x: Double, _ y: Double) -> SIMD4<Double> {
        let fx = min(max(x - 0.5, 0), Double(source.width - 1))
        let fy = min(max(y - 0.5, 0), Double(source.height - 1))
        let x0 = Int(fx)
        let y0 = Int(fy)
        let x1 = min(x0 + 1, source.width - 1)
        let y1 = min(y0 + 1, source.height - 1)
        let tx = fx - Double(x0)
        let ty = fy - Double(y0)
        let top = channels(source.row(y0)[x0]) * (1 - tx) + channels(source.row(y0)[x1]) * tx
        let bottom = channels(source.row(y1)[x0]) * (1 - tx) + channels(source.row(y1)[x1]) * tx
        return top * (1 - ty) + bottom * ty
    }
    for j in 0..<destination.height {
        let row = destination.row(j)
        for i in 0..<destination.width {
            var sum = SIMD4<Double>(repeating: 0)
            for sy in 0..<samples {
                let y = (Double(j) + (Double(sy) + 0.5) / Double(samples) + offsetY) / scale
                for sx in 0..<samples {
                    let x = (Double(i) + (Double(sx) + 0.5) / Double(samples) + offsetX) / scale
                    sum += bilinear(x, y)
                }
            }
            let c = sum * weight
            row[i] = 0xFF00_0000 | UInt32(c.x.rounded()) << 16 | UInt32(c.y.rounded()) << 8 | UInt32(c.z.rounded())
        }
    }
}

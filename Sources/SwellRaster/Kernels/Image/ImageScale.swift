/// Scaling a picture to fill or fit the screen, once per picture and size (the slideshow does it
/// on a background queue), never per frame.
///
/// Shrinking (photographs, usually) averages the exact area of the source under each output
/// pixel: a box filter, separable, with per-column weights computed once, so each output pixel
/// costs about (1/scale + 1)² source reads in Float. It replaced a grid of up to 8x8 bilinear
/// samples in Double per output pixel, which was most of a slideshow change: a 12-megapixel
/// JPEG's first frame (decode, turn upright, scale to 1080p) went from 457 ms to ~200 ms on one
/// core of the EPYC (`swell bench FILE --frames 2 --threads 1` on a folder of such photos).
/// Tested against a two-dimensional exact-area reference (LayerMaskAndImageTests). Enlarging is
/// bilinear at each output pixel's centre.

/// Scales `source` to cover all of `destination` keeping its aspect ratio (the overflow is
/// cropped equally on both sides), like a photo "scaled to fill".
public func scaleImageToFill(_ source: PixelSurface, into destination: PixelSurface) {
    let scale = max(
        Double(destination.width) / Double(source.width), Double(destination.height) / Double(source.height))
    let offsetX = (Double(source.width) * scale - Double(destination.width)) / 2
    let offsetY = (Double(source.height) * scale - Double(destination.height)) / 2
    if scale < 1 {
        shrinkByAreaAverage(source, into: destination, scale: scale, offsetX: offsetX, offsetY: offsetY)
    } else {
        enlargeBilinear(source, into: destination, scale: scale, offsetX: offsetX, offsetY: offsetY)
    }
}

/// Scales `source` to fit inside `destination` keeping its aspect ratio, centred, the rest of
/// `destination` filled with `background`: the whole picture shows (a poster's edges are not
/// cropped), with bars above and below or left and right.
public func scaleImageToFit(_ source: PixelSurface, into destination: PixelSurface, background: UInt32) {
    let scale = min(
        Double(destination.width) / Double(source.width), Double(destination.height) / Double(source.height))
    let width = min(destination.width, max(1, Int((Double(source.width) * scale).rounded())))
    let height = min(destination.height, max(1, Int((Double(source.height) * scale).rounded())))
    let left = (destination.width - width) / 2
    let top = (destination.height - height) / 2
    for y in 0..<destination.height {
        let row = destination.row(y)
        if y < top || y >= top + height {
            row.update(repeating: background, count: destination.width)
        } else {
            row.update(repeating: background, count: left)
            (row + left + width).update(repeating: background, count: destination.width - left - width)
        }
    }
    // The picture's rectangle as a surface of its own (same rows, offset base): filling it
    // crops at most a rounding pixel.
    let inner = PixelSurface(
        base: destination.base + top * destination.stride + left * 4, width: width, height: height,
        stride: destination.stride, owner: destination.owner)
    scaleImageToFill(source, into: inner)
}

/// The source pixels under each output pixel along one axis: output i covers source
/// [(i + offset)/scale, (i + 1 + offset)/scale), each source pixel weighted by its overlap,
/// the weights of an output summing to 1. Output i's taps are `first[i]`, `first[i] + 1`, …,
/// with weights `weights[start[i] ..< start[i + 1]]`.
struct BoxTaps {
    var first: [Int] = []
    var start: [Int] = [0]
    var weights: [Float] = []

    init(outputs: Int, inputs: Int, scale: Double, offset: Double) {
        first.reserveCapacity(outputs)
        start.reserveCapacity(outputs + 1)
        for i in 0..<outputs {
            let low = min(max((Double(i) + offset) / scale, 0), Double(inputs))
            let high = min(max((Double(i + 1) + offset) / scale, low), Double(inputs))
            let a = min(Int(low), inputs - 1)
            let b = max(a + 1, min(Int(high.rounded(.up)), inputs))
            var overlaps: [Double] = []
            for s in a..<b { overlaps.append(max(0, min(high, Double(s + 1)) - max(low, Double(s)))) }
            // Shrinking: every footprint covers at least one source pixel, so total ≥ 1.
            let total = max(overlaps.reduce(0, +), 1e-9)
            first.append(a)
            weights.append(contentsOf: overlaps.map { Float($0 / total) })
            start.append(weights.count)
        }
    }
}

@inline(__always)
func channelsOf(_ pixel: UInt32) -> SIMD4<Float> {
    SIMD4(Float(pixel >> 16 & 0xFF), Float(pixel >> 8 & 0xFF), Float(pixel & 0xFF), 0)
}

@inline(__always)
func opaquePixel(_ c: SIMD4<Float>) -> UInt32 {
    let r = UInt32(min(max(c.x, 0), 255) + 0.5)
    let g = UInt32(min(max(c.y, 0), 255) + 0.5)
    let b = UInt32(min(max(c.z, 0), 255) + 0.5)
    return 0xFF00_0000 | r << 16 | g << 8 | b
}

/// The box filter, row by row: each output row sums its source rows, each filtered across once.
func shrinkByAreaAverage(
    _ source: PixelSurface, into destination: PixelSurface, scale: Double, offsetX: Double, offsetY: Double
) {
    let columns = BoxTaps(outputs: destination.width, inputs: source.width, scale: scale, offset: offsetX)
    let rows = BoxTaps(outputs: destination.height, inputs: source.height, scale: scale, offset: offsetY)
    var sums = [SIMD4<Float>](repeating: .zero, count: destination.width)
    sums.withUnsafeMutableBufferPointer { sums in
        columns.first.withUnsafeBufferPointer { first in
            columns.start.withUnsafeBufferPointer { start in
                columns.weights.withUnsafeBufferPointer { weights in
                    for j in 0..<destination.height {
                        for i in 0..<sums.count { sums[i] = .zero }
                        for tap in rows.start[j]..<rows.start[j + 1] {
                            let rowWeight = rows.weights[tap]
                            let line = source.row(rows.first[j] + tap - rows.start[j])
                            for i in 0..<sums.count {
                                var sum = SIMD4<Float>.zero
                                var x = first[i]
                                for k in start[i]..<start[i + 1] {
                                    sum += weights[k] * channelsOf(line[x])
                                    x += 1
                                }
                                sums[i] += rowWeight * sum
                            }
                        }
                        let out = destination.row(j)
                        for i in 0..<sums.count { out[i] = opaquePixel(sums[i]) }
                    }
                }
            }
        }
    }
}

/// Bilinear enlargement, sampling the source at each output pixel's centre.
func enlargeBilinear(
    _ source: PixelSurface, into destination: PixelSurface, scale: Double, offsetX: Double, offsetY: Double
) {
    func channels(_ pixel: UInt32) -> SIMD4<Double> {
        SIMD4(Double((pixel >> 16) & 0xFF), Double((pixel >> 8) & 0xFF), Double(pixel & 0xFF), 0)
    }
    for j in 0..<destination.height {
        let row = destination.row(j)
        let y = (Double(j) + 0.5 + offsetY) / scale
        let fy = min(max(y - 0.5, 0), Double(source.height - 1))
        let y0 = Int(fy)
        let y1 = min(y0 + 1, source.height - 1)
        let ty = fy - Double(y0)
        for i in 0..<destination.width {
            let x = (Double(i) + 0.5 + offsetX) / scale
            let fx = min(max(x - 0.5, 0), Double(source.width - 1))
            let x0 = Int(fx)
            let x1 = min(x0 + 1, source.width - 1)
            let tx = fx - Double(x0)
            let top = channels(source.row(y0)[x0]) * (1 - tx) + channels(source.row(y0)[x1]) * tx
            let bottom = channels(source.row(y1)[x0]) * (1 - tx) + channels(source.row(y1)[x1]) * tx
            let c = top * (1 - ty) + bottom * ty
            row[i] = 0xFF00_0000 | UInt32(c.x.rounded()) << 16 | UInt32(c.y.rounded()) << 8 | UInt32(c.z.rounded())
        }
    }
}

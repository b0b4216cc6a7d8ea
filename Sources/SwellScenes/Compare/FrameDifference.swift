import SwellRaster

#if canImport(Glibc)
    import Glibc
#endif

/// How two frames differ, over the R, G and B channels (the X byte is ignored).
public struct FrameDifference: Equatable, Sendable {
    public var pixels: Int
    /// The largest difference of one channel, 0...255.
    public var maxChannel: Int
    /// The sum of absolute channel differences (mean = sum / (3 · pixels)).
    public var channelSum: Int
    public var squaredSum: Int
    /// Pixels where any channel differs.
    public var differingPixels: Int

    public init() {
        pixels = 0
        maxChannel = 0
        channelSum = 0
        squaredSum = 0
        differingPixels = 0
    }

    public var meanChannel: Double { pixels == 0 ? 0 : Double(channelSum) / Double(3 * pixels) }

    /// Peak signal-to-noise ratio in dB (infinity for identical frames).
    public var psnr: Double {
        guard squaredSum > 0 else { return .infinity }
        let mse = Double(squaredSum) / Double(3 * pixels)
        return 10 * log10(255 * 255 / mse)
    }

    /// Adds another frame's figures (for whole dumps).
    public mutating func add(_ other: FrameDifference) {
        pixels += other.pixels
        maxChannel = max(maxChannel, other.maxChannel)
        channelSum += other.channelSum
        squaredSum += other.squaredSum
        differingPixels += other.differingPixels
    }

    /// One line: "max 3, mean 0.0123, 41 pixels differ (0.07 %), PSNR 61.20 dB".
    public var summary: String {
        let share = pixels == 0 ? 0 : 100 * Double(differingPixels) / Double(pixels)
        let psnrText = psnr.isInfinite ? "inf" : fixed(psnr, 2)
        return
            "max \(maxChannel), mean \(fixed(meanChannel, 4)), \(differingPixels) pixels differ (\(fixed(share, 2)) %), PSNR \(psnrText) dB"
    }
}

/// A number with `digits` decimals (no Foundation formatting).
func fixed(_ value: Double, _ digits: Int) -> String {
    guard value.isFinite else { return "\(value)" }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let scaled = (abs(value) * scale).rounded()
    let whole = Int64(scaled / scale)
    var fraction = String(Int64(scaled - Double(whole) * scale))
    while fraction.count < digits { fraction = "0" + fraction }
    return (value < 0 && scaled != 0 ? "-" : "") + String(whole) + (digits > 0 ? "." + fraction : "")
}

/// Compares two frames of the same size. With `heatmap` (same size) it also draws where they
/// differ: unchanged pixels as a dim grey copy of `a`, differing ones from dark red (1) through
/// red and yellow to white (≥ 64), so small and large errors are both visible.
public func compareFrames(_ a: PixelSurface, _ b: PixelSurface, heatmap: PixelSurface? = nil) -> FrameDifference {
    precondition(a.width == b.width && a.height == b.height, "frames to compare must have the same size")
    var result = FrameDifference()
    result.pixels = a.width * a.height
    for y in 0..<a.height {
        let rowA = a.row(y)
        let rowB = b.row(y)
        let out = heatmap?.row(y)
        for x in 0..<a.width {
            let p = rowA[x]
            let q = rowB[x]
            var worst = 0
            if (p ^ q) & 0xFF_FFFF != 0 {
                for shift: UInt32 in [16, 8, 0] {
                    let d = abs(Int((p >> shift) & 0xFF) - Int((q >> shift) & 0xFF))
                    result.channelSum += d
                    result.squaredSum += d * d
                    worst = max(worst, d)
                }
                result.differingPixels += 1
                result.maxChannel = max(result.maxChannel, worst)
            }
            guard let out else { continue }
            if worst == 0 {
                let grey = (((p >> 16) & 0xFF) * 77 + ((p >> 8) & 0xFF) * 150 + (p & 0xFF) * 29) >> 8
                let dim = grey / 4
                out[x] = 0xFF00_0000 | dim << 16 | dim << 8 | dim
            } else {
                let level = min(Double(worst) / 64, 1)
                let red = UInt32(96 + 159 * min(level * 3, 1))
                let green = UInt32(255 * min(max(level * 3 - 1, 0), 1))
                let blue = UInt32(255 * min(max(level * 3 - 2, 0), 1))
                out[x] = 0xFF00_0000 | red << 16 | green << 8 | blue
            }
        }
    }
    return result
}

/// `compareFrames` on buffers, keeping them alive while their pixels are read (a surface is
/// only a view: a buffer whose last use was taking its `surface` may be freed before the read).
public func compareFrames(_ a: PixelBuffer, _ b: PixelBuffer, heatmap: PixelBuffer? = nil) -> FrameDifference {
    withExtendedLifetime((a, b, heatmap)) { compareFrames(a.surface, b.surface, heatmap: heatmap?.surface) }
}

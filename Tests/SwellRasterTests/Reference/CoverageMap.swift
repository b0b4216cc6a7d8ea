import SwellRaster

/// Per-pixel coverage (0...1) of one shape over a small frame, row-major.
///
/// The reference side is computed in `Double` by the independent renderers in this folder
/// (dense supersampling or exact area); the kernel side is read back from what the SIMD
/// kernel drew (white at alpha 1 over black, so a pixel's red byte is round(255 · coverage)).
struct CoverageMap {
    let width: Int
    let height: Int
    var values: [Double]

    init(width: Int, height: Int, values: [Double]) {
        precondition(values.count == width * height)
        self.width = width
        self.height = height
        self.values = values
    }

    /// Builds a map by asking `coverage(i, j)` for every pixel.
    init(width: Int, height: Int, coverage: (Int, Int) -> Double) {
        var values = [Double](repeating: 0, count: width * height)
        for j in 0..<height {
            for i in 0..<width { values[j * width + i] = coverage(i, j) }
        }
        self.init(width: width, height: height, values: values)
    }

    subscript(i: Int, j: Int) -> Double { values[j * width + i] }

    /// The coverage the SIMD kernel produced for `shape`, read back from an opaque white draw
    /// over black (quantised to 1/255, which the tolerances allow for).
    static func drawnByKernel(_ shape: Shape, width: Int, height: Int, clip: ClipRect? = nil) -> CoverageMap {
        let buffer = PixelBuffer(width: width, height: height)
        clear(buffer.surface, color: .black, clip: buffer.surface.bounds)
        draw(DrawCommand(shape, color: .white, clip: clip), on: buffer.surface, within: buffer.surface.bounds)
        return CoverageMap(width: width, height: height) { i, j in
            Double((buffer.surface.pixel(x: i, y: j) >> 16) & 0xFF) / 255
        }
    }
}

/// How far a kernel's coverage is from the reference's.
struct CoverageError: CustomStringConvertible {
    /// The largest difference on any pixel.
    var maximum: Double
    /// Where the largest difference is.
    var worstPixel: (x: Int, y: Int)
    /// The mean difference over the shape's edge pixels (partly covered in either map).
    var meanOverEdges: Double
    var edgePixels: Int

    var description: String {
        "max \(maximum) at \(worstPixel), mean over \(edgePixels) edge pixels \(meanOverEdges)"
    }

    /// Compares two maps of the same size. A pixel is an edge pixel when either map has it
    /// partly covered (strictly between 1/510 and 1 − 1/510, i.e. not 0 or 1 after rounding).
    init(kernel: CoverageMap, reference: CoverageMap) {
        precondition(kernel.width == reference.width && kernel.height == reference.height)
        var maximum = 0.0
        var worst = (x: 0, y: 0)
        var edgeSum = 0.0
        var edges = 0
        let partial = 0.5 / 255
        for j in 0..<kernel.height {
            for i in 0..<kernel.width {
                let k = kernel[i, j]
                let r = reference[i, j]
                let difference = abs(k - r)
                if difference > maximum {
                    maximum = difference
                    worst = (i, j)
                }
                let isEdge = (k > partial && k < 1 - partial) || (r > partial && r < 1 - partial)
                if isEdge {
                    edgeSum += difference
                    edges += 1
                }
            }
        }
        self.maximum = maximum
        self.worstPixel = worst
        self.meanOverEdges = edges == 0 ? 0 : edgeSum / Double(edges)
        self.edgePixels = edges
    }
}

/// Source-over in sRGB of a straight colour with alpha `alpha · coverage` onto an 8-bit
/// channel value, rounded: the compositing rule every kernel must follow.
func referenceComposite(destination: UInt32, source: Double, alpha: Double) -> UInt32 {
    let d = Double(destination)
    return UInt32((d + (source * 255 - d) * alpha).rounded())
}

/// A random straight colour with alpha in 0.05...1: the composite tests' sources.
func randomCompositeColor(_ random: inout SeededRandom) -> Color {
    Color(
        r: random.uniform(0...1), g: random.uniform(0...1), b: random.uniform(0...1), a: random.uniform(0.05...1))
}

/// `count` random opaque pixels: the wave composite tests' backgrounds.
func randomOpaqueBackground(_ count: Int, _ random: inout SeededRandom) -> [UInt32] {
    (0..<count).map { _ in UInt32.random(in: 0...0xFF_FFFF, using: &random) | 0xFF00_0000 }
}

/// Checks a kernel's composite of `color` over a random background against the reference
/// coverage: each channel must be within what a 0.05 coverage error plus rounding allows.
/// Returns the number of channel values outside that bound.
func compositeMismatches(
    shape: Shape, color: Color, background: [UInt32], width: Int, height: Int,
    reference: CoverageMap, coverageTolerance: Double = 0.05
) -> Int {
    let buffer = PixelBuffer(width: width, height: height)
    for j in 0..<height {
        for i in 0..<width { buffer.surface.row(j)[i] = background[j * width + i] }
    }
    draw(DrawCommand(shape, color: color), on: buffer.surface, within: buffer.surface.bounds)
    var mismatches = 0
    for j in 0..<height {
        for i in 0..<width {
            let before = background[j * width + i]
            let after = buffer.surface.pixel(x: i, y: j)
            let coverage = reference[i, j]
            for (shift, channel) in [(16, color.r), (8, color.g), (0, color.b)] {
                let d = (before >> UInt32(shift)) & 0xFF
                let expected = referenceComposite(destination: d, source: channel, alpha: color.a * coverage)
                let got = (after >> UInt32(shift)) & 0xFF
                let allowed = (coverageTolerance * color.a * abs(channel * 255 - Double(d))).rounded(.up) + 1
                if abs(Double(got) - Double(expected)) > allowed { mismatches += 1 }
            }
        }
    }
    return mismatches
}

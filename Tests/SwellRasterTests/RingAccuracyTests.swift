import SwellRaster
import Testing

/// The frame sizes of the random tests: odd widths leave SIMD tails at the clip's right end.
let circleTestFrames = [(width: 64, height: 48), (width: 97, height: 61)]

/// A value spread evenly in log scale over `range` (radii and widths from 0.05 px to 2000 px).
func logUniform(_ range: ClosedRange<Double>, _ random: inout SeededRandom) -> Double {
    (random.uniform(range.lowerBound.log2Value...range.upperBound.log2Value)).exp2Value
}

extension Double {
    /// log2 and 2^x without Foundation's math (the test target needs none of it here).
    var log2Value: Double {
        var exponent = 0.0
        var mantissa = self
        while mantissa >= 2 {
            mantissa /= 2
            exponent += 1
        }
        while mantissa < 1 {
            mantissa *= 2
            exponent -= 1
        }
        // log2(m) for m in [1, 2) by the series of atanh: log2(m) = 2·atanh((m−1)/(m+1))/ln 2.
        let t = (mantissa - 1) / (mantissa + 1)
        var term = t
        var sum = 0.0
        for k in stride(from: 1, to: 60, by: 2) {
            sum += term / Double(k)
            term *= t * t
        }
        return exponent + 2 * sum / 0.693_147_180_559_945_3
    }

    var exp2Value: Double {
        let whole = (self).rounded(.down)
        let fraction = (self - whole) * 0.693_147_180_559_945_3
        var term = 1.0
        var sum = 1.0
        for k in 1..<30 {
            term *= fraction / Double(k)
            sum += term
        }
        var scale = 1.0
        if whole >= 0 { for _ in 0..<Int(whole) { scale *= 2 } } else { for _ in 0..<Int(-whole) { scale /= 2 } }
        return sum * scale
    }
}

/// A centre for a circle of `radius` such that its boundary crosses (or nearly crosses) the frame.
func centreCrossingFrame(radius: Double, width: Int, height: Int, _ random: inout SeededRandom) -> (Double, Double) {
    let w = Double(width)
    let h = Double(height)
    if radius < 2 * max(w, h) || random.uniform(0...1) < 0.3 {
        return (random.uniform(-30...(w + 30)), random.uniform(-30...(h + 30)))
    }
    // Put the centre at about `radius` from a random point of the frame, in a random direction.
    let angle = random.uniform(0...(2 * Double.pi))
    let (c, s) = (cosine(angle), cosine(angle - Double.pi / 2))
    let distance = radius + random.uniform(-20...20)
    return (random.uniform(0...w) + distance * c, random.uniform(0...h) + distance * s)
}

/// cos by its Taylor series after reduction to [−π, π] (enough for placing test shapes).
func cosine(_ x: Double) -> Double {
    var t = x
    while t > Double.pi { t -= 2 * Double.pi }
    while t < -Double.pi { t += 2 * Double.pi }
    var term = 1.0
    var sum = 1.0
    for k in stride(from: 2, to: 40, by: 2) {
        term *= -t * t / Double(k * (k - 1))
        sum += term
    }
    return sum
}

/// A random ring for a frame: radii from 0.05 to 2000 px and widths from 0.1 to 40 px, both
/// log-uniform, sometimes wider than twice the radius (a disc).
func randomRing(width: Int, height: Int, _ random: inout SeededRandom) -> Ring {
    let radius = logUniform(0.05...2000, &random)
    let ringWidth = random.uniform(0...1) < 0.15 ? 2 * radius + random.uniform(0...5) : logUniform(0.1...40, &random)
    let (cx, cy) = centreCrossingFrame(radius: radius, width: width, height: height, &random)
    return Ring(centerX: cx, centerY: cy, radius: radius, width: ringWidth)
}

/// Composites a circle `shape` in a random colour over a random background of `frame` and
/// counts the channels outside what the exact reference coverage allows (`compositeMismatches`).
func circleCompositeMismatches(
    _ shape: Shape, _ frame: (width: Int, height: Int), _ random: inout SeededRandom
) -> (mismatches: Int, color: Color) {
    let color = randomCompositeColor(&random)
    let background = (0..<(frame.width * frame.height)).map { _ in UInt32(truncatingIfNeeded: random.next()) }
    let mismatches = compositeMismatches(
        shape: shape, color: color, background: background, width: frame.width, height: frame.height,
        reference: ReferenceCircle.map(shape, width: frame.width, height: frame.height))
    return (mismatches, color)
}

/// Coverage error of the kernel against the reference for one shape.
func kernelCoverageError(_ shape: Shape, width: Int, height: Int) -> CoverageError {
    CoverageError(
        kernel: CoverageMap.drawnByKernel(shape, width: width, height: height),
        reference: ReferenceCircle.map(shape, width: width, height: height))
}

/// Accumulates the worst figures over many shapes, for the test's printed summary.
struct ErrorSummary: CustomStringConvertible {
    var name: String
    var shapes = 0
    var worstMaximum = 0.0
    var worstMaximumShape = ""
    var worstMean = 0.0
    var worstMeanShape = ""
    var meanSum = 0.0

    init(_ name: String) { self.name = name }

    mutating func add(_ error: CoverageError, _ shape: Shape) {
        shapes += 1
        meanSum += error.meanOverEdges
        if error.maximum > worstMaximum {
            worstMaximum = error.maximum
            worstMaximumShape = "\(shape) \(error)"
        }
        if error.meanOverEdges > worstMean {
            worstMean = error.meanOverEdges
            worstMeanShape = "\(shape) \(error)"
        }
    }

    var description: String {
        "\(name): \(shapes) shapes, worst max \(worstMaximum) (\(worstMaximumShape)); worst edge mean \(worstMean) "
            + "(\(worstMeanShape)); average edge mean \(meanSum / Double(max(shapes, 1)))"
    }
}

@Suite struct RingAccuracyTests {
    @Test func randomRingsMatchTheReferenceCoverage() {
        var random = SeededRandom(seed: 0x5249_4E47)
        var summary = ErrorSummary("rings")
        for index in 0..<400 {
            let frame = circleTestFrames[index % circleTestFrames.count]
            let shape = Shape.ring(randomRing(width: frame.width, height: frame.height, &random))
            let error = kernelCoverageError(shape, width: frame.width, height: frame.height)
            summary.add(error, shape)
            #expect(error.maximum <= 0.05, "\(shape): \(error)")
            #expect(error.meanOverEdges <= 0.005, "\(shape): \(error)")
        }
        print(summary)
    }

    @Test func thinRingsOfEveryRadiusClassMatchTheReference() {
        // The bench lists' rings: 2 px wide, radius 0–560; plus hairlines of 0.1 px.
        var random = SeededRandom(seed: 0x7448_494E)
        var summary = ErrorSummary("thin rings")
        for index in 0..<300 {
            let frame = circleTestFrames[index % circleTestFrames.count]
            let radius = index < 40 ? random.uniform(0...16) : random.uniform(0...600)
            let ringWidth = index % 3 == 0 ? 0.1 : 2
            let (cx, cy) = centreCrossingFrame(radius: radius, width: frame.width, height: frame.height, &random)
            let shape = Shape.ring(Ring(centerX: cx, centerY: cy, radius: radius, width: ringWidth))
            let error = kernelCoverageError(shape, width: frame.width, height: frame.height)
            summary.add(error, shape)
            #expect(error.maximum <= 0.05, "\(shape): \(error)")
            #expect(error.meanOverEdges <= 0.005, "\(shape): \(error)")
        }
        print(summary)
    }

    @Test func steepSidesOfLargeRingsMatchTheReference() {
        // Large rings in a larger frame, so that whole 8-row blocks are steep and take the
        // SteepRows paths: both crossings with 4- or 8-pixel windows, and one crossing with the
        // other beyond the frame's left or right edge (the small frames above rarely have them).
        var random = SeededRandom(seed: 0x5354_4550)
        var summary = ErrorSummary("steep rings")
        let (width, height) = (480, 360)
        for index in 0..<60 {
            let radius = random.uniform(14...420)
            let ringWidth = [0.5, 1, 2, 2, 3, 6][index % 6]
            let cx: Double
            switch index % 3 {
            case 0: cx = random.uniform(-300...(-5))
            case 1: cx = random.uniform(0...Double(width))
            default: cx = random.uniform(Double(width + 5)...Double(width + 300))
            }
            let cy = random.uniform(-40...Double(height + 40))
            let shape = Shape.ring(Ring(centerX: cx, centerY: cy, radius: radius, width: ringWidth))
            let error = kernelCoverageError(shape, width: width, height: height)
            summary.add(error, shape)
            #expect(error.maximum <= 0.05, "\(shape): \(error)")
            #expect(error.meanOverEdges <= 0.005, "\(shape): \(error)")
        }
        print(summary)
    }

    @Test func randomRingsCompositeOverRandomBackgrounds() {
        var random = SeededRandom(seed: 0x434F_4D50)
        for index in 0..<200 {
            let frame = circleTestFrames[index % circleTestFrames.count]
            let shape = Shape.ring(randomRing(width: frame.width, height: frame.height, &random))
            let (mismatches, color) = circleCompositeMismatches(shape, frame, &random)
            #expect(mismatches == 0, "\(shape) in \(color)")
        }
    }

    @Test func centresFarOffScreenDrawOnlyTheArcThatCrosses() {
        let cases = [
            Ring(centerX: -5000, centerY: 24, radius: 10, width: 2),  // nowhere near: nothing
            Ring(centerX: 32, centerY: -1e6, radius: 10, width: 4),
            Ring(centerX: -5000, centerY: 24, radius: 5020, width: 3),  // an arc through the frame
            Ring(centerX: 40, centerY: 3000.5, radius: 2990, width: 7),
            Ring(centerX: 1e9, centerY: 1e9, radius: 5, width: 1e3),
        ]
        for ring in cases {
            let error = kernelCoverageError(.ring(ring), width: 64, height: 48)
            #expect(error.maximum <= 0.05 && error.meanOverEdges <= 0.005, "\(ring): \(error)")
        }
        let nothing = CoverageMap.drawnByKernel(.ring(cases[0]), width: 64, height: 48)
        #expect(nothing.values.allSatisfy { $0 == 0 })
    }

    @Test func radiusZeroIsADiscOfHalfTheWidth() {
        let ring = CoverageMap.drawnByKernel(
            .ring(Ring(centerX: 30.3, centerY: 20.6, radius: 0, width: 9)), width: 64, height: 48)
        let disc = CoverageMap.drawnByKernel(
            .disc(Disc(centerX: 30.3, centerY: 20.6, radius: 4.5)), width: 64, height: 48)
        #expect(ring.values == disc.values)
        #expect(ring.values.contains { $0 == 1 })
    }

    @Test func radiusBelowHalfWidthIsADiscOfTheOuterRadius() {
        for (radius, width) in [(3.0, 10.0), (20.0, 41.0), (0.5, 1.5)] {
            let shape = Shape.ring(Ring(centerX: 33.7, centerY: 21.2, radius: radius, width: width))
            let ring = CoverageMap.drawnByKernel(shape, width: 64, height: 48)
            let disc = CoverageMap.drawnByKernel(
                .disc(Disc(centerX: 33.7, centerY: 21.2, radius: radius + width / 2)), width: 64, height: 48)
            #expect(ring.values == disc.values, "radius \(radius) width \(width)")
            let error = kernelCoverageError(shape, width: 64, height: 48)
            #expect(error.maximum <= 0.05 && error.meanOverEdges <= 0.005, "\(shape): \(error)")
        }
    }

    @Test func radiiFarLargerThanTheFrameMatchTheReference() {
        // 8000 and 8190 are the largest radii of the Float lanes; 8200 is just past them.
        for radius in [8000, 8190, 8200, 1e5, 1e7] {
            for (dx, dy, width) in [
                (-radius + 30.25, 20.5, 2.0), (30 - 0.6 * radius, 20 + 0.8 * radius, 5.0),
                (31, radius + 24.3, 0.1),
            ] {
                let shape = Shape.ring(Ring(centerX: dx, centerY: dy, radius: radius, width: width))
                let error = kernelCoverageError(shape, width: 64, height: 48)
                #expect(error.edgePixels > 0, "\(shape) should cross the frame")
                #expect(error.maximum <= 0.05 && error.meanOverEdges <= 0.005, "\(shape): \(error)")
            }
        }
    }

    @Test func subPixelWidthsMatchTheReference() {
        var random = SeededRandom(seed: 0x5355_4250)
        for _ in 0..<40 {
            let shape = Shape.ring(
                Ring(
                    centerX: random.uniform(0...64), centerY: random.uniform(0...48), radius: random.uniform(0.2...60),
                    width: random.uniform(0.01...0.3)))
            let error = kernelCoverageError(shape, width: 64, height: 48)
            #expect(error.maximum <= 0.05 && error.meanOverEdges <= 0.005, "\(shape): \(error)")
        }
    }

    @Test func zeroOrNegativeWidthDrawsNothing() {
        for width in [0.0, -0.0, -3] {
            let map = CoverageMap.drawnByKernel(
                .ring(Ring(centerX: 30, centerY: 20, radius: 10, width: width)), width: 64, height: 48)
            #expect(map.values.allSatisfy { $0 == 0 }, "width \(width)")
        }
    }

    @Test func notANumberOrInfinityDrawsNothing() {
        let bad = [Double.nan, .infinity, -.infinity, .signalingNaN]
        for value in bad {
            let rings = [
                Ring(centerX: value, centerY: 20, radius: 10, width: 2),
                Ring(centerX: 30, centerY: value, radius: 10, width: 2),
                Ring(centerX: 30, centerY: 20, radius: value, width: 2),
                Ring(centerX: 30, centerY: 20, radius: 10, width: value),
            ]
            for ring in rings {
                let map = CoverageMap.drawnByKernel(.ring(ring), width: 64, height: 48)
                #expect(map.values.allSatisfy { $0 == 0 }, "\(ring)")
            }
        }
    }

    @Test func clippedRingsTouchOnlyTheClipAndMatchTheReferenceThere() {
        var random = SeededRandom(seed: 0x434C_4950)
        for index in 0..<120 {
            let frame = circleTestFrames[index % circleTestFrames.count]
            let shape = Shape.ring(randomRing(width: frame.width, height: frame.height, &random))
            let x0 = Int(random.uniform(-5...Double(frame.width)))
            let y0 = Int(random.uniform(-5...Double(frame.height)))
            let clip = ClipRect(
                x0: x0, y0: y0, x1: x0 + Int(random.uniform(1...Double(frame.width))),
                y1: y0 + Int(random.uniform(1...Double(frame.height))))
            let drawn = CoverageMap.drawnByKernel(shape, width: frame.width, height: frame.height, clip: clip)
            let full = ReferenceCircle.map(shape, width: frame.width, height: frame.height)
            let clipped = CoverageMap(width: frame.width, height: frame.height) { i, j in
                (clip.x0..<clip.x1).contains(i) && (clip.y0..<clip.y1).contains(j) ? full[i, j] : 0
            }
            let outsideTouched = (0..<frame.height).contains { j in
                (0..<frame.width).contains { i in
                    !((clip.x0..<clip.x1).contains(i) && (clip.y0..<clip.y1).contains(j)) && drawn[i, j] != 0
                }
            }
            #expect(!outsideTouched, "\(shape) clip \(clip)")
            let error = CoverageError(kernel: drawn, reference: clipped)
            #expect(error.maximum <= 0.05 && error.meanOverEdges <= 0.005, "\(shape) clip \(clip): \(error)")
        }
    }

    @Test func paddedRowsKeepTheirPaddingBytes() {
        let width = 61
        let height = 37
        let stride = width * 4 + 36
        let memory = UnsafeMutableRawPointer.allocate(byteCount: stride * height, alignment: 64)
        defer { memory.deallocate() }
        memory.initializeMemory(as: UInt8.self, repeating: 0xA5, count: stride * height)
        let padded = PixelSurface(base: memory, width: width, height: height, stride: stride)
        let packed = PixelBuffer(width: width, height: height)
        for j in 0..<height {
            for i in 0..<width { packed.surface.row(j)[i] = padded.row(j)[i] }
        }
        var random = SeededRandom(seed: 0x5354_5244)
        for index in 0..<60 {
            let ring = randomRing(width: width, height: height, &random)
            let shape: Shape =
                index % 4 == 0
                ? .disc(Disc(centerX: ring.centerX, centerY: ring.centerY, radius: ring.radius)) : .ring(ring)
            let command = DrawCommand(
                shape, color: Color(r: 0.9, g: 0.3, b: random.uniform(0...1), a: random.uniform(0.2...1)))
            draw(command, on: padded, within: padded.bounds)
            draw(command, on: packed.surface, within: packed.surface.bounds)
        }
        let bytes = memory.assumingMemoryBound(to: UInt8.self)
        for j in 0..<height {
            for offset in (width * 4)..<stride {
                #expect(bytes[j * stride + offset] == 0xA5, "row \(j) byte \(offset)")
            }
            for i in 0..<width { #expect(padded.row(j)[i] == packed.surface.row(j)[i], "pixel \(i), \(j)") }
        }
    }
}

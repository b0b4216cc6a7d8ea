import SwellRaster
import Testing

@Suite struct DiscAccuracyTests {
    @Test func randomDiscsMatchTheReferenceCoverage() {
        var random = SeededRandom(seed: 0x4449_5343)
        var summary = ErrorSummary("discs")
        for index in 0..<400 {
            let frame = circleTestFrames[index % circleTestFrames.count]
            let radius = logUniform(0.05...2000, &random)
            let (cx, cy) = centreCrossingFrame(radius: radius, width: frame.width, height: frame.height, &random)
            let shape = Shape.disc(Disc(centerX: cx, centerY: cy, radius: radius))
            let error = kernelCoverageError(shape, width: frame.width, height: frame.height)
            summary.add(error, shape)
            #expect(error.maximum <= 0.05, "\(shape): \(error)")
            #expect(error.meanOverEdges <= 0.005, "\(shape): \(error)")
        }
        print(summary)
    }

    @Test func randomDiscsCompositeOverRandomBackgrounds() {
        var random = SeededRandom(seed: 0x4443_4F4D)
        for index in 0..<200 {
            let frame = circleTestFrames[index % circleTestFrames.count]
            let radius = logUniform(0.1...500, &random)
            let (cx, cy) = centreCrossingFrame(radius: radius, width: frame.width, height: frame.height, &random)
            let shape = Shape.disc(Disc(centerX: cx, centerY: cy, radius: radius))
            let (mismatches, color) = circleCompositeMismatches(shape, frame, &random)
            #expect(mismatches == 0, "\(shape) in \(color)")
        }
    }

    @Test func opaqueDiscFillsItsInteriorWithTheExactColour() {
        let buffer = PixelBuffer(width: 97, height: 61)
        let color = Color(r: 0.2, g: 0.4, b: 0.6)
        draw(
            DrawCommand(.disc(Disc(centerX: 48.5, centerY: 30.5, radius: 25)), color: color), on: buffer.surface,
            within: buffer.surface.bounds)
        #expect(buffer.surface.pixel(x: 48, y: 30) == color.opaquePixel)
        #expect(buffer.surface.pixel(x: 30, y: 30) == color.opaquePixel)
        #expect(buffer.surface.pixel(x: 2, y: 2) == 0)
    }

    @Test func radiusZeroOrNegativeDrawsNothing() {
        for radius in [0.0, -0.0, -4] {
            let map = CoverageMap.drawnByKernel(
                .disc(Disc(centerX: 30, centerY: 20, radius: radius)), width: 64, height: 48)
            #expect(map.values.allSatisfy { $0 == 0 }, "radius \(radius)")
        }
    }

    @Test func tinyDiscsMatchTheReference() {
        // Area π·0.1² ≈ 0.03: one pixel at about 8/255, wherever the centre falls.
        for (cx, cy) in [(10.5, 10.5), (10.0, 10.0), (10.02, 10.97), (0, 0), (63.99, 47.99)] {
            for radius in [0.01, 0.1, 0.5, 0.75, 1.3] {
                let shape = Shape.disc(Disc(centerX: cx, centerY: cy, radius: radius))
                let error = kernelCoverageError(shape, width: 64, height: 48)
                #expect(error.maximum <= 0.05 && error.meanOverEdges <= 0.005, "\(shape): \(error)")
            }
        }
    }

    @Test func hugeDiscsMatchTheReference() {
        for radius in [1e5, 1e7] {
            for (cx, cy) in [(32 - 0.6 * radius, 24 + 0.8 * radius), (-radius + 40.3, 10), (32, 24)] {
                let shape = Shape.disc(Disc(centerX: cx, centerY: cy, radius: radius))
                let error = kernelCoverageError(shape, width: 64, height: 48)
                #expect(error.maximum <= 0.05 && error.meanOverEdges <= 0.005, "\(shape): \(error)")
            }
        }
        let covering = CoverageMap.drawnByKernel(
            .disc(Disc(centerX: 32, centerY: 24, radius: 1e7)), width: 64, height: 48)
        #expect(covering.values.allSatisfy { $0 == 1 })
    }

    @Test func notANumberOrInfinityDrawsNothing() {
        for value in [Double.nan, .infinity, -.infinity] {
            for disc in [
                Disc(centerX: value, centerY: 20, radius: 10), Disc(centerX: 30, centerY: value, radius: 10),
                Disc(centerX: 30, centerY: 20, radius: value),
            ] {
                let map = CoverageMap.drawnByKernel(.disc(disc), width: 64, height: 48)
                #expect(map.values.allSatisfy { $0 == 0 }, "\(disc)")
            }
        }
    }
}

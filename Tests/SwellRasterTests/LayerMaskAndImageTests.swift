import SwellRaster
import Testing

/// The layer mask and image kernels against Double references of the same rules.
@Suite struct LayerMaskAndImageTests {
    static func filled(_ width: Int, _ height: Int, _ random: inout SeededRandom) -> PixelBuffer {
        let buffer = PixelBuffer(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width { buffer.surface.row(y)[x] = UInt32(truncatingIfNeeded: random.next()) | 0xFF00_0000 }
        }
        return buffer
    }

    static func channelMix(_ a: UInt32, _ b: UInt32, _ t: Double) -> [Int] {
        [16, 8, 0].map { shift in
            let x = Double((a >> UInt32(shift)) & 0xFF)
            let y = Double((b >> UInt32(shift)) & 0xFF)
            return Int((x + (y - x) * t).rounded())
        }
    }

    @Test func gradientMaskMixesTowardsWhatWasBelow() {
        var random = SeededRandom(seed: 3)
        let drawn = Self.filled(53, 7, &random)
        let below = Self.filled(53, 7, &random)
        let original = drawn.packedBytes()
        let mask = HorizontalGradientMask(stops: [
            MaskStop(x: 4, alpha: 0), MaskStop(x: 26.5, alpha: 1), MaskStop(x: 49, alpha: 0),
        ])
        let clip = ClipRect(x0: 2, y0: 1, x1: 51, y1: 6)
        applyLayerMask(drawn.surface, below: below.surface, mask, clip: clip)
        for y in 0..<7 {
            for x in 0..<53 {
                let offset = (y * 53 + x) * 4
                let before =
                    UInt32(original[offset]) | UInt32(original[offset + 1]) << 8 | UInt32(original[offset + 2]) << 16
                let after = drawn.surface.pixel(x: x, y: y)
                let inside = x >= 2 && x < 51 && y >= 1 && y < 6
                if !inside {
                    #expect(after & 0xFF_FFFF == before)
                    continue
                }
                let m = mask.alpha(at: Double(x) + 0.5)
                let expected = Self.channelMix(below.surface.pixel(x: x, y: y), before, m)
                let got = [16, 8, 0].map { Int((after >> UInt32($0)) & 0xFF) }
                for c in 0..<3 { #expect(abs(got[c] - expected[c]) <= 1, "(\(x), \(y)) mask \(m)") }
            }
        }
        #expect(mask.alpha(at: 0) == 0 && mask.alpha(at: 26.5) == 1 && abs(mask.alpha(at: 15.25) - 0.5) < 1e-12)
    }

    @Test func gradientMaskWiderThanOneTile() {
        // 1100 columns: the ramp is computed in tiles of 512; every column must follow the stops.
        var random = SeededRandom(seed: 4)
        let drawn = Self.filled(1100, 2, &random)
        let below = Self.filled(1100, 2, &random)
        let original = drawn.packedBytes()
        let mask = HorizontalGradientMask(stops: [
            MaskStop(x: 0, alpha: 0), MaskStop(x: 550, alpha: 1), MaskStop(x: 1100, alpha: 0),
        ])
        applyLayerMask(drawn.surface, below: below.surface, mask, clip: ClipRect(x0: 3, y0: 0, x1: 1100, y1: 2))
        for y in 0..<2 {
            for x in 3..<1100 {
                let offset = (y * 1100 + x) * 4
                let before =
                    UInt32(original[offset]) | UInt32(original[offset + 1]) << 8 | UInt32(original[offset + 2]) << 16
                let expected = Self.channelMix(below.surface.pixel(x: x, y: y), before, mask.alpha(at: Double(x) + 0.5))
                let after = drawn.surface.pixel(x: x, y: y)
                let got = [16, 8, 0].map { Int((after >> UInt32($0)) & 0xFF) }
                for c in 0..<3 { #expect(abs(got[c] - expected[c]) <= 1, "(\(x), \(y))") }
            }
        }
    }

    @Test func imageCompositeAtAlphaAndThroughAPath() {
        var random = SeededRandom(seed: 9)
        let image = Self.filled(37, 9, &random)
        let target = Self.filled(37, 9, &random)
        let before = PixelBuffer(width: 37, height: 9)
        compositeImage(before.surface, target.surface, alpha: 1, clip: before.surface.bounds)
        #expect(before.packedBytes() == target.packedBytes())
        compositeImage(target.surface, image.surface, alpha: 0.3, clip: target.surface.bounds)
        for y in 0..<9 {
            for x in 0..<37 {
                let expected = Self.channelMix(
                    before.surface.pixel(x: x, y: y), image.surface.pixel(x: x, y: y), Double(Float(0.3)))
                let got = [16, 8, 0].map { Int((target.surface.pixel(x: x, y: y) >> UInt32($0)) & 0xFF) }
                for c in 0..<3 { #expect(abs(got[c] - expected[c]) <= 1) }
            }
        }
        // Through a rectangle path with half-pixel edges: inside is the image, edges half mixed.
        let canvas = PixelBuffer(width: 37, height: 9)
        var path = Path()
        path.move(to: 3.5, 2)
        path.line(to: 30.5, 2)
        path.line(to: 30.5, 7)
        path.line(to: 3.5, 7)
        path.close()
        fillPath(canvas.surface, path, painter: ImagePainter(image.surface), clip: canvas.surface.bounds)
        #expect(canvas.surface.pixel(x: 10, y: 4) == image.surface.pixel(x: 10, y: 4))
        #expect(canvas.surface.pixel(x: 2, y: 4) == 0)
        let edge = Self.channelMix(0, image.surface.pixel(x: 3, y: 4), 0.5)
        let got = [16, 8, 0].map { Int((canvas.surface.pixel(x: 3, y: 4) >> UInt32($0)) & 0xFF) }
        for c in 0..<3 { #expect(abs(got[c] - edge[c]) <= 1) }
    }

    @Test func scaleToFillKeepsAspectAndCropsTheOverflow() {
        // A 4x2 image with a left half red and right half blue, filled into 10x10: the height
        // decides the scale (5x), the width overflows and is cropped, so the centre column
        // boundary stays in the middle.
        let image = PixelBuffer(width: 4, height: 2)
        for y in 0..<2 {
            for x in 0..<4 { image.surface.row(y)[x] = x < 2 ? 0xFFFF_0000 : 0xFF00_00FF }
        }
        let out = PixelBuffer(width: 10, height: 10)
        scaleImageToFill(image.surface, into: out.surface)
        #expect(out.surface.pixel(x: 0, y: 5) == 0xFFFF_0000)
        #expect(out.surface.pixel(x: 9, y: 5) == 0xFF00_00FF)
        #expect(out.surface.pixel(x: 1, y: 0) == 0xFFFF_0000)
        // The seam blends red and blue.
        #expect(out.surface.pixel(x: 4, y: 5) & 0xFF != 0 && out.surface.pixel(x: 4, y: 5) >> 16 & 0xFF != 0)
        // A uniform image stays exactly uniform when shrunk.
        let grey = PixelBuffer(width: 64, height: 48)
        for y in 0..<48 { for x in 0..<64 { grey.surface.row(y)[x] = 0xFF80_8080 } }
        let small = PixelBuffer(width: 7, height: 5)
        scaleImageToFill(grey.surface, into: small.surface)
        for y in 0..<5 { for x in 0..<7 { #expect(small.surface.pixel(x: x, y: y) == 0xFF80_8080) } }
    }

    /// Shrinking averages the exact area under each output pixel. Reference: for every output
    /// pixel, the overlap area of its footprint with each source pixel (two-dimensional, in
    /// Double, no taps or separation), over noise so every weight shows.
    @Test(arguments: [(53, 37, 17, 9), (640, 480, 97, 73), (61, 200, 30, 29), (33, 33, 32, 31)])
    func shrinkingAveragesTheExactAreaUnderEachPixel(
        _ sourceWidth: Int, _ sourceHeight: Int, _ width: Int, _ height: Int
    ) {
        let source = PixelBuffer(width: sourceWidth, height: sourceHeight)
        var state: UInt32 = 2_463_534_242
        for y in 0..<sourceHeight {
            for x in 0..<sourceWidth {
                state ^= state << 13
                state ^= state >> 17
                state ^= state << 5
                source.surface.row(y)[x] = 0xFF00_0000 | state & 0xFF_FFFF
            }
        }
        let out = PixelBuffer(width: width, height: height)
        scaleImageToFill(source.surface, into: out.surface)
        let scale = max(Double(width) / Double(sourceWidth), Double(height) / Double(sourceHeight))
        let offsetX = (Double(sourceWidth) * scale - Double(width)) / 2
        let offsetY = (Double(sourceHeight) * scale - Double(height)) / 2
        var largest = 0
        for j in 0..<height {
            for i in 0..<width {
                let x0 = (Double(i) + offsetX) / scale
                let x1 = (Double(i + 1) + offsetX) / scale
                let y0 = (Double(j) + offsetY) / scale
                let y1 = (Double(j + 1) + offsetY) / scale
                var sum = [0.0, 0.0, 0.0]
                var area = 0.0
                for sy in max(0, Int(y0) - 1)..<min(sourceHeight, Int(y1) + 2) {
                    for sx in max(0, Int(x0) - 1)..<min(sourceWidth, Int(x1) + 2) {
                        let w = max(0, min(x1, Double(sx + 1)) - max(x0, Double(sx)))
                        let h = max(0, min(y1, Double(sy + 1)) - max(y0, Double(sy)))
                        let p = source.surface.row(sy)[sx]
                        for (c, shift) in [16, 8, 0].enumerated() {
                            sum[c] += w * h * Double(p >> UInt32(shift) & 0xFF)
                        }
                        area += w * h
                    }
                }
                let got = out.surface.row(j)[i]
                #expect(got >> 24 == 0xFF)
                for (c, shift) in [16, 8, 0].enumerated() {
                    largest = max(largest, abs(Int(got >> UInt32(shift) & 0xFF) - Int((sum[c] / area).rounded())))
                }
            }
        }
        #expect(largest <= 1, "largest channel difference \(largest) from the exact area average")
    }

    /// Fitting shows the whole picture, centred, with bars of the background colour: the bars are
    /// exact, and the picture's rectangle holds what filling a buffer of its size gives.
    @Test(arguments: [(40, 20, 64, 48, 0, 8, 64, 32), (20, 40, 64, 48, 20, 0, 24, 48), (64, 48, 64, 48, 0, 0, 64, 48)])
    func fitShowsTheWholePictureBetweenBars(
        _ sw: Int, _ sh: Int, _ dw: Int, _ dh: Int, _ left: Int, _ top: Int, _ width: Int, _ height: Int
    ) {
        let picture = PixelBuffer(width: sw, height: sh)
        for y in 0..<sh {
            for x in 0..<sw {
                picture.surface.row(y)[x] = 0xFF00_0000 | UInt32(x * 6) << 16 | UInt32(y * 6) << 8 | 0x40
            }
        }
        let out = PixelBuffer(width: dw, height: dh)
        scaleImageToFit(picture.surface, into: out.surface, background: 0xFF12_3456)
        let alone = PixelBuffer(width: width, height: height)
        scaleImageToFill(picture.surface, into: alone.surface)
        for y in 0..<dh {
            for x in 0..<dw {
                let inside = (left..<left + width).contains(x) && (top..<top + height).contains(y)
                let expected = inside ? alone.surface.row(y - top)[x - left] : 0xFF12_3456
                #expect(out.surface.row(y)[x] == expected, "(\(x), \(y))")
            }
        }
    }
}

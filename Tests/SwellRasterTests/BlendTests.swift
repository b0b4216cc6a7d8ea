import SwellRaster
import Testing

/// The compositing rule: out = round(dst + (src − dst) · alpha) in sRGB, per channel.
@Suite struct BlendTests {
    @Test func vectorBlendMatchesDoubleReferenceOnEveryDestinationByte() {
        var random = SeededRandom(seed: 7)
        for _ in 0..<200 {
            let color = Color(r: random.uniform(0...1), g: random.uniform(0...1), b: random.uniform(0...1))
            let source = SourceColor(color)
            let alphaValue = random.uniform(0...1)
            for base in stride(from: 0, to: 256, by: 16) {
                var destination = PixelVector(repeating: 0)
                for lane in 0..<16 {
                    let v = UInt32(base + lane)
                    destination[lane] = v << 16 | (255 - v) << 8 | (v * 7 & 0xFF)
                }
                let out = blend(destination, source, alpha: LaneFloats(repeating: Float(alphaValue)))
                for lane in 0..<16 {
                    let d = destination[lane]
                    for (shift, channel) in [(16, color.r), (8, color.g), (0, color.b)] {
                        let expected = referenceComposite(
                            destination: (d >> UInt32(shift)) & 0xFF, source: channel, alpha: Double(Float(alphaValue)))
                        let got = (out[lane] >> UInt32(shift)) & 0xFF
                        // Float rounding may flip an exact .5 tie; nothing else may differ.
                        #expect(abs(Int(got) - Int(expected)) <= 1)
                    }
                    #expect(out[lane] >> 24 == 0xFF)
                    #expect(out[lane] == blendPixel(d, source, alpha: Float(alphaValue)))
                }
            }
        }
    }

    @Test func opaqueFullCoverageSpanWritesTheRoundedColour() {
        let buffer = PixelBuffer(width: 40, height: 1)
        let color = Color(r: 0.2, g: 0.4, b: 0.6)
        blendSpan(buffer.surface.row(0), from: 3, to: 37, SourceColor(color), alpha: 1)
        #expect(buffer.surface.pixel(x: 2, y: 0) == 0)
        #expect(buffer.surface.pixel(x: 3, y: 0) == 0xFF33_6699)
        #expect(buffer.surface.pixel(x: 36, y: 0) == 0xFF33_6699)
        #expect(buffer.surface.pixel(x: 37, y: 0) == 0)
    }

    @Test func spansAndPartialVectorsTouchOnlyTheirPixels() {
        let buffer = PixelBuffer(width: 50, height: 1)
        let row = buffer.surface.row(0)
        for x in 0..<50 { row[x] = 0x1234_5678 }
        blendSpan(row, from: 5, to: 26, SourceColor(.white), alpha: 0.5)
        blendLanes(row, at: 30, count: 3, SourceColor(.black), alpha: LaneFloats(repeating: 1))
        for x in 0..<50 {
            let inside = (5..<26).contains(x) || (30..<33).contains(x)
            #expect((row[x] == 0x1234_5678) == !inside, "pixel \(x)")
        }
    }
}

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

/// The two named precisions (`BlendPrecision`): each against the exact Double blend, against
/// each other, and the rule that says which op uses which.
@Suite struct BlendPrecisionTests {
    /// The exact d + (s − d)·α of one channel (s in 0...255), before rounding.
    static func exact(_ d: UInt32, _ s: Float, _ alpha: Float) -> Double {
        Double(d) + (Double(s) - Double(d)) * Double(alpha)
    }

    /// How far `value` lies from the nearest tie (k + ½).
    static func distanceFromTie(_ value: Double) -> Double {
        abs(value - value.rounded(.down) - 0.5)
    }

    /// Calls `body` with random colours and alphas (including 0, 1 and tiny ones) over every
    /// destination byte in each channel.
    static func forEachCase(_ body: (SourceColor, Float, UInt32) -> Void) {
        var random = SeededRandom(seed: 18)
        for index in 0..<300 {
            let color = Color(r: random.uniform(0...1), g: random.uniform(0...1), b: random.uniform(0...1))
            let alpha: Float = index % 4 == 0 ? [0, 1, 1e-6][index / 4 % 3] : Float(random.uniform(0...1))
            let source = SourceColor(color)
            for v in UInt32(0)...255 {
                body(source, alpha, v << 16 | (255 - v) << 8 | (v &* 7 & 0xFF))
            }
        }
    }

    static func channels(_ pixel: UInt32) -> [UInt32] { [(pixel >> 16) & 0xFF, (pixel >> 8) & 0xFF, pixel & 0xFF] }

    @Test(arguments: [BlendPrecision.float, .fixed16])
    func eachPrecisionIsTheRoundedExactBlendAwayFromTies(precision: BlendPrecision) {
        var nearTies = 0
        var checked = 0
        Self.forEachCase { source, alpha, destination in
            let out = precision.blend(destination, source, alpha: alpha)
            #expect(out >> 24 == 0xFF)
            let sources = [source.red, source.green, source.blue]
            for (index, (d, got)) in zip(Self.channels(destination), Self.channels(out)).enumerated() {
                let value = Self.exact(d, sources[index], alpha)
                checked += 1
                if Self.distanceFromTie(value) < 0.01 {
                    nearTies += 1
                    #expect(abs(Double(got) - value) <= 0.51, "\(precision) d \(d) α \(alpha): \(got) for \(value)")
                } else {
                    #expect(Double(got) == value.rounded(), "\(precision) d \(d) α \(alpha): \(got) for \(value)")
                }
            }
        }
        #expect(checked > 200_000 && nearTies > 0)
    }

    @Test func theTwoPrecisionsDifferOnlyNearTiesAndByOne() {
        var differing = 0
        Self.forEachCase { source, alpha, destination in
            let a = BlendPrecision.float.blend(destination, source, alpha: alpha)
            let b = BlendPrecision.fixed16.blend(destination, source, alpha: alpha)
            let sources = [source.red, source.green, source.blue]
            for (index, (x, y)) in zip(Self.channels(a), Self.channels(b)).enumerated() where x != y {
                differing += 1
                let value = Self.exact(Self.channels(destination)[index], sources[index], alpha)
                #expect(
                    abs(Int(x) - Int(y)) == 1 && Self.distanceFromTie(value) < 0.01,
                    "α \(alpha): \(x) vs \(y) for \(value)")
            }
        }
        // The precisions are not the same function: they part at exact ties (even vs up).
        #expect(differing > 0)
    }

    /// The fixed16 coverage form (per-lane α, as the wave kernels' edge pixels use) agrees with
    /// its constant-alpha form within the same bound.
    @Test func fixed16CoverageLanesAgreeWithTheConstantForm() {
        var random = SeededRandom(seed: 19)
        let buffer = PixelBuffer(width: 16, height: 1)
        let row = buffer.surface.row(0)
        for _ in 0..<2000 {
            let source = SourceColor(
                Color(
                    r: random.uniform(0...1), g: random.uniform(0...1), b: random.uniform(0...1),
                    a: random.uniform(0...1)))
            var coverage = LaneFloats(repeating: 0)
            var before = [UInt32](repeating: 0, count: 16)
            for lane in 0..<16 {
                coverage[lane] = Float(random.uniform(0...1))
                before[lane] = UInt32(random.uniform(0...16_777_215))
                row[lane] = before[lane]
            }
            WaveBlender(source).coverageLanes(row, group: 0, lanes: 0..<16, coverage: coverage)
            for lane in 0..<16 {
                let alpha = coverage[lane] * source.alpha
                let constant = BlendPrecision.fixed16.blend(before[lane], source, alpha: alpha)
                let sources = [source.red, source.green, source.blue]
                for (index, (x, y)) in zip(Self.channels(row[lane]), Self.channels(constant)).enumerated() where x != y
                {
                    let value = Self.exact(Self.channels(before[lane])[index], sources[index], alpha)
                    #expect(
                        abs(Int(x) - Int(y)) == 1 && Self.distanceFromTie(value) < 0.01, "\(x) vs \(y) for \(value)")
                }
            }
        }
    }

    /// The rule: every shape's fully covered pixels are its precision's constant-alpha blend.
    @Test func eachShapeBlendsInItsPrecision() {
        let width = 64
        let height = 64
        var path = Path()
        path.move(to: 2, 2)
        path.line(to: 62, 2)
        path.line(to: 62, 62)
        path.line(to: 2, 62)
        path.close()
        let shapes: [Shape] = [
            .ring(Ring(centerX: 32, centerY: 32, radius: 12, width: 10)),
            .disc(Disc(centerX: 32, centerY: 32, radius: 25)),
            .waveFill(Wave(baseline: 10, amplitude: 3, wavelength: 50, phase: 0)),
            .waveStroke(
                WaveStroke(
                    wave: Wave(baseline: 32, amplitude: 2, wavelength: 200, phase: 0), envelope: .none, width: 40,
                    length: 64)),
            .path(path),
        ]
        var random = SeededRandom(seed: 20)
        for shape in shapes {
            for index in 0..<100 {
                // The first case is an exact tie, 1 + (0 − 1)·½ = ½, where the precisions part
                // (float rounds to even, 0; fixed16 up, 1), so the rule is always put to the test.
                let tie = index == 0
                let color =
                    tie
                    ? Color(r: 0, g: 0, b: 0, a: 0.5)
                    : Color(
                        r: random.uniform(0...1), g: random.uniform(0...1), b: random.uniform(0...1),
                        a: random.uniform(0.01...0.99))
                let background = tie ? 0xFF01_0101 : UInt32(random.uniform(0...16_777_215)) | 0xFF00_0000
                let buffer = PixelBuffer(width: width, height: height)
                for y in 0..<height { buffer.surface.row(y).update(repeating: background, count: width) }
                draw(DrawCommand(shape, color: color), on: buffer.surface, within: buffer.surface.bounds)
                let source = SourceColor(color)
                let want = BlendPrecision.of(shape).blend(background, source, alpha: source.alpha)
                // (32, 44) lies inside every shape above, well away from its edges.
                #expect(buffer.surface.pixel(x: 32, y: 44) == want, "\(shape) \(color)")
            }
        }
        #expect(BlendPrecision.of(shapes[2]) == .fixed16 && BlendPrecision.of(shapes[0]) == .lowp)
        let tie = SourceColor(Color(r: 0, g: 0, b: 0, a: 0.5))
        #expect(BlendPrecision.float.blend(0xFF01_0101, tie, alpha: 0.5) == 0xFF00_0000)
        #expect(BlendPrecision.fixed16.blend(0xFF01_0101, tie, alpha: 0.5) == 0xFF01_0101)
    }
}

/// The glyph compositor's blends through `fillGlyphs`: a 256x256 mask whose column x has coverage
/// x over rows whose destination byte is the row number, so every (coverage, destination) pair is
/// blended once per colour. Translucent colours take `blendGlyph` (float, one rounding instead of
/// `blend`'s two); opaque ones `ExactGlyphBlend`, correctly rounded towards the colour's opaque
/// pixel (its channels rounded to bytes).
@Suite struct GlyphBlendTests {
    /// Composites the mask at x = 0 on a surface `width` pixels wide (narrower than 256: clipped,
    /// and the row's last vector then runs past the surface's end and is blended pixel by pixel).
    func composite(_ source: SourceColor, width: Int) -> PixelBuffer {
        let mask = CoverageMask(width: 256, height: 256)
        for y in 0..<256 {
            for x in 0..<256 { mask.bytes[y * mask.stride + x] = UInt8(x) }
        }
        var run = GlyphRun()
        run.append(mask, x: 0, y: 0)
        let buffer = PixelBuffer(width: width, height: 256)
        for y in 0..<256 {
            let d = UInt32(y)
            for x in 0..<width { buffer.surface.row(y)[x] = 0xFF00_0000 | d << 16 | (255 - d) << 8 | (d * 7 & 0xFF) }
        }
        fillGlyphs(buffer.surface, run, source, clip: ClipRect(x0: 0, y0: 0, x1: width, y1: 256))
        return buffer
    }

    @Test func everyCoverageAndDestinationIsCorrectlyRoundedOnBothPaths() {
        // text-page's ink colours (0.1 · 255 = 25.5 is a tie at full coverage), translucent ones,
        // and colours whose channels are whole bytes.
        let colors = [
            Color(r: 0.1, g: 0.12, b: 0.2), Color(r: 0.75, g: 0.2, b: 0.1), Color(r: 0.05, g: 0.08, b: 0.15, a: 0.92),
            Color(r: 1, g: 1, b: 1, a: 0.9), Color(r: 0.2, g: 0.5, b: 1, a: 0.35), Color(r: 0, g: 0, b: 0),
            Color(r: 128.0 / 255, g: 1, b: 3.0 / 255, a: 0.5),
        ]
        var nearTies = 0
        var channels = 0
        for color in colors {
            let source = SourceColor(color)
            let wide = composite(source, width: 256)
            // 250 columns: vectors start at 0, 16, …, 240, and 240 + 16 > 250.
            let narrow = composite(source, width: 250)
            for y in 0..<256 {
                for x in 0..<256 {
                    let got = wide.surface.row(y)[x]
                    if x < 250 { #expect(narrow.surface.row(y)[x] == got, "scalar edge at x \(x), y \(y)") }
                    let opaque = source.alpha == 1
                    let alpha = opaque ? Double(x) / 255 : Double(Float(x) * (source.alpha / 255))
                    let d = UInt32(y)
                    let ink = source.opaquePixel
                    let pixelChannels: [(UInt32, Double)] = [
                        (d, opaque ? Double(ink >> 16 & 0xFF) : Double(source.red)),
                        (255 - d, opaque ? Double(ink >> 8 & 0xFF) : Double(source.green)),
                        (d * 7 & 0xFF, opaque ? Double(ink & 0xFF) : Double(source.blue)),
                    ]
                    for (index, (old, s)) in pixelChannels.enumerated() {
                        channels += 1
                        let exact = Double(old) + (s - Double(old)) * alpha
                        let byte = got >> UInt32(16 - 8 * index) & 0xFF
                        // Float's error is far below 1e-4: only a value that close to a half may
                        // round either way.
                        if abs(exact - exact.rounded(.down) - 0.5) < 1e-4 {
                            nearTies += 1
                            #expect(abs(Double(byte) - exact) <= 0.5 + 1e-4)
                        } else {
                            #expect(Double(byte) == exact.rounded(), "c \(x) d \(old) s \(s): \(byte), exact \(exact)")
                        }
                    }
                    #expect(got >> 24 == 0xFF)
                }
            }
        }
        // Exact halves are common (s = 25.5 at full coverage, s = 128 at α = c/510): the exemption
        // must stay a small part of the check.
        #expect(nearTies * 100 < channels, "\(nearTies) of \(channels) channels within 1e-4 of a half")
    }
}

import SwellRaster
import Testing

/// The integer glyph blend of opaque colours (`ExactGlyphBlend`) against the float one
/// (`FloatGlyphBlend`, `blendGlyph`'s arithmetic): for whole-byte colours the same bytes, for
/// others the rounded colour's correctly rounded blend, within a level of the float one.
@Suite struct GlyphExactBlendTests {
    /// An opaque colour whose channels are the bytes (s, s + 37, s + 101): each channel takes
    /// every byte value as s runs over 0...255.
    func source(_ s: UInt32) -> SourceColor {
        SourceColor(
            Color(
                r: Double(s) / 255, g: Double((s + 37) & 0xFF) / 255, b: Double((s + 101) & 0xFF) / 255))
    }

    /// Channels (d, d + 85, d + 170): each channel takes every byte as d runs over 0...255.
    func destination(_ d: UInt32) -> UInt32 {
        0xFF00_0000 | d << 16 | ((d + 85) & 0xFF) << 8 | ((d + 170) & 0xFF)
    }

    @Test func everyDestinationSourceAndCoverageGivesTheFloatBlendsBytes() throws {
        var mismatches = 0
        var first = ""
        for s in UInt32(0)...255 {
            let colour = source(s)
            let exact = try #require(ExactGlyphBlend(colour), "s \(s) is a whole byte")
            let float = FloatGlyphBlend(colour)
            for d in UInt32(0)...255 {
                let old = destination(d)
                for m in UInt8(0)...255 {
                    let want = float.blendPixel(old, coverage: m)
                    let got = exact.blendPixel(old, coverage: m)
                    if got != want {
                        mismatches += 1
                        if first.isEmpty { first = "s \(s) d \(d) m \(m): \(got) instead of \(want)" }
                    }
                }
            }
        }
        #expect(mismatches == 0, "\(mismatches) of 256³ blends differ, first \(first)")
    }

    /// The 16- and 8-lane forms agree with the one-pixel form lane for lane, on random
    /// destinations (any X byte) and coverages, for every whole-byte source.
    @Test func vectorFormsMatchThePixelForm() throws {
        var random = SeededRandom(seed: 19)
        for s in UInt32(0)...255 {
            let exact = try #require(ExactGlyphBlend(source(s)))
            for _ in 0..<64 {
                var old = PixelVector()
                var coverage = PixelVector()
                for i in 0..<16 {
                    old[i] = UInt32(truncatingIfNeeded: random.next())
                    coverage[i] = UInt32(random.next() & 0xFF)
                }
                let wide = exact.blend(old, coverage: coverage)
                let narrow = exact.blend(old.lowHalf, coverage: coverage.lowHalf)
                for i in 0..<16 {
                    let want = exact.blendPixel(old[i], coverage: UInt8(coverage[i]))
                    #expect(wide[i] == want, "16 lanes, s \(s), lane \(i)")
                    if i < 8 { #expect(narrow[i] == want, "8 lanes, s \(s), lane \(i)") }
                }
            }
        }
    }

    /// Every opaque colour takes the integer blend, translucent ones keep the float blend.
    @Test func opaqueColoursTakeTheIntegerBlend() {
        #expect(ExactGlyphBlend(SourceColor(Color(r: 28.0 / 255, g: 1, b: 0))) != nil)
        #expect(ExactGlyphBlend(SourceColor(Color(r: 0.1, g: 0.12, b: 0.2))) != nil)  // 25.5
        #expect(ExactGlyphBlend(SourceColor(Color(r: 1, g: 1, b: 1, a: 0.9))) == nil)
    }

    /// A colour whose channels have fractions (text-page's 0.1 · 255 = 25.5, 0.75 · 255 = 191.25,
    /// and others) blends as its opaque pixel: correctly rounded towards the rounded colour, so
    /// within 0.5 + 0.5·m/255 of the exact blend towards the real one, and within one level of
    /// the float blend. Coverage 255 gives the opaque pixel itself.
    @Test func fractionalColoursBlendAsTheirOpaquePixel() throws {
        var worst = 0.0
        var differing = 0
        var failures: [String] = []
        for k in stride(from: 0, to: 255, by: 3) {
            for fraction in [0.1, 0.25, 0.5, 0.75, 0.9] {
                let s = Double(k) + fraction
                let colour = SourceColor(Color(r: s / 255, g: (255 - s) / 255, b: s / 255))
                let exact = try #require(ExactGlyphBlend(colour))
                let float = FloatGlyphBlend(colour)
                let rounded = colour.opaquePixel
                let real = [Double(colour.red), Double(colour.green), Double(colour.blue)]
                for d in UInt32(0)...255 {
                    let old = 0xFF00_0000 | d << 16 | (255 - d) << 8 | d
                    for m in UInt8(0)...255 {
                        let got = exact.blendPixel(old, coverage: m)
                        let floatPixel = float.blendPixel(old, coverage: m)
                        if floatPixel != got { differing += 1 }
                        let alpha = Double(m) / 255
                        for (index, shift) in [UInt32(16), 8, 0].enumerated() {
                            let byte = Double(got >> shift & 0xFF)
                            let was = Double(old >> shift & 0xFF)
                            let ink = Double(rounded >> shift & 0xFF)
                            let error = abs(byte - (was + (real[index] - was) * alpha))
                            worst = max(worst, error)
                            let floatByte = Double(floatPixel >> shift & 0xFF)
                            if byte != (was + (ink - was) * alpha).rounded() || error > 0.5 + 0.5 * alpha + 1e-9
                                || abs(byte - floatByte) > 1 || (m == 255 && got != rounded)
                            {
                                failures.append("s \(s) d \(d) m \(m) channel \(index): \(byte), float \(floatByte)")
                            }
                        }
                    }
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.count) channels, first \(failures.prefix(3))")
        #expect(worst > 0.5 && differing > 0, "the fractions must change some bytes: worst \(worst)")
    }

    /// Coverage 0 gives the destination back in all four bytes, X included, on every path (the
    /// compositor stores the blend without a select); coverage 255 gives X 0xFF.
    @Test func zeroCoverageKeepsTheDestinationExactly() throws {
        var random = SeededRandom(seed: 23)
        for s in UInt32(0)...255 {
            let exact = try #require(ExactGlyphBlend(source(s)))
            for _ in 0..<16 {
                var old = PixelVector()
                for i in 0..<16 { old[i] = UInt32(truncatingIfNeeded: random.next()) }
                #expect(exact.blend(old, coverage: PixelVector()) == old)
                #expect(exact.blend(old.lowHalf, coverage: SIMD8()) == old.lowHalf)
                #expect(exact.blendPixel(old[0], coverage: 0) == old[0])
                #expect(exact.blendPixel(old[0], coverage: 255) >> 24 == 0xFF)
            }
        }
    }

    /// Through `fillGlyphs`: glyphs 1 to 40 px wide (the 8-lane, 16-lane and per-pixel paths,
    /// clipped and not) in a whole-byte colour give, pixel for pixel, the float blend of the
    /// destination by the mask's coverage.
    @Test func fillGlyphsInAWholeByteColourGivesTheFloatBlend() {
        var random = SeededRandom(seed: 7)
        let colour = Color(r: 200.0 / 255, g: 17.0 / 255, b: 99.0 / 255)
        let float = FloatGlyphBlend(SourceColor(colour))
        let width = 61
        let height = 24
        for glyphWidth in 1...40 {
            let mask = CoverageMask(width: glyphWidth, height: 20)
            for y in 0..<20 {
                for x in 0..<glyphWidth { mask.bytes[y * mask.stride + x] = UInt8(random.next() & 0xFF) }
            }
            var run = GlyphRun()
            let gx = Int(random.next() % 40)
            run.append(mask, x: gx, y: 2)
            let buffer = PixelBuffer(width: width, height: height)
            let clip = ClipRect(x0: 0, y0: 0, x1: glyphWidth % 3 == 0 ? gx + glyphWidth / 2 : width, y1: height)
            func coverage(_ x: Int, _ y: Int) -> UInt8 {
                let inside = x >= gx && x < gx + glyphWidth && y >= 2 && y < 22 && x < clip.x1
                return inside ? mask.bytes[(y - 2) * mask.stride + x - gx] : 0
            }
            // Pixels left alone have any X byte, and must keep it.
            var before: [UInt32] = []
            for y in 0..<height {
                for x in 0..<width {
                    let bits = UInt32(truncatingIfNeeded: random.next())
                    let pixel = coverage(x, y) == 0 ? bits : 0xFF00_0000 | bits & 0xFF_FFFF
                    buffer.surface.row(y)[x] = pixel
                    before.append(pixel)
                }
            }
            fillGlyphs(buffer.surface, run, SourceColor(colour), clip: clip)
            for y in 0..<height {
                for x in 0..<width {
                    let m = coverage(x, y)
                    let old = before[y * width + x]
                    let want = m == 0 ? old : float.blendPixel(old, coverage: m)
                    #expect(buffer.surface.row(y)[x] == want, "glyph width \(glyphWidth), pixel (\(x), \(y))")
                }
            }
        }
    }
}

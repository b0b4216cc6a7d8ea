import CFreeType
import SwellRaster
import SwellText
import Testing

/// Glyph masks against an independent reference: each glyph's outline read here straight from
/// FreeType (unscaled, its own decomposition), scaled in Double at the same quarter-pixel origin
/// Swell quantises to, and filled by `referencePathCoverage` (exact quadratics, no flattening,
/// 256 sub-rows per pixel: error < 1/256). Bounds from issue 19: at most 0.05 on any pixel and
/// 0.01 on average over the edge pixels (0 < reference < 1).
struct GlyphAccuracyTests {
    static let fonts = [
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf",
        "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
    ]
    static let letters = Array("AaBbCcdeEfgGhijkKlmMnopQRrSstTuvWwxyz0123456789@&%$?!ß(){}ÆøÅ—’")

    /// The outline of `glyph` scaled to `size` with its origin at (ox, oy), y down, as a Path.
    final class ReferenceOutline {
        var path = Path()
        var scale = 1.0
        var ox = 0.0
        var oy = 0.0

        func point(_ v: UnsafePointer<FT_Vector>?) -> (Double, Double) {
            (ox + Double(v!.pointee.x) * scale, oy - Double(v!.pointee.y) * scale)
        }

        func load(_ face: FT_Face, _ glyph: UInt32, size: Double, ox: Double, oy: Double) -> Path {
            path = Path()
            scale = size / Double(face.pointee.units_per_EM)
            self.ox = ox
            self.oy = oy
            guard FT_Load_Glyph(face, glyph, Int32(FT_LOAD_NO_SCALE)) == 0 else { return path }
            var funcs = FT_Outline_Funcs(
                move_to: { to, user in
                    let r = Unmanaged<ReferenceOutline>.fromOpaque(user!).takeUnretainedValue()
                    let p = r.point(to)
                    r.path.close()
                    r.path.move(to: p.0, p.1)
                    return 0
                },
                line_to: { to, user in
                    let r = Unmanaged<ReferenceOutline>.fromOpaque(user!).takeUnretainedValue()
                    let p = r.point(to)
                    r.path.line(to: p.0, p.1)
                    return 0
                },
                conic_to: { c, to, user in
                    let r = Unmanaged<ReferenceOutline>.fromOpaque(user!).takeUnretainedValue()
                    let a = r.point(c)
                    let p = r.point(to)
                    r.path.quad(control: a.0, a.1, to: p.0, p.1)
                    return 0
                },
                cubic_to: { _, _, _, _ in 1 },  // TrueType fonts only here
                shift: 0, delta: 0)
            _ = FT_Outline_Decompose(
                &face.pointee.glyph.pointee.outline, &funcs, Unmanaged.passUnretained(self).toOpaque())
            path.close()
            return path
        }
    }

    @Test func randomStringsMeetTheCoverageBounds() throws {
        var library: FT_Library?
        FT_Init_FreeType(&library)
        defer { FT_Done_FreeType(library) }
        let setter = Typesetter()
        let outline = ReferenceOutline()
        var random = SeededRandom(seed: 19)
        var worst = 0.0
        var edgeSum = 0.0
        var edgeCount = 0
        var glyphsChecked = 0
        for trial in 0..<200 {
            let file = Self.fonts[trial % Self.fonts.count]
            var face: FT_Face?
            #expect(FT_New_Face(library, file, 0, &face) == 0)
            defer { FT_Done_Face(face) }
            let font = try setter.fonts.font(file: file)
            // Sizes log-uniform in 6...300 px, skewed to the small sizes text mostly has.
            let size = 6 * pow50(random.uniform(0...1))
            let length = size > 100 ? 1 : Int.random(in: 1...4, using: &random)
            let text = String((0..<length).map { _ in Self.letters.randomElement(using: &random)! })
            let x = random.uniform(0...4)
            let y = size * 1.3 + random.uniform(0...4)
            let run = try setter.run(text, font: font, size: size, x: x, y: y)
            let line = setter.shape(text, font: font)
            #expect(run.glyphs.count == line.glyphs.count, "\(text) at \(size)")
            for (shaped, placed) in zip(line.glyphs, run.glyphs) {
                let ox = ((x + shaped.x * size) * 4).rounded() / 4
                let oy = ((y - shaped.y * size) * 4).rounded() / 4
                // The reference over the mask's box grown by a pixel on every side.
                let left = Int(placed.x) - 1
                let top = Int(placed.y) - 1
                let width = Int(placed.width) + 2
                let height = Int(placed.height) + 2
                let path = outline.load(face!, shaped.glyph, size: size, ox: ox - Double(left), oy: oy - Double(top))
                let reference = referencePathCoverage(path, width: width, height: height)
                for j in 0..<height {
                    for i in 0..<width {
                        let mx = i - 1
                        let my = j - 1
                        let inside = mx >= 0 && my >= 0 && mx < Int(placed.width) && my < Int(placed.height)
                        let swell = inside ? Double(placed.coverage[my * Int(placed.stride) + mx]) / 255 : 0
                        let exact = reference.values[j * width + i]
                        let error = abs(swell - exact)
                        worst = max(worst, error)
                        if exact > 1e-9 && exact < 1 - 1e-9 {
                            edgeSum += error
                            edgeCount += 1
                        }
                        if error > 0.05 {
                            Issue.record("\(text) \(file) at \(size) px: pixel (\(mx), \(my)) \(swell) vs \(exact)")
                            return
                        }
                    }
                }
                glyphsChecked += 1
            }
        }
        print(
            "glyph masks: \(glyphsChecked) glyphs, worst pixel error \(worst), mean over \(edgeCount) edge pixels \(edgeSum / Double(max(edgeCount, 1)))"
        )
        #expect(glyphsChecked > 300)
        #expect(worst <= 0.05)
        #expect(edgeSum / Double(max(edgeCount, 1)) <= 0.01, "mean edge error \(edgeSum / Double(edgeCount))")
    }
}

/// 50^u without Foundation.
private func pow50(_ u: Double) -> Double {
    var result = 1.0
    var base = 50.0
    var exponent = u
    // exp(u·ln 50) by repeated square roots: fine for a test's size spread.
    for _ in 0..<40 {
        base = base.squareRoot()
        exponent *= 2
        if exponent >= 1 {
            result *= base
            exponent -= 1
        }
    }
    return result
}

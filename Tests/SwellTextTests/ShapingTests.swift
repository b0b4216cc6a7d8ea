import Glibc
import SwellRaster
import SwellText
import Testing

/// Swell's shaping against HarfBuzz's own command-line shaper (`hb-shape` from Debian's
/// libharfbuzz-bin): the same font, text, direction and features must give the same glyph ids
/// and the same positions (font units: hb-shape's default scale is the font's em).
struct ShapingTests {
    static let dejavu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    static let noto = "/usr/share/fonts/truetype/noto/"

    /// (glyph, x, y) in font units, left to right, from hb-shape's `[gid=cluster@dx,dy+advance|…]`.
    static func hbShape(_ font: String, _ text: String, direction: String? = nil, features: String? = nil) throws
        -> [(glyph: UInt32, x: Int, y: Int)]
    {
        try hbShapeWithAdvance(font, text, direction: direction, features: features).glyphs
    }

    static func hbShapeWithAdvance(_ font: String, _ text: String, direction: String? = nil, features: String? = nil)
        throws -> (glyphs: [(glyph: UInt32, x: Int, y: Int)], advance: Int)
    {
        var command = "hb-shape --no-glyph-names"
        if let direction { command += " --direction=\(direction)" }
        if let features { command += " --features=\(features)" }
        command += " '\(font)' '\(text)'"
        guard let pipe = popen(command, "r") else { throw ShapeCommandError(command: command) }
        var output = ""
        var buffer = [CChar](repeating: 0, count: 4096)
        while fgets(&buffer, 4096, pipe) != nil {
            output += String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        guard pclose(pipe) == 0 else { throw ShapeCommandError(command: command) }
        var glyphs: [(UInt32, Int, Int)] = []
        var pen = 0
        let body = output.trimmingCharacters(in: "[]\n")
        for item in body.split(separator: "|") {
            // gid=cluster[@dx,dy]+advance
            let gid = UInt32(item.prefix { $0 != "=" })!
            var dx = 0
            var dy = 0
            if let at = item.firstIndex(of: "@") {
                let offsets = item[item.index(after: at)..<item.lastIndex(of: "+")!].split(separator: ",")
                dx = Int(offsets[0])!
                dy = Int(offsets[1])!
            }
            let advance = Int(item[item.index(after: item.lastIndex(of: "+")!)...])!
            glyphs.append((gid, pen + dx, dy))
            pen += advance
        }
        return (glyphs, pen)
    }

    static func swellShape(_ file: String, _ text: String, features: [String] = []) throws
        -> [(glyph: UInt32, x: Int, y: Int)]
    {
        let setter = Typesetter()
        let font = try setter.fonts.font(file: file)
        let line = setter.shape(text, font: font, features: try TextFeatures(features))
        return line.glyphs.map { g in
            (g.glyph, Int((g.x * g.font.unitsPerEm).rounded()), Int((g.y * g.font.unitsPerEm).rounded()))
        }
    }

    static func expectSame(
        _ a: [(glyph: UInt32, x: Int, y: Int)], _ b: [(glyph: UInt32, x: Int, y: Int)], _ label: String
    ) {
        #expect(a.count == b.count, "\(label): \(a.count) glyphs, hb-shape \(b.count)")
        for (i, (s, h)) in zip(a, b).enumerated() {
            #expect(s.glyph == h.glyph && s.x == h.x && s.y == h.y, "\(label) glyph \(i): Swell \(s), hb-shape \(h)")
        }
    }

    @Test(arguments: [
        (dejavu, "AVATAR office", nil as String?),
        (dejavu, "Wave fi ffl 12:30", "tnum"),
        (noto + "NotoSansArabic-Regular.ttf", "مرحبا بالعالم", nil),
        (noto + "NotoSansHebrew-Regular.ttf", "שָׁלוֹם עולם", nil),
        (noto + "NotoSansDevanagari-Regular.ttf", "क्षत्रिय हिन्दी", nil),
    ])
    func singleScriptLinesMatchHBShape(font: String, text: String, features: String?) throws {
        let swell = try Self.swellShape(font, text, features: features.map { [$0] } ?? [])
        let hb = try Self.hbShape(font, text, features: features)
        #expect(swell.count > 0)
        Self.expectSame(swell, hb, text)
    }

    /// Arabic joins: the contextual forms differ from the isolated glyphs of the same letters.
    @Test func arabicLettersJoin() throws {
        let font = Self.noto + "NotoSansArabic-Regular.ttf"
        let joined = try Self.swellShape(font, "بب").map(\.glyph)
        let isolated = try Self.swellShape(font, "ب").map(\.glyph)
        #expect(joined.count == 2 && !joined.contains(isolated[0]))
    }

    /// A line mixing directions: FriBiDi cuts it into "Price ", "שלום" (right to left) and
    /// " today"; each run must be what hb-shape gives for it alone, placed left to right.
    @Test func mixedDirectionLineIsOrderedByRuns() throws {
        let font = Self.dejavu  // it has both Latin and Hebrew, so no fallback font joins in
        let swell = try Self.swellShape(font, "Price שלום today")
        var expected: [(glyph: UInt32, x: Int, y: Int)] = []
        var pen = 0
        for (text, direction) in [("Price ", "ltr"), ("שלום", "rtl"), (" today", "ltr")] {
            let run = try Self.hbShapeWithAdvance(font, text, direction: direction)
            expected += run.glyphs.map { ($0.glyph, $0.x + pen, $0.y) }
            pen += run.advance
        }
        Self.expectSame(swell, expected, "mixed line")
        // The Hebrew run comes out reversed: its glyphs are in visual order.
        let hebrew = try Self.hbShape(font, "שלום", direction: "rtl").map(\.glyph)
        #expect(Array(swell[6..<10].map(\.glyph)) == hebrew)
    }

    /// A character the font lacks comes from a fallback font; one no font has is the .notdef glyph.
    @Test func fallbackFontsAndNotdef() throws {
        let setter = Typesetter()
        let font = try setter.fonts.font(file: Self.dejavu)
        let line = setter.shape("aक", font: font)
        #expect(line.glyphs.count == 2)
        #expect(line.glyphs[0].font === font)
        #expect(line.glyphs[1].font !== font && line.glyphs[1].glyph != 0, "Devanagari from a fallback font")
        let missing = setter.shape("a\u{10FFFD}", font: font)
        #expect(missing.glyphs.last!.glyph == 0 && missing.glyphs.last!.font === font)
        let run = try setter.run("a\u{10FFFD}", font: font, size: 20, x: 0, y: 20)
        #expect(run.glyphs.count == 2, "the .notdef box is drawn")
    }

    /// `tnum` in a font without the feature (Quicksand has none): digits still take equal cells,
    /// so a changing counter keeps its width; in DejaVu (which has it) nothing moves.
    @Test func tabularDigitsWithAndWithoutTheFontsFeature() throws {
        let setter = Typesetter()
        let tnum = try TextFeatures(["tnum"])
        let quicksand = try setter.fonts.font(pattern: "Quicksand:bold")
        let ones = setter.shape("Ripples: 1111", font: quicksand, features: tnum)
        let eights = setter.shape("Ripples: 8808", font: quicksand, features: tnum)
        #expect(ones.advance == eights.advance)
        #expect(setter.shape("1111", font: quicksand).advance < setter.shape("8808", font: quicksand).advance)
        let dejavu = try setter.fonts.font(file: Self.dejavu)
        let plain = setter.shape("Wave 12:30", font: dejavu).glyphs.map(\.x)
        #expect(setter.shape("Wave 12:30", font: dejavu, features: tnum).glyphs.map(\.x) == plain)
    }

    /// A 10 000-character line: shaped whole, laid out clipped to a 1080p frame (glyphs past its
    /// right edge are never rasterised), with the mask cache inside its budget, and drawn.
    @Test func aTenThousandCharacterLineRendersClippedWithinTheBudget() throws {
        let setter = Typesetter(glyphBudget: 256 << 10)
        let font = try setter.fonts.font(file: Self.dejavu)
        var random = 19 as UInt64
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ,.;:!?ßéøæ—€")
        let text = String(
            (0..<10_000).map { _ -> Character in
                random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return alphabet[Int(random >> 33) % alphabet.count]
            })
        let frame = ClipRect(x0: 0, y0: 0, x1: 1920, y1: 1080)
        let run = try setter.run(text, font: font, size: 37.5, x: -3000.3, y: 500, visible: frame)
        #expect(setter.shape(text, font: font).glyphs.count > 9_900, "10 000 characters, a few ligatures")
        #expect(run.glyphs.count > 50 && run.glyphs.count < 200, "\(run.glyphs.count) glyphs placed")
        #expect(setter.glyphs.bytes <= setter.glyphs.budget)
        let buffer = PixelBuffer(width: 1920, height: 1080)
        FrameRenderer(threads: 2).render(
            DisplayList(
                width: 1920, height: 1080, background: .white, shapes: [DrawCommand(.glyphs(run), color: .black)]),
            into: buffer.surface, tracksDamage: false)
        var dark = 0
        for x in 0..<1920 where buffer.surface.pixel(x: x, y: 490) & 0xFF < 0x80 { dark += 1 }
        #expect(dark > 100)
    }

    @Test func patternsResolveAndBadPatternsSayWhatWasFound() throws {
        let fonts = FontLibrary()
        #expect(try fonts.font(pattern: "Quicksand:bold").file.hasSuffix("Quicksand-Bold.ttf"))
        #expect(try fonts.font(pattern: "DejaVu Sans").file.hasSuffix("DejaVuSans.ttf"))
        do {
            _ = try fonts.font(pattern: "Inter Display Nonexistent")
            Issue.record("an unknown family resolved")
        } catch {
            #expect(error.description.contains("fontconfig's closest is"))
        }
    }
}

struct ShapeCommandError: Error {
    let command: String
}

extension String {
    fileprivate func trimmingCharacters(in set: String) -> String {
        var s = Substring(self)
        while let c = s.first, set.contains(c) { s.removeFirst() }
        while let c = s.last, set.contains(c) { s.removeLast() }
        return String(s)
    }
}

import SwellDrawList
import SwellRaster
import SwellText
import Testing

/// `GlyphRun.mergingInk()`: a run composited from its merged mask has the bytes of the same run
/// composited glyph by glyph, whatever the overlaps, clip, colour, band height and thread count;
/// glyphs merge only where no earlier ink lies under theirs; sparse and huge runs stay as they are.
struct InkMergeTests {
    /// A mask of random coverage with holes (zero pixels), so inks interleave inside boxes.
    static func randomMask(_ random: inout SeededRandom) -> CoverageMask {
        let mask = CoverageMask(
            width: Int.random(in: 1...40, using: &random), height: Int.random(in: 1...30, using: &random))
        for y in 0..<mask.height {
            for x in 0..<mask.width {
                let value = Int.random(in: -200...255, using: &random)
                mask.bytes[y * mask.stride + x] = UInt8(max(0, value))
            }
        }
        return mask
    }

    /// A surface of random opaque pixels (so a wrong blend order shows in every channel).
    static func noise(_ width: Int, _ height: Int, _ random: inout SeededRandom) -> PixelBuffer {
        let buffer = PixelBuffer(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                buffer.surface.row(y)[x] = 0xFF00_0000 | UInt32.random(in: 0...0xFF_FFFF, using: &random)
            }
        }
        return buffer
    }

    /// How many pixels of two same-sized buffers differ.
    static func differences(_ a: PixelBuffer, _ b: PixelBuffer) -> Int {
        (0..<a.height).reduce(0) { n, y in
            n + (0..<a.width).filter { a.surface.row(y)[$0] != b.surface.row(y)[$0] }.count
        }
    }

    /// Runs of random masks, some packed so tight their boxes and inks overlap, some spread out;
    /// opaque and translucent colours; random clips reaching past the surface.
    @Test func mergedRunsCompositeToTheSameBytes() {
        var random = SeededRandom(seed: 19)
        var mergedSome = 0
        var mergedPartly = 0
        for round in 0..<300 {
            var run = GlyphRun()
            let spacing = Int.random(in: 2...24, using: &random)
            var x = Int.random(in: -20...10, using: &random)
            for _ in 0..<Int.random(in: 1...24, using: &random) {
                let mask = Self.randomMask(&random)
                run.append(mask, x: x, y: Int.random(in: -10...50, using: &random))
                x += Int.random(in: -spacing...spacing * 2, using: &random)
            }
            let merged = run.mergingInk()
            #expect(merged.placedGlyphs == run.placedGlyphs)
            #expect(merged.bounds == run.bounds)
            if merged.glyphs.count < run.glyphs.count { mergedSome += 1 }
            if merged.glyphs.count < run.glyphs.count && merged.glyphs.count > 1 { mergedPartly += 1 }
            let color = Color(r: 0.9, g: 0.3, b: 0.6, a: round % 3 == 0 ? 0.55 : 1)
            let clip = ClipRect(
                x0: Int.random(in: -5...30, using: &random), y0: Int.random(in: -5...30, using: &random),
                x1: Int.random(in: 40...260, using: &random), y1: Int.random(in: 40...90, using: &random))
            var seeds = random
            let glyphByGlyph = Self.noise(250, 80, &seeds)
            seeds = random
            let whole = Self.noise(250, 80, &seeds)
            random = seeds
            fillGlyphs(glyphByGlyph.surface, run, SourceColor(color), clip: clip)
            fillGlyphs(whole.surface, merged, SourceColor(color), clip: clip)
            #expect(Self.differences(glyphByGlyph, whole) == 0, "round \(round)")
        }
        // Both kinds of run came up: merged whole, and merged with some glyphs kept apart.
        #expect(mergedSome > 60 && mergedPartly > 20, "\(mergedSome) merged, \(mergedPartly) partly")
    }

    /// Where a glyph meets earlier ink it stays out of the merged mask, and so does every later
    /// glyph meeting it: A and C are apart, B overlaps A, D overlaps only B, E is apart.
    @Test func glyphsMeetingEarlierInkStayGlyphs() {
        let solid = CoverageMask(width: 6, height: 6)
        for y in 0..<6 { for x in 0..<6 { solid.bytes[y * solid.stride + x] = UInt8(40 + 30 * x) } }
        var run = GlyphRun()
        run.append(solid, x: 0, y: 0)  // A
        run.append(solid, x: 4, y: 2)  // B: its ink meets A's at x 4...5, y 2...5
        run.append(solid, x: 20, y: 0)  // C
        run.append(solid, x: 9, y: 6)  // D: meets B only (x 9, y 6...7)
        run.append(solid, x: 30, y: 3)  // E
        let merged = run.mergingInk()
        #expect(merged.glyphs.count == 3)
        #expect(merged.lineMask === merged.masks.first && run.lineMask == nil)
        #expect(merged.glyphs.dropFirst().map { [$0.x, $0.y] } == [[4, 2], [9, 6]])
        let before = PixelBuffer(width: 40, height: 16)
        let after = PixelBuffer(width: 40, height: 16)
        fillGlyphs(before.surface, run, SourceColor(Color(r: 0, g: 0.5, b: 1, a: 1)), clip: before.surface.bounds)
        fillGlyphs(after.surface, merged, SourceColor(Color(r: 0, g: 0.5, b: 1, a: 1)), clip: after.surface.bounds)
        #expect(Self.differences(before, after) == 0)
    }

    /// Zero pixels do not count as ink: boxes that overlap with empty corners still merge.
    @Test func boxesOverlappingOnlyWhereEmptyMerge() {
        let ring = CoverageMask(width: 8, height: 8)
        for y in 2..<6 { for x in 2..<6 { ring.bytes[y * ring.stride + x] = 255 } }
        var run = GlyphRun()
        for index in 0..<5 { run.append(ring, x: index * 4, y: 0) }
        #expect(run.mergingInk().glyphs.count == 1)
    }

    @Test func sparseAndHugeRunsStayAsTheyAre() {
        let mask = CoverageMask(width: 4, height: 4)
        mask.bytes[0] = 255
        var sparse = GlyphRun()
        sparse.append(mask, x: 0, y: 0)
        sparse.append(mask, x: 200, y: 0)
        #expect(sparse.mergingInk().glyphs.count == 2)
        var dense = GlyphRun()
        for index in 0..<50 { dense.append(mask, x: index * 4, y: 0) }
        #expect(dense.mergingInk().glyphs.count == 1)
        #expect(dense.mergingInk(maximumBytes: 100).glyphs.count == 50)
    }

    /// Real text: Latin with kerning and ligatures, Arabic with its marks (which overlap their
    /// letters' ink), Devanagari, combining accents; sizes 6–120 px at fractional positions;
    /// through the banded renderer on 1–3 threads and several band heights.
    @Test func shapedTextMergesToTheSameFrame() throws {
        let setter = Typesetter()
        let latin = try setter.fonts.font(file: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
        let texts = [
            "Office affluent AVA Tea: 12.50 €", "مَرْحَبًا بِكُمْ فِي السُّوقِ", "नमस्ते क्षत्रिय", "e\u{301}a\u{308}o\u{302}\u{323} Å ǅ",
            "Wave wave WAVE — ½ off",
        ]
        var random = SeededRandom(seed: 7)
        var merged = 0
        for (index, text) in texts.enumerated() {
            for size in [6.0, 11.5, 17, 21, 30, 64, 120] {
                let x = random.uniform(-3...40)
                let y = random.uniform(10...40) + size
                let run = try setter.run(text, font: latin, size: size, x: x, y: y)
                let whole = run.mergingInk()
                if whole.glyphs.count < run.glyphs.count { merged += 1 }
                let color = Color(r: 0.1, g: 0.2, b: 0.7, a: index == 1 ? 0.8 : 1)
                let list = { (r: GlyphRun) in
                    DisplayList(
                        width: 420, height: 200, background: Color(r: 1, g: 0.97, b: 0.9, a: 1),
                        commands: [.draw(DrawCommand(.glyphs(r), color: color))])
                }
                let reference = PixelBuffer(width: 420, height: 200)
                render(list(run), into: reference.surface)
                for (threads, band) in [(1, nil), (2, 7), (3, 32), (2, nil)] as [(Int, Int?)] {
                    let buffer = PixelBuffer(width: 420, height: 200)
                    FrameRenderer(threads: threads, bandHeight: band).render(
                        list(whole), into: buffer.surface, tracksDamage: false)
                    #expect(Self.differences(buffer, reference) == 0, "\(text) at \(size) px, \(threads) threads")
                }
            }
        }
        #expect(merged >= 25)
    }

    /// text-page.json as parsed (merged lines) against the same list laid out glyph by glyph.
    @Test func textPageMergedEqualsGlyphByGlyph() throws {
        let merged = try loadDrawListDocument(path: benchDataPath("text-page"))
        var glyphs = merged
        glyphs.layoutText(mergingInk: false)
        var masks = (merged: 0, glyphs: 0, placed: 0, placedGlyphs: 0)
        for (a, b) in zip(merged.frame.commands, glyphs.frame.commands) {
            guard case .draw(let m) = a, case .glyphs(let mr) = m.shape, case .draw(let g) = b,
                case .glyphs(let gr) = g.shape
            else { continue }
            masks.merged += mr.glyphs.count
            masks.glyphs += gr.glyphs.count
            masks.placed += mr.placedGlyphs
            masks.placedGlyphs += gr.placedGlyphs
        }
        #expect(masks.placed == masks.placedGlyphs)
        #expect(masks.glyphs == masks.placedGlyphs)
        #expect(masks.merged * 10 < masks.glyphs, "\(masks)")
        let one = PixelBuffer(width: merged.frame.width, height: merged.frame.height)
        let other = PixelBuffer(width: merged.frame.width, height: merged.frame.height)
        FrameRenderer(threads: 2).render(merged.frame, into: one.surface, tracksDamage: false)
        FrameRenderer(threads: 1).render(glyphs.frame, into: other.surface, tracksDamage: false)
        #expect(Self.differences(one, other) == 0)
    }
}

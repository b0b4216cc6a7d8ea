import SwellRaster

/// Lays text out as glyph runs for the raster pipeline: fonts, shaped-line cache, glyph cache.
///
/// `run(...)` shapes the text (once: lines are cached by font, text and features, in ems, so a
/// size change reuses them), places each glyph at the pen position + its offset scaled to
/// `size`, quantises that origin to a quarter pixel (GlyphCache), and appends the cached mask.
/// Warm (every line and mask cached) it allocates nothing when given a run to reuse. Glyphs whose
/// box (the font's bounding box at their origin) misses `visible` are skipped unrasterised.
/// Not thread-safe: lay out on one thread, render the runs on any.
public final class Typesetter {
    public let fonts: FontLibrary
    public let glyphs: GlyphCache
    private var lines: [LineKey: ShapedLine] = [:]
    /// Shaped lines kept before the line cache starts over (static text stays far below).
    public let lineLimit: Int

    struct LineKey: Hashable {
        let font: Int32
        let text: String
        let features: TextFeatures
    }

    public init(fonts: FontLibrary = FontLibrary(), glyphBudget: Int = 32 << 20, lineLimit: Int = 4096) {
        self.fonts = fonts
        glyphs = GlyphCache(budget: glyphBudget)
        self.lineLimit = lineLimit
    }

    /// Empties the line and glyph caches (fonts stay open): the next layout is a cold one.
    public func removeCachedLines() {
        lines.removeAll(keepingCapacity: true)
        glyphs.removeAll()
    }

    public var cachedLineCount: Int { lines.count }

    /// The shaped line for `text` in `font` (from the cache when it was shaped before).
    public func shape(_ text: String, font: Font, features: TextFeatures = .none) -> ShapedLine {
        let key = LineKey(font: font.id, text: text, features: features)
        if let line = lines[key] { return line }
        if lines.count >= lineLimit { lines.removeAll(keepingCapacity: true) }
        let line = shapeLine(text, font: font, features: features, fonts: fonts)
        lines[key] = line
        return line
    }

    /// Checks a size: finite, > 0 and at most `maximumTextSize`.
    public static func check(size: Double) throws(TextError) {
        guard size.isFinite, size > 0, size <= maximumTextSize else { throw .badSize(size) }
    }

    /// The glyph run of `text` with the pen starting at (x, y) on the baseline, y down.
    public func run(
        _ text: String, font: Font, size: Double, x: Double, y: Double, features: TextFeatures = .none,
        visible: ClipRect? = nil
    ) throws(TextError) -> GlyphRun {
        var run = GlyphRun()
        try layout(text, font: font, size: size, x: x, y: y, features: features, visible: visible, into: &run)
        return run
    }

    /// As `run(...)`, appending to `run` (call `run.removeAll()` first to reuse its storage).
    public func layout(
        _ text: String, font: Font, size: Double, x: Double, y: Double, features: TextFeatures = .none,
        visible: ClipRect? = nil, into run: inout GlyphRun
    ) throws(TextError) {
        try Self.check(size: size)
        guard x.isFinite, y.isFinite, abs(x) < 1e9, abs(y) < 1e9 else { return }
        let line = shape(text, font: font, features: features)
        line.glyphs.withUnsafeBufferPointer { shaped in
            for g in shaped {
                let ox = ((x + g.x * size) * 4).rounded()
                let oy = ((y - g.y * size) * 4).rounded()
                let px = Int(ox) >> 2
                let py = Int(oy) >> 2
                if let visible, !mayTouch(visible, g.font, size, px, py) { continue }
                let cached = glyphs.glyph(g.font, g.glyph, size: size, phaseX: Int(ox) & 3, phaseY: Int(oy) & 3)
                run.append(cached.mask, x: px + Int(cached.left), y: py + Int(cached.top))
            }
        }
    }

    /// Whether a glyph of `font` with its origin in pixel (px, py) can reach `area`.
    private func mayTouch(_ area: ClipRect, _ font: Font, _ size: Double, _ px: Int, _ py: Int) -> Bool {
        let s = size / font.unitsPerEm
        let b = font.boxUnits
        return Double(px) + b.xMin * s - 2 < Double(area.x1) && Double(px) + b.xMax * s + 2 > Double(area.x0)
            && Double(py) - b.yMax * s - 2 < Double(area.y1) && Double(py) - b.yMin * s + 2 > Double(area.y0)
    }
}

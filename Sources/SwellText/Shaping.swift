import CFriBiDi
import CHarfBuzz

/// OpenType features for a text, in HarfBuzz's syntax ("tnum", "-liga", "ss01=1"), parsed once.
public struct TextFeatures: Hashable, Sendable {
    public let spec: [String]
    let features: [hb_feature_t]
    /// `tnum` was asked for: digits are also set in cells as wide as the widest digit, centred,
    /// for fonts without a `tnum` feature of their own (Quicksand, Comfortaa), as SwiftUI's
    /// `.monospacedDigit()` does; where the font's `tnum` already made them equal this moves nothing.
    var tabularDigits: Bool { spec.contains { $0 == "tnum" || $0 == "+tnum" || $0 == "tnum=1" } }

    public static let none = TextFeatures(checked: [], [])

    public init(_ spec: [String]) throws(TextError) {
        var parsed: [hb_feature_t] = []
        for item in spec {
            var feature = hb_feature_t()
            guard hb_feature_from_string(item, Int32(item.utf8.count), &feature) != 0 else { throw .badFeature(item) }
            parsed.append(feature)
        }
        self.init(checked: spec, parsed)
    }

    private init(checked spec: [String], _ features: [hb_feature_t]) {
        self.spec = spec
        self.features = features
    }

    public static func == (a: TextFeatures, b: TextFeatures) -> Bool { a.spec == b.spec }
    public func hash(into hasher: inout Hasher) { hasher.combine(spec) }
}

/// One shaped glyph: its font (a fallback font for characters the first lacks), glyph id, and
/// origin in ems from the line's start, y up (HarfBuzz's offsets, the pen's advances).
public struct ShapedGlyph: Sendable {
    public let font: Font
    public let glyph: UInt32
    public let x: Double
    public let y: Double
    /// The index of the first character (Unicode scalar) of the glyph's cluster.
    public let cluster: Int
}

/// A line shaped once and reused at any size: glyphs in visual order (left to right).
public final class ShapedLine: @unchecked Sendable {
    public let glyphs: [ShapedGlyph]
    /// The pen's total advance, in ems.
    public let advance: Double

    init(glyphs: [ShapedGlyph], advance: Double) {
        self.glyphs = glyphs
        self.advance = advance
    }
}

extension Font: @unchecked Sendable {}

/// Shapes a line: bidirectional levels with FriBiDi (only when a right-to-left or unusual
/// character is present), runs of one level and one font (fallback fonts for characters the
/// font lacks), runs ordered visually (rule L2), each shaped by HarfBuzz with its direction
/// from the level and its script and language guessed from its characters.
func shapeLine(_ text: String, font primary: Font, features: TextFeatures, fonts: FontLibrary) -> ShapedLine {
    let scalars = text.unicodeScalars.map(\.value)
    guard !scalars.isEmpty else { return ShapedLine(glyphs: [], advance: 0) }
    let levels = bidiLevels(scalars)
    let runs = visualOrder(itemise(scalars, levels: levels, primary: primary, fonts: fonts))
    let buffer = hb_buffer_create()
    defer { hb_buffer_destroy(buffer) }
    var glyphs: [ShapedGlyph] = []
    glyphs.reserveCapacity(scalars.count)
    var pen = 0.0
    for run in runs {
        hb_buffer_clear_contents(buffer)
        hb_buffer_add_codepoints(buffer, scalars, Int32(scalars.count), UInt32(run.start), Int32(run.end - run.start))
        hb_buffer_set_direction(buffer, run.level & 1 == 1 ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
        hb_buffer_guess_segment_properties(buffer)
        hb_shape(run.font.shaper, buffer, features.features, UInt32(features.features.count))
        var count: UInt32 = 0
        let infos = hb_buffer_get_glyph_infos(buffer, &count)!
        let positions = hb_buffer_get_glyph_positions(buffer, &count)!
        let em = 1 / run.font.unitsPerEm
        let cell = features.tabularDigits ? run.font.digitCell : 0
        for i in 0..<Int(count) {
            let p = positions[i]
            var advance = Double(p.x_advance)
            var shift = 0.0
            let cluster = Int(infos[i].cluster)
            if cell > 0, cluster < scalars.count, (0x30...0x39).contains(scalars[cluster]) {
                shift = (cell - advance) / 2
                advance = cell
            }
            glyphs.append(
                ShapedGlyph(
                    font: run.font, glyph: infos[i].codepoint, x: pen + (Double(p.x_offset) + shift) * em,
                    y: Double(p.y_offset) * em, cluster: cluster))
            pen += advance * em
        }
    }
    return ShapedLine(glyphs: glyphs, advance: pen)
}

/// FriBiDi's embedding levels, or all 0 when every character is below U+0590 (Latin, Greek,
/// Cyrillic…: no right-to-left character, so the line is one left-to-right run).
func bidiLevels(_ scalars: [UInt32]) -> [Int8] {
    guard scalars.contains(where: { $0 >= 0x590 }) else { return [Int8](repeating: 0, count: scalars.count) }
    let n = Int32(scalars.count)
    var types = [FriBidiCharType](repeating: FRIBIDI_TYPE_LTR, count: scalars.count)
    var brackets = [FriBidiBracketType](repeating: 0, count: scalars.count)
    var levels = [FriBidiLevel](repeating: 0, count: scalars.count)
    fribidi_get_bidi_types(scalars, n, &types)
    fribidi_get_bracket_types(scalars, n, types, &brackets)
    var direction = swell_fribidi_auto_direction()
    if fribidi_get_par_embedding_levels_ex(types, brackets, n, &direction, &levels) == 0 {
        return [Int8](repeating: 0, count: scalars.count)
    }
    return levels.map { Int8($0) }
}

struct TextRun {
    let start: Int
    let end: Int
    let level: Int8
    let font: Font
}

/// Cuts the line where the level or the font changes. A character the font lacks takes a
/// fallback font; joiners, variation selectors and combining marks stay with the character before
/// them; a character no font has stays in the first font (its .notdef box).
func itemise(_ scalars: [UInt32], levels: [Int8], primary: Font, fonts: FontLibrary) -> [TextRun] {
    var runs: [TextRun] = []
    var start = 0
    var runFont = primary
    for i in scalars.indices {
        let s = scalars[i]
        var font = runFont
        if i == 0 || !clingsToPrevious(s) {
            font =
                primary.hasGlyph(for: s) || isInvisible(s)
                ? primary : fonts.fallback(for: s, primary: primary) ?? primary
        }
        if i > 0 && (font !== runFont || levels[i] != levels[i - 1]) {
            runs.append(TextRun(start: start, end: i, level: levels[i - 1], font: runFont))
            start = i
        }
        runFont = font
    }
    runs.append(TextRun(start: start, end: scalars.count, level: levels[scalars.count - 1], font: runFont))
    return runs
}

/// Characters shaped with the font of the character before them.
func clingsToPrevious(_ s: UInt32) -> Bool {
    (0x0300...0x036F).contains(s) || (0x200C...0x200D).contains(s) || (0xFE00...0xFE0F).contains(s)
        || (0x1AB0...0x1AFF).contains(s) || (0x20D0...0x20FF).contains(s) || (0xE0100...0xE01EF).contains(s)
}

/// Controls and spaces that need no glyph of their own from a fallback font.
func isInvisible(_ s: UInt32) -> Bool { s < 0x20 || s == 0x20 || s == 0xA0 || (0x2000...0x200F).contains(s) }

/// Rule L2 of the bidirectional algorithm on runs: from the highest level down to the lowest odd
/// level, every maximal sequence of runs at that level or above is reversed.
func visualOrder(_ logical: [TextRun]) -> [TextRun] {
    var runs = logical
    guard let highest = runs.map(\.level).max(), highest > 0 else { return runs }
    let lowestOdd = runs.map(\.level).filter { $0 & 1 == 1 }.min() ?? highest
    var level = highest
    while level >= lowestOdd && level > 0 {
        var i = 0
        while i < runs.count {
            guard runs[i].level >= level else {
                i += 1
                continue
            }
            var j = i
            while j < runs.count && runs[j].level >= level { j += 1 }
            runs[i..<j].reverse()
            i = j
        }
        level -= 1
    }
    return runs
}

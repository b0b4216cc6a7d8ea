import CCairo
import SwellDrawList
import SwellText

/// Draws a list's `text` ops with Cairo as a competent user would: one FT_Face per font file
/// through `cairo_ft_font_face_create_for_ft_face` with hinting off (FT_LOAD_NO_HINTING, hint
/// style and metrics off), HarfBuzz's positions (the same shaped lines Swell draws) and one
/// `cairo_show_glyphs` per op. `reset()` drops the faces and shaped lines, so the next frame is
/// cold for Cairo too: new scaled fonts (empty glyph caches) and shaping again.
final class CairoText {
    private var library: FT_Library?
    private var faces: [String: OpaquePointer] = [:]
    private var ftFaces: [FT_Face] = []
    private var glyphs: [[cairo_glyph_t]] = []
    private let options = cairo_font_options_create()
    private let typesetter = Typesetter()
    private let texts: [TextOp]

    init(texts: [TextOp]) {
        self.texts = texts
        FT_Init_FreeType(&library)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
    }

    deinit {
        reset()
        cairo_font_options_destroy(options)
        FT_Done_FreeType(library)
    }

    func reset() {
        for face in faces.values { cairo_font_face_destroy(face) }
        faces.removeAll()
        for face in ftFaces { FT_Done_Face(face) }
        ftFaces.removeAll()
        glyphs.removeAll()
        typesetter.removeCachedLines()
    }

    /// The Cairo font face for a file (opened on first use).
    private func face(_ file: String) -> OpaquePointer? {
        if let face = faces[file] { return face }
        var ft: FT_Face?
        guard FT_New_Face(library, file, 0, &ft) == 0, let ft else { return nil }
        ftFaces.append(ft)
        let face = cairo_ft_font_face_create_for_ft_face(ft, Int32(FT_LOAD_NO_HINTING))
        faces[file] = face
        return face
    }

    /// Shapes every op (HarfBuzz, through SwellText's shaper) into Cairo glyphs.
    private func prepare() {
        glyphs = texts.map { op in
            guard let font = try? typesetter.fonts.font(named: op.fontName) else { return [] }
            let line = typesetter.shape(op.text, font: font, features: op.features)
            return line.glyphs.map { g in
                cairo_glyph_t(index: UInt(g.glyph), x: op.x + g.x * op.size, y: op.y - g.y * op.size)
            }
        }
    }

    /// Draws text op `index` (the caller has set the colour and any clip).
    func draw(_ index: Int, _ cr: OpaquePointer) {
        if glyphs.isEmpty { prepare() }
        let op = texts[index]
        guard let face = face(op.font.file) else { return }
        cairo_set_font_face(cr, face)
        cairo_set_font_size(cr, op.size)
        cairo_set_font_options(cr, options)
        glyphs[index].withUnsafeBufferPointer { cairo_show_glyphs(cr, $0.baseAddress, Int32($0.count)) }
    }
}

import CCairo
import Glibc
import SwellDrawList
import SwellText

/// Draws a list's `text` ops with Cairo as a competent user would: one FT_Face per font file
/// through `cairo_ft_font_face_create_for_ft_face` with hinting off (FT_LOAD_NO_HINTING, hint
/// style and metrics off), HarfBuzz's positions (the same shaped lines Swell draws) and one
/// `cairo_show_glyphs` per op. `reset()` drops the faces and shaped lines, so the next frame is
/// cold for Cairo too: new scaled fonts (empty glyph caches) and shaping again.
///
/// Fonts stay open across a cold frame, as Swell's do: `reset()` (untimed) opens fresh FT_Faces
/// from the font files' bytes, read once. A fresh FT_Face is what empties Cairo's caches: a
/// cairo face made again for the same FT_Face is revived with its scaled fonts and their glyphs.
/// Opening faces inside the frame would charge Cairo for reading and mapping font files, which
/// Swell's cold frame does not do. Each FT_Face is released by Cairo when it drops the face
/// (user data), not before: cairo keeps recently used scaled fonts, and with them the face.
final class CairoText {
    private var library: FT_Library?
    private var faces: [String: OpaquePointer] = [:]
    /// Each font file's bytes, read once; a memory face reads them while it lives.
    private var fileBytes: [String: UnsafeMutableRawBufferPointer] = [:]
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

    // The library and the file bytes outlive the process's last face (Cairo may still hold
    // some): a bench process makes one CairoText per renderer and list, so they are not freed.
    deinit {
        for face in faces.values { cairo_font_face_destroy(face) }
        cairo_font_options_destroy(options)
    }

    /// Drops the faces and shaped lines (the next frame is cold) and opens a fresh face for
    /// every font file the ops use, so the cold frame itself opens no file.
    func reset() {
        for face in faces.values { cairo_font_face_destroy(face) }
        faces.removeAll()
        glyphs.removeAll()
        typesetter.removeCachedLines()
        for op in texts where faces[op.font.file] == nil { faces[op.font.file] = open(op.font.file) }
    }

    /// The Cairo font face for a file (opened on first use).
    private func face(_ file: String) -> OpaquePointer? {
        if let face = faces[file] { return face }
        let face = open(file)
        faces[file] = face
        return face
    }

    /// A new FT_Face on the file's bytes and a Cairo face for it; Cairo calls FT_Done_Face when
    /// it destroys the face.
    private func open(_ file: String) -> OpaquePointer? {
        guard let bytes = bytes(of: file) else { return nil }
        var ft: FT_Face?
        let base = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
        guard FT_New_Memory_Face(library, base, bytes.count, 0, &ft) == 0, let ft else { return nil }
        let face = cairo_ft_font_face_create_for_ft_face(ft, Int32(FT_LOAD_NO_HINTING))
        let status = cairo_font_face_set_user_data(face, &faceKey, UnsafeMutableRawPointer(ft)) { ft in
            FT_Done_Face(ft?.assumingMemoryBound(to: FT_FaceRec_.self))
        }
        if status != CAIRO_STATUS_SUCCESS { FT_Done_Face(ft) }
        return face
    }

    private func bytes(of file: String) -> UnsafeMutableRawBufferPointer? {
        if let bytes = fileBytes[file] { return bytes }
        guard let stream = fopen(file, "rb") else { return nil }
        defer { fclose(stream) }
        fseek(stream, 0, SEEK_END)
        let size = ftell(stream)
        fseek(stream, 0, SEEK_SET)
        guard size > 0 else { return nil }
        let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
        guard fread(bytes.baseAddress, 1, size, stream) == size else {
            bytes.deallocate()
            return nil
        }
        fileBytes[file] = bytes
        return bytes
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

/// The key of the user data that closes a face's FT_Face (its address is what Cairo compares).
private nonisolated(unsafe) var faceKey = cairo_user_data_key_t()

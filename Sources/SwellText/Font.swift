import CFreeType
import CHarfBuzz

/// One opened font face: FreeType for outlines (loaded unscaled, in font units, so any size is
/// exact in `Double`) and HarfBuzz for shaping (its own OpenType tables, scaled to font units so a
/// shaped line is the same for every size, as `hb-shape` prints it).
///
/// Not thread-safe (an FT_Face is not): fonts are used while laying text out, on one thread; the
/// raster pipeline only ever sees the masks made from them.
public final class Font {
    /// Unique within its library: part of every cache key.
    public let id: Int32
    public let file: String
    public let faceIndex: Int
    /// The family FreeType reads from the file, e.g. "DejaVu Sans".
    public let familyName: String
    public let unitsPerEm: Double
    let face: FT_Face
    let shaper: OpaquePointer
    /// Keeps FreeType alive until the last face made from it is done.
    private let library: FreeTypeLibrary
    /// The font's bounding box in font units (every glyph lies inside it).
    let boxUnits: (xMin: Double, yMin: Double, xMax: Double, yMax: Double)

    init(id: Int32, file: String, faceIndex: Int, face: FT_Face, shaper: OpaquePointer, library: FreeTypeLibrary) {
        self.library = library
        self.id = id
        self.file = file
        self.faceIndex = faceIndex
        self.face = face
        self.shaper = shaper
        familyName = face.pointee.family_name.map { String(cString: $0) } ?? file
        unitsPerEm = Double(max(1, face.pointee.units_per_EM))
        let box = face.pointee.bbox
        boxUnits = (Double(box.xMin), Double(box.yMin), Double(box.xMax), Double(box.yMax))
    }

    deinit {
        hb_font_destroy(shaper)
        FT_Done_Face(face)
    }

    /// Whether the font maps this character to a glyph of its own.
    func hasGlyph(for scalar: UInt32) -> Bool {
        var glyph: hb_codepoint_t = 0
        return hb_font_get_nominal_glyph(shaper, scalar, &glyph) != 0
    }

    /// The widest advance of the digits 0–9 in font units (0 when the font has none): the cell of
    /// tabular digits.
    public private(set) lazy var digitCell: Double = {
        var widest: Int32 = 0
        for digit in UInt32(0x30)...0x39 {
            var glyph: hb_codepoint_t = 0
            if hb_font_get_nominal_glyph(shaper, digit, &glyph) != 0 {
                widest = max(widest, hb_font_get_glyph_h_advance(shaper, glyph))
            }
        }
        return Double(widest)
    }()

    /// The number of glyphs in the font.
    public var glyphCount: Int { Int(face.pointee.num_glyphs) }
}

/// The FreeType library instance, freed after every face made from it (each font holds it).
final class FreeTypeLibrary {
    let handle: FT_Library

    init() {
        var library: FT_Library?
        guard FT_Init_FreeType(&library) == 0, let library else { fatalError("FreeType could not initialise") }
        handle = library
    }

    deinit { FT_Done_FreeType(handle) }
}

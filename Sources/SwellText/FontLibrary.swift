import CFontconfig
import CFreeType
import CHarfBuzz
import SwellSystem

/// Opens fonts by file or by fontconfig pattern, once each, and finds fallback fonts for
/// characters a font lacks.
///
/// fontconfig is initialised on the first pattern or fallback lookup (it reads every font's cache,
/// a few milliseconds): a list of font files never pays it. Fallbacks come from `FcFontSort` of
/// the default sans-serif pattern, the first font whose character set has the character, and are
/// remembered per character. Not thread-safe: one library per laying-out thread.
public final class FontLibrary {
    private let freeType = FreeTypeLibrary()
    private var fontsByFile: [String: Font] = [:]
    private var fontsByPattern: [String: Font] = [:]
    private var nextID: Int32 = 0
    private var config: OpaquePointer?
    /// FcFontSort's list (trimmed), opened lazily: (file, index, charset).
    private var fallbackList: UnsafeMutablePointer<FcFontSet>?
    private var fallbackByScalar: [UInt32: Font?] = [:]

    public init() {}

    deinit {
        if let fallbackList { FcFontSetDestroy(fallbackList) }
        if let config { FcConfigDestroy(config) }
    }

    /// A font given as a file path (anything containing "/") or else a fontconfig pattern.
    public func font(named name: String) throws(TextError) -> Font {
        name.contains("/") ? try font(file: name) : try font(pattern: name)
    }

    /// Opens the face `index` of a font file (TrueType, OpenType, collections).
    public func font(file: String, index: Int = 0) throws(TextError) -> Font {
        let key = index == 0 ? file : "\(file)#\(index)"
        if let font = fontsByFile[key] { return font }
        if !fileExists(file) { throw .fontMissing(file: file) }
        if let error = readError(file) { throw .fontUnreadable(file: file, reason: error.message) }
        var face: FT_Face?
        let status = FT_New_Face(freeType.handle, file, FT_Long(index), &face)
        guard status == 0, let face else { throw .notAFont(file: file, freeTypeError: status) }
        // Bitmap-only faces have no outlines to fill.
        guard face.pointee.face_flags & FT_Long(FT_FACE_FLAG_SCALABLE) != 0, face.pointee.units_per_EM > 0 else {
            FT_Done_Face(face)
            throw .notAFont(file: file, freeTypeError: 0)
        }
        guard let blob = hb_blob_create_from_file_or_fail(file) else {
            FT_Done_Face(face)
            throw .fontUnreadable(file: file, reason: "HarfBuzz could not map it")
        }
        let hbFace = hb_face_create(blob, UInt32(index))
        hb_blob_destroy(blob)
        let shaper = hb_font_create(hbFace)!
        hb_face_destroy(hbFace)
        // Font units: positions as integers exactly as hb-shape prints them, for every size.
        let upem = Int32(face.pointee.units_per_EM)
        hb_font_set_scale(shaper, upem, upem)
        let font = Font(id: nextID, file: file, faceIndex: index, face: face, shaper: shaper, library: freeType)
        nextID += 1
        fontsByFile[key] = font
        return font
    }

    /// The font fontconfig matches for a pattern in fc-match syntax ("Quicksand:bold"). A match of
    /// another family than the one asked for is an error that names what was found.
    public func font(pattern: String) throws(TextError) -> Font {
        if let font = fontsByPattern[pattern] { return font }
        let config = fontconfig()
        guard let parsed = parsePattern(pattern) else { throw .badPattern(pattern: pattern) }
        defer { FcPatternDestroy(parsed) }
        let wanted = family(of: parsed)
        FcConfigSubstitute(config, parsed, FcMatchPattern)
        FcDefaultSubstitute(parsed)
        var result = FcResultNoMatch
        guard let match = FcFontMatch(config, parsed, &result) else {
            throw .patternUnmatched(pattern: pattern, found: "nothing", package: debianPackage(for: wanted ?? ""))
        }
        defer { FcPatternDestroy(match) }
        var file: UnsafeMutablePointer<FcChar8>?
        guard FcPatternGetString(match, FC_FILE, 0, &file) == FcResultMatch, let file else {
            throw .patternUnmatched(pattern: pattern, found: "a font without a file", package: nil)
        }
        let path = String(cString: file)
        // fontconfig always answers with some font, so "not installed" is a match of another
        // family than the pattern's (compared case-insensitively); a generic name such as
        // "sans-serif" asks for whatever family fontconfig's configuration maps it to.
        if let wanted, !genericFamilies.contains(wanted.lowercased()),
            !families(of: match).contains(where: { $0.lowercased() == wanted.lowercased() })
        {
            let found = families(of: match).first ?? path
            throw .patternUnmatched(pattern: pattern, found: "\(found) (\(path))", package: debianPackage(for: wanted))
        }
        var index: Int32 = 0
        _ = FcPatternGetInteger(match, FC_INDEX, 0, &index)
        let font = try font(file: path, index: Int(index))
        fontsByPattern[pattern] = font
        return font
    }

    /// A font other than `primary` that has a glyph for `scalar`, or nil when no installed font has.
    func fallback(for scalar: UInt32, primary: Font) -> Font? {
        if let known = fallbackByScalar[scalar] { return known }
        let found = searchFallback(for: scalar, primary: primary)
        fallbackByScalar[scalar] = .some(found)
        return found
    }

    private func searchFallback(for scalar: UInt32, primary: Font) -> Font? {
        let config = fontconfig()
        if fallbackList == nil {
            let pattern = parsePattern("sans-serif")!
            FcConfigSubstitute(config, pattern, FcMatchPattern)
            FcDefaultSubstitute(pattern)
            var result = FcResultNoMatch
            fallbackList = FcFontSort(config, pattern, 1, nil, &result)
            FcPatternDestroy(pattern)
        }
        guard let list = fallbackList else { return nil }
        for i in 0..<Int(list.pointee.nfont) {
            guard let candidate = list.pointee.fonts[i] else { continue }
            var charset: OpaquePointer?
            guard FcPatternGetCharSet(candidate, FC_CHARSET, 0, &charset) == FcResultMatch,
                FcCharSetHasChar(charset, scalar) != 0
            else { continue }
            var file: UnsafeMutablePointer<FcChar8>?
            guard FcPatternGetString(candidate, FC_FILE, 0, &file) == FcResultMatch, let file else { continue }
            var index: Int32 = 0
            _ = FcPatternGetInteger(candidate, FC_INDEX, 0, &index)
            guard let font = try? font(file: String(cString: file), index: Int(index)), font !== primary,
                font.hasGlyph(for: scalar)
            else { continue }
            return font
        }
        return nil
    }

    private func fontconfig() -> OpaquePointer {
        if let config { return config }
        guard let made = FcInitLoadConfigAndFonts() else { fatalError("fontconfig could not load its configuration") }
        config = made
        return made
    }

    private func family(of pattern: OpaquePointer) -> String? {
        var value: UnsafeMutablePointer<FcChar8>?
        guard FcPatternGetString(pattern, FC_FAMILY, 0, &value) == FcResultMatch, let value else { return nil }
        return String(cString: value)
    }

    private func families(of pattern: OpaquePointer) -> [String] {
        var names: [String] = []
        var value: UnsafeMutablePointer<FcChar8>?
        while FcPatternGetString(pattern, FC_FAMILY, Int32(names.count), &value) == FcResultMatch, let value {
            names.append(String(cString: value))
        }
        return names
    }
}

/// fontconfig's aliases, which name no family of their own (its conf.d maps them to installed ones).
let genericFamilies: Set<String> = [
    "sans-serif", "sans", "serif", "monospace", "mono", "system-ui", "emoji", "math", "cursive", "fantasy",
]

/// The Debian package that installs a family named in a pattern, for the error's fix.
func debianPackage(for family: String) -> String? {
    let name = family.lowercased()
    let known: [(String, String)] = [
        ("dejavu", "fonts-dejavu-core"), ("quicksand", "fonts-quicksand"), ("comfortaa", "fonts-comfortaa"),
        ("noto", "fonts-noto-core"), ("inter", "fonts-inter"), ("liberation", "fonts-liberation2"),
    ]
    return known.first { name.hasPrefix($0.0) }?.1
}

/// FcNameParse takes unsigned bytes.
func parsePattern(_ text: String) -> OpaquePointer? {
    text.withCString { chars in
        chars.withMemoryRebound(to: FcChar8.self, capacity: strlen(chars) + 1) { FcNameParse($0) }
    }
}

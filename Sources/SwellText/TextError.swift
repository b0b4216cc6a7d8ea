/// Why a font could not be opened or a text laid out. Each names the file, pattern or value and
/// says how to fix it (the command-line tool exits 65, EX_DATAERR, on any of them).
public enum TextError: Error, Equatable, CustomStringConvertible {
    case fontMissing(file: String)
    case fontUnreadable(file: String, reason: String)
    case notAFont(file: String, freeTypeError: Int32)
    /// fontconfig matched `found` (a different family) for `pattern`.
    case patternUnmatched(pattern: String, found: String, package: String?)
    case badPattern(pattern: String)
    case badSize(Double)
    case badFeature(String)

    public var description: String {
        switch self {
        case .fontMissing(let file):
            return "font file \(file) does not exist; give the path of a .ttf/.otf file or a fontconfig pattern"
        case .fontUnreadable(let file, let reason):
            return "font file \(file) cannot be read (\(reason)); check its permissions"
        case .notAFont(let file, let code):
            return "\(file) is not a font FreeType can open (FreeType error \(code)); give a TrueType or OpenType file"
        case .patternUnmatched(let pattern, let found, let package):
            let install = package.map { "install Debian's \($0) or " } ?? ""
            return "no installed font matches \"\(pattern)\": fontconfig's closest is \(found); "
                + "\(install)name an installed family (fc-list : family lists them)"
        case .badPattern(let pattern):
            return "\"\(pattern)\" is not a fontconfig pattern (fc-match syntax, e.g. \"DejaVu Sans:bold\")"
        case .badSize(let size):
            return "text size \(size) is not in 0 < size ≤ \(Int(maximumTextSize)) pixels per em"
        case .badFeature(let feature):
            return "\"\(feature)\" is not an OpenType feature (HarfBuzz syntax, e.g. \"tnum\" or \"-liga\")"
        }
    }
}

/// The largest text size, in pixels per em: a glyph mask stays below a few MiB.
public let maximumTextSize = 1024.0

import SwellJSON

/// The text of a text element's `file`: what a kiosk owner writes with nano, or rsync copies in.
public enum TextFileContents {
    /// A menu is a page of lines; anything much larger is a wrong path (a log, an image).
    public static let limit = 64 * 1024

    /// Why a file's bytes are not a text element's text.
    public struct Problem: Error, CustomStringConvertible {
        public let description: String
    }

    /// The bytes as the element's text: UTF-8, at most `limit` bytes. A leading byte-order mark
    /// and Windows line ends (a file saved on a PC) are dropped, and so are the newlines at the
    /// end (editors add one; it would be an empty last line).
    public static func decode(_ bytes: [UInt8]) throws(Problem) -> String {
        guard bytes.count <= limit else {
            throw Problem(description: "\(bytes.count) bytes; at most \(limit) are allowed (a text file of lines)")
        }
        if let bad = firstInvalidByte(bytes) {
            let byte = String(bytes[bad], radix: 16, uppercase: true)
            throw Problem(description: "not UTF-8 text (byte 0x\(byte) at offset \(bad)); save it as UTF-8")
        }
        let text = String(decoding: bytes, as: UTF8.self)
        var lines = text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
        lines = lines.replacing("\r\n", with: "\n")
        while lines.hasSuffix("\n") { lines.removeLast() }
        return lines
    }

    /// The offset of the first byte that does not begin a valid UTF-8 sequence, or nil.
    static func firstInvalidByte(_ bytes: [UInt8]) -> Int? {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar): offset += scalar.count
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }

    /// Column `column` (from 1) of every line, the columns split at "|" and trimmed of spaces, so
    /// one file can hold dishes and their prices ("Lentil curry | 9.80") for two elements side by
    /// side; a line with fewer columns gives an empty line (a heading keeps the rows aligned).
    /// Column 0 is the whole text.
    public static func column(_ column: Int, of text: String) -> String {
        guard column > 0 else { return text }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            let cells = line.split(separator: "|", omittingEmptySubsequences: false)
            return column <= cells.count ? trimmed(cells[column - 1]) : ""
        }
        return lines.joined(separator: "\n")
    }

    private static func trimmed(_ cell: Substring) -> String {
        String(cell.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}

/// A scene file loaded without a way to read files (a `file` then cannot be shown).
public struct NoFileAccess: Error, CustomStringConvertible {
    public init() {}
    public var description: String { "files cannot be read here" }
}

/// `file` with each text element's `file` named as the kiosk finds it: relative to the folder
/// of the scene file `name` (the pages' rule), so the element and whoever follows it agree.
func resolvingTextFiles(_ file: SceneFile, from name: String) -> SceneFile {
    let layers = file.layers.map { layer in
        let given = layer.descriptor.name == "text" ? layer.settings.text("file") : ""
        guard !given.isEmpty else { return layer }
        var settings = layer.settings
        settings.set("file", .text(resolvePage(given, from: name)))
        return SceneFile.Layer(descriptor: layer.descriptor, settings: settings, id: layer.id, frame: layer.frame)
    }
    var resolved = SceneFile(layers: layers, background: file.background)
    resolved.height = file.height
    return resolved
}

/// Reads and checks every text file the elements of `file` name (each once), by resolved path.
/// A file that cannot be read, is too large or is not UTF-8 is a problem at its element's JSON
/// path: the kiosk does not start with a hole in its menu.
func loadTextFiles(
    _ file: SceneFile, root: JSONValue, read: (String) throws -> [UInt8], problems list: inout ProblemList
) -> [String: String] {
    var texts: [String: String] = [:]
    var failed: [String: String] = [:]
    for (index, layer) in file.layers.enumerated() where layer.descriptor.name == "text" {
        let path = layer.settings.text("file")
        guard !path.isEmpty, texts[path] == nil else { continue }
        let problem: String
        if let known = failed[path] {
            problem = known
        } else {
            do {
                texts[path] = try TextFileContents.decode(read(path))
                continue
            } catch {
                problem = "cannot show \"\(path)\": \(error)"
                failed[path] = problem
            }
        }
        list.problems.append("\(parameterPath("file", of: index, in: file, root: root)): \(problem)")
    }
    return texts
}

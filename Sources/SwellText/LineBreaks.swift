import CUnibreak

/// A place where a line may or must end, from libunibreak's UAX #14 line breaking.
public struct LineBreak: Equatable, Sendable {
    /// The index just after the break: the next line starts here.
    public let end: Substring.Index
    /// A hard break (after "\n", "\r\n", U+2028, U+2029, …), not only an opportunity.
    public let isMandatory: Bool
}

/// libunibreak's tables are built once per process (a global `let` runs its initialiser once,
/// thread-safely).
private let lineBreakTablesReady: Void = init_linebreak()

/// The line breaks of `text` (UAX #14, Unicode's line breaking algorithm, as libunibreak
/// implements it): every break opportunity and hard break, in order, the text's end last (a
/// mandatory break). Only Character boundaries are returned, so a line never splits a grapheme
/// cluster (an emoji with its skin tone, a letter with its marks) even where the pair rules
/// would allow it.
public func lineBreaks(in text: Substring) -> [LineBreak] {
    guard !text.isEmpty else { return [] }
    _ = lineBreakTablesReady
    let bytes = Array(text.utf8).withoutLibunibreakCrashes()
    var status = [CChar](repeating: CChar(LINEBREAK_NOBREAK), count: bytes.count)
    bytes.withUnsafeBufferPointer { utf8 in
        status.withUnsafeMutableBufferPointer { set_linebreaks_utf8(utf8.baseAddress, utf8.count, nil, $0.baseAddress) }
    }
    // status[i] says whether a line may end after byte i; walk the Characters with their UTF-8
    // offsets so each status maps back to the index of the Character that follows it.
    var breaks: [LineBreak] = []
    var offset = 0
    var index = text.startIndex
    while index < text.endIndex {
        let next = text.index(after: index)
        offset += text.utf8.distance(from: index, to: next)
        let after = Int32(status[offset - 1])
        if after == LINEBREAK_MUSTBREAK || after == LINEBREAK_ALLOWBREAK {
            breaks.append(LineBreak(end: next, isMandatory: after == LINEBREAK_MUSTBREAK))
        }
        index = next
    }
    return breaks
}

extension [UInt8] {
    /// Debian's libunibreak 1.1 asserts (aborts the process) on two kinds of scalar, so they are
    /// replaced, byte for byte, by scalars of the same UTF-8 length before it sees the text:
    /// - regional indicators (flags, U+1F1E6...U+1F1FF) have no row in its pair table: they
    ///   become U+20000, an ideograph (break on either side; a flag's two halves are one
    ///   Character, so the break between them is dropped and flags still break only between flags);
    /// - U+FFFF is its end-of-text marker: it becomes U+FFFD.
    func withoutLibunibreakCrashes() -> [UInt8] {
        var bytes = self
        var i = 0
        while i + 2 < bytes.count {
            if bytes[i] == 0xEF, bytes[i + 1] == 0xBF, bytes[i + 2] == 0xBF { bytes[i + 2] = 0xBD }
            // U+1F1E6...U+1F1FF is F0 9F 87 A6...BF in UTF-8.
            if i + 3 < bytes.count, bytes[i] == 0xF0, bytes[i + 1] == 0x9F, bytes[i + 2] == 0x87,
                (0xA6...0xBF).contains(bytes[i + 3])
            {
                bytes.replaceSubrange(i..<i + 4, with: [0xF0, 0xA0, 0x80, 0x80])
            }
            i += 1
        }
        return bytes
    }
}

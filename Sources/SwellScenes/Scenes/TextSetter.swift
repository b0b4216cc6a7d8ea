import SwellRaster
import SwellText

/// A text element's font, and the caches of its load's text service (a class: shared by copies
/// of the scene).
final class TextSetter: @unchecked Sendable {
    let typesetter: Typesetter
    let font: Font
    let features: TextFeatures

    /// `pattern` is a font file when it names one (contains "/"), else a fontconfig pattern; nil
    /// when it does not resolve (scene files refuse such a font when they load, `FontCheck`).
    init?(font pattern: String, tabular: Bool, service: TextService) {
        typesetter = service.typesetter
        guard let font = try? typesetter.fonts.font(named: pattern) else { return nil }
        self.font = font
        features = tabular ? ((try? TextFeatures(["tnum"])) ?? .none) : .none
    }

    /// The width of `text` in px at `size`.
    func width(_ text: Substring, _ size: Double) -> Double {
        typesetter.shape(String(text), font: font, features: features).advance * size
    }

    /// `text` wrapped into `frame`'s width, aligned as `style` says, appended to `run`.
    func layout(_ text: String, _ style: TextStyle, in frame: FrameSize, into run: inout GlyphRun) {
        let width = Double(frame.width)
        let lines = self.lines(text, style, width: width)
        let step = style.lineHeight * style.size
        let block = step * Double(lines.count)
        let top: Double =
            switch style.valign {
            case "center": (Double(frame.height) - block) / 2
            case "bottom": Double(frame.height) - block
            default: 0
            }
        // The baseline sits so a line's em box is centred in its line step; 0.8 em is about
        // the ascent of Latin fonts (DejaVu 0.76, Quicksand 0.8).
        var y = top + (step - style.size) / 2 + style.size * 0.8
        for line in lines {
            let lineWidth = self.width(line, style.size)
            let x: Double =
                switch style.align {
                case "center": (width - lineWidth) / 2
                case "right": width - lineWidth
                default: 0
                }
            try? typesetter.layout(
                String(line), font: font, size: style.size, x: x.rounded(), y: y.rounded(), features: features,
                into: &run)
            y += step
        }
    }

    /// `text` wrapped into `width`, at most `style.maxLines` lines (the last then ends in "…").
    func lines(_ text: String, _ style: TextStyle, width: Double) -> [Substring] {
        var lines = LineWrapper(measure: { self.width($0, style.size) }, width: width).lines(of: text)
        if style.maxLines > 0, lines.count > style.maxLines {
            lines = Array(lines.prefix(style.maxLines))
            lines[lines.count - 1] = ellipsized(lines[lines.count - 1], style.size, width)
        }
        return lines
    }

    /// `line` with "…" at its end, cut back character by character until it fits `width`.
    func ellipsized(_ line: Substring, _ size: Double, _ width: Double) -> Substring {
        var kept = line
        while true {
            let trimmed = kept.reversed().drop { $0 == " " }
            kept = kept.prefix(trimmed.count)
            let candidate = Substring(kept + "…")
            if kept.isEmpty || self.width(candidate, size) <= width { return candidate }
            kept = kept.dropLast()
        }
    }
}

/// Greedy line wrapping: each line takes as many break-separated pieces as fit `width`.
///
/// Breaks follow UAX #14 (libunibreak, `lineBreaks(in:)`): hard breaks ("\n", "\r\n", U+2028,
/// U+2029, …) end a paragraph, and a line may end only at a break opportunity: after spaces
/// (which hang at the line's end and are not measured), after a hyphen, between ideographs,
/// never before "!", "…" or a closing bracket, nor inside "3.14" or after a no-break space. A
/// piece wider than the whole width is broken between characters.
struct LineWrapper {
    let measure: (Substring) -> Double
    let width: Double

    /// The characters that end a paragraph, dropped from its last line.
    static let hardBreaks: Set<Character> = ["\n", "\r\n", "\r", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}"]

    func lines(of text: String) -> [Substring] {
        var lines: [Substring] = []
        var start = text.startIndex
        var cuts: [Substring.Index] = []
        for cut in lineBreaks(in: text[...]) {
            cuts.append(cut.end)
            guard cut.isMandatory else { continue }
            var paragraph = text[start..<cut.end]
            if let last = paragraph.last, Self.hardBreaks.contains(last) { paragraph = paragraph.dropLast() }
            cuts[cuts.count - 1] = paragraph.endIndex
            lines += wrap(paragraph, at: cuts)
            start = cut.end
            cuts = []
        }
        // After a final hard break (or in an empty text) an empty line follows.
        if start == text.endIndex, text.last.map(Self.hardBreaks.contains) ?? true { lines.append(text[start...]) }
        return lines
    }

    /// `paragraph` (no hard break inside) wrapped at its break opportunities `cuts`, its end last.
    func wrap(_ paragraph: Substring, at cuts: [Substring.Index]) -> [Substring] {
        var lines: [Substring] = []
        var start = paragraph.startIndex
        var end = start
        for cut in cuts {
            if end > start, measure(Self.trimmed(paragraph[start..<cut])) > width {
                lines.append(Self.trimmed(paragraph[start..<end]))
                start = end
            }
            while measure(Self.trimmed(paragraph[start..<cut])) > width, let fit = longestFit(paragraph[start..<cut]) {
                lines.append(paragraph[start..<fit])
                start = fit
            }
            end = cut
        }
        lines.append(Self.trimmed(paragraph[start..<paragraph.endIndex]))
        return lines
    }

    /// The end of the longest prefix of `piece` (at least one character) that fits, or nil
    /// when the whole piece is one character.
    func longestFit(_ piece: Substring) -> Substring.Index? {
        var fit = piece.index(after: piece.startIndex)
        guard fit < piece.endIndex else { return nil }
        while fit < piece.endIndex {
            let next = piece.index(after: fit)
            if measure(piece[piece.startIndex..<next]) > width { break }
            fit = next
        }
        return fit < piece.endIndex ? fit : nil
    }

    static func trimmed(_ s: Substring) -> Substring {
        var end = s.endIndex
        while end > s.startIndex, s[s.index(before: end)] == " " { end = s.index(before: end) }
        return s[s.startIndex..<end]
    }
}

import SwellJSON
import SwellRaster
import SwellText

/// A parsed draw list: its frame's display list, and the `text` ops in it as laid out.
public struct DrawList {
    public var frame: DisplayList
    public var texts: [TextOp]
    /// The typesetter that laid the text out (nil when the list has no text).
    public let typesetter: Typesetter?
    /// The run `layoutText` lays each op out into before merging it (kept for its storage).
    var layoutRun = GlyphRun()

    /// Lays every text op out again into its command (after `typesetter.removeCachedLines()`,
    /// a cold frame: shaping and rasterising every glyph), each run's glyphs merged into one mask
    /// as the parser does (`GlyphRun.mergingInk`) unless `mergingInk` is false (glyph by glyph,
    /// reusing each run's storage).
    public mutating func layoutText(mergingInk: Bool = true) {
        guard let typesetter else { return }
        let visible = ClipRect(x0: 0, y0: 0, x1: frame.width, y1: frame.height)
        func layout(_ text: TextOp, into run: inout GlyphRun) {
            run.removeAll()
            try? typesetter.layout(
                text.text, font: text.font, size: text.size, x: text.x, y: text.y, features: text.features,
                visible: visible, into: &run)
        }
        // Merging, each op is laid out into one reused run and merged into a new one: the op's
        // own run holds its merged mask, and laying out into it would grow it glyph by glyph.
        var glyphs = layoutRun
        layoutRun = GlyphRun()
        for text in texts {
            withRun(of: text) { run in
                if mergingInk {
                    layout(text, into: &glyphs)
                    run = glyphs.mergingInk()
                } else {
                    layout(text, into: &run)
                }
            }
        }
        layoutRun = glyphs
    }

    /// How many text runs are merged into line masks (`GlyphRun.mergingInk`), and those masks'
    /// bytes: memory the list holds beside the glyph cache's.
    public var mergedRuns: (count: Int, bytes: Int) {
        var merged = (count: 0, bytes: 0)
        for text in texts {
            guard case .draw(let command) = frame.commands[text.commandIndex], case .glyphs(let run) = command.shape,
                let line = run.lineMask
            else { continue }
            merged.count += 1
            merged.bytes += line.byteCount
        }
        return merged
    }

    /// Empties every text op's run, keeping its storage: its glyphs let go of their masks. The
    /// bench calls it untimed before a cold frame, with `removeCachedLines`, so that the cold frame
    /// does not pay for freeing the previous frame's masks (Cairo's fonts are dropped untimed too).
    public mutating func emptyTextRuns() {
        for text in texts { withRun(of: text) { $0.removeAll() } }
        layoutRun.removeAll()
    }

    /// Calls `body` with `text`'s glyph run held once: the list's and the command's references
    /// let go (`.beginLayer` is a placeholder until the run is back), so it changes in place.
    private mutating func withRun(of text: TextOp, _ body: (inout GlyphRun) -> Void) {
        guard case .draw(var command) = frame.commands[text.commandIndex], case .glyphs(var run) = command.shape
        else { return }
        frame.commands[text.commandIndex] = .beginLayer
        command.shape = .disc(Disc(centerX: 0, centerY: 0, radius: 0))
        body(&run)
        command.shape = .glyphs(run)
        frame.commands[text.commandIndex] = .draw(command)
    }
}

/// One `text` op: what it asked for, and the command it became (`.draw` at `commandIndex`).
public struct TextOp {
    public var commandIndex = 0
    public let text: String
    /// As written in the list: a file path or a fontconfig pattern.
    public let fontName: String
    public let font: Font
    public let size: Double
    public let x: Double
    public let y: Double
    public let features: TextFeatures
    public let command: DrawCommand
}

/// `{"op": "text", "text": ..., "font": path or pattern, "size": px per em, "x", "y", "color",
/// optional "features": ["tnum", ...] and "clip"}`.
func textOp(from op: JSONField, typesetter: Typesetter, visible: ClipRect) throws(JSONFieldError) -> TextOp {
    try op.rejectUnknownMembers(allowed: ["op", "color", "clip", "text", "font", "size", "x", "y", "features"])
    let text = try op["text"].string()
    let fontField = try op["font"]
    let fontName = try fontField.string()
    let font: Font
    do {
        font = try typesetter.fonts.font(named: fontName)
    } catch {
        throw fontField.failure(error.description)
    }
    let sizeField = try op["size"]
    let size = try sizeField.number()
    do {
        try Typesetter.check(size: size)
    } catch {
        throw sizeField.failure(error.description)
    }
    var features = TextFeatures.none
    if let field = try op.optional("features") {
        var names: [String] = []
        for item in try field.array(count: 0...64) { names.append(try item.string()) }
        do {
            features = try TextFeatures(names)
        } catch {
            throw field.failure(error.description)
        }
    }
    let x = try op["x"].number(in: -1e9...1e9)
    let y = try op["y"].number(in: -1e9...1e9)
    let run: GlyphRun
    do {
        // Merged once here: a list's text stays put, so every frame composites whole lines.
        run = try typesetter.run(text, font: font, size: size, x: x, y: y, features: features, visible: visible)
            .mergingInk()
    } catch {
        throw op.failure(error.description)
    }
    let c = try op["color"].color()
    let command = DrawCommand(
        .glyphs(run), color: Color(r: c.r, g: c.g, b: c.b, a: c.a), clip: try clip(from: op.optional("clip")))
    return TextOp(
        text: text, fontName: fontName, font: font, size: size, x: x, y: y, features: features, command: command)
}

import SwellRaster
import SwellText

/// `text`: a string set in a font, wrapped into the frame's width, aligned on both axes.
///
/// Wrapping is greedy at UAX #14 line-break opportunities (`lineBreaks(in:)`, libunibreak); a word wider than the frame
/// is broken between characters. With `maxLines`, the last kept line ends in "…". The text is
/// laid out again only when its string (a `clock` value) or the frame size changes, and then
/// merged into one coverage mask (`GlyphRun.mergingInk`), so a warm frame appends the kept run,
/// composites whole lines and allocates nothing.
public struct TextScene: Scene {
    public static let aligns = ["left", "center", "right"]
    public static let valigns = ["top", "center", "bottom"]

    public static let descriptor = SceneDescriptor(
        name: "text", summary: "a string in a font, wrapped into its frame, or a live clock",
        parameters: [
            .text("text", "Text", "the string (\\n starts a new paragraph)"),
            .text("font", "DejaVu Sans", "a fontconfig pattern, or a font file's path"),
            .number("size", 32, in: 1...500, "text size, px"),
            .color("color", "#000000", "the text"),
            .choice("align", "left", of: aligns, "horizontal alignment of each line in the frame"),
            .choice("valign", "top", of: valigns, "vertical alignment of the lines in the frame"),
            .number("lineHeight", 1.2, in: 0.5...10, "distance between baselines, a multiple of size"),
            .integer("maxLines", 0, in: 0...10000, "at most this many lines, the last ending in … (0: no limit)"),
            .bool("tabular", false, "tabular digits (tnum): digits of equal width"),
            .text("clock", "", "a strftime format: show the kiosk's local time (TZ) instead of text"),
            .text("countOf", "", "the id of a ripples element: %d in text shows its ripple count"),
            .text("file", "", "a UTF-8 text file (relative to the scene file) shown instead of text; followed"),
            .integer("column", 0, in: 0...16, "with file: column N of each line, split at \"|\" (0: whole lines)"),
            .color("background", "#FFFFFF", "the background when the text is the bottom layer"),
        ],
        make: { settings, _, context in TextScene(settings, text: context.text) })

    public let background: Color
    let style: TextStyle
    public private(set) var text: String
    let clock: ClockFormat?
    /// The text file the string comes from, as the scene file names it ("" for none), and which
    /// of its `|` columns is shown (0: all of each line). The player resolves and reads it.
    public let file: String
    public let column: Int
    /// The id of the ripples element whose count replaces "%d" in `text` ("" for none).
    public let countOf: String
    /// That element's ripple count, given by the player before each frame.
    public var liveCount = 0

    public mutating func show(liveValue: Int) {
        if liveCount != liveValue { liveCount = liveValue }
    }
    /// The wall clock a `clock` reads; tests inject a fixed one. A new clock makes the shown
    /// string stale (its times were against the old one).
    public var wallClock = WallClock.system() {
        didSet { shownDuring = 0..<0 }
    }
    let setter: TextSetter?
    /// The run drawn: the laid-out glyphs merged into a mask.
    var run = GlyphRun()
    /// The run the text is laid out into (kept for its storage).
    var glyphs = GlyphRun()
    var laidOut: (text: String, size: FrameSize)?
    /// The scene times and count for which the laid-out string holds.
    var shownDuring: Range<Double> = 0..<0
    var shownCount = 0

    /// `text`: the service its font and caches come from, shared by the elements of one load.
    public init(_ settings: SceneSettings, text service: TextService = TextService()) {
        background = settings.color("background")
        text = settings.text("text")
        let format = settings.text("clock")
        clock = format.isEmpty ? nil : ClockFormat(format)
        countOf = settings.text("countOf")
        file = settings.text("file")
        column = settings.integer("column")
        style = TextStyle(
            size: settings.number("size"), color: settings.color("color"),
            align: settings.text("align"), valign: settings.text("valign"),
            lineHeight: settings.number("lineHeight"), maxLines: settings.integer("maxLines"))
        setter = TextSetter(font: settings.text("font"), tabular: settings.bool("tabular"), service: service)
    }

    /// Shows `contents` (a `file`'s text, as `TextFileContents` checked it), column `column`
    /// of it. Called when the file is loaded or changes, never per frame; the next frame lays
    /// the new string out.
    public mutating func show(fileText contents: String) {
        text = TextFileContents.column(column, of: contents)
        shownDuring = 0..<0
    }

    /// The string shown at scene time `time`.
    public func string(at time: Double) -> String {
        if !countOf.isEmpty { return text.replacing("%d", with: String(liveCount)) }
        guard let clock else { return text }
        return clock.string(wallClock.seconds(at: time), wallClock)
    }

    /// The lines `text` wraps into at `width` px, as `render` draws them.
    public func lines(of text: String, width: Double) -> [String] {
        setter?.lines(text, style, width: width).map(String.init) ?? []
    }

    public mutating func handle(_ event: TouchEvent) {}

    public mutating func render(at time: Double, size: FrameSize, into ops: inout [FrameCommand]) {
        guard let setter else { return }
        // The string is made again only when it can have changed (the clock crossed its
        // boundary, the count moved, the frame resized), so a warm frame allocates nothing.
        let stale =
            laidOut?.size != size || !shownDuring.contains(time) || (!countOf.isEmpty && shownCount != liveCount)
        if stale {
            let shown = string(at: time)
            if laidOut?.text != shown || laidOut?.size != size {
                glyphs.removeAll()
                setter.layout(shown, style, in: size, into: &glyphs)
                run = glyphs.mergingInk()
                laidOut = (shown, size)
            }
            shownDuring = time..<(nextWake(after: time) ?? .infinity)
            shownCount = liveCount
        }
        ops.append(.draw(DrawCommand(.glyphs(run), color: style.color)))
    }

    /// A clock changes only by itself, at its next second or minute.
    public func isIdle(at time: Double) -> Bool { true }

    public func nextWake(after time: Double) -> Double? {
        guard let clock else { return nil }
        let step = clock.showsSeconds ? 1.0 : 60.0
        let wall = wallClock.seconds(at: time) + wallClock.utcOffset(at: time)
        let next = ((wall / step).rounded(.down) + 1) * step
        return time + (next - wall)
    }
}

/// How a text element's lines sit in its frame.
struct TextStyle {
    let size: Double
    let color: Color
    let align: String
    let valign: String
    let lineHeight: Double
    let maxLines: Int
}

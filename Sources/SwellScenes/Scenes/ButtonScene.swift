import SwellRaster
import SwellText

/// `button` and `field`: a rounded rectangle with a centred label (a field: a left-aligned
/// placeholder in grey) that bounces on a tap with the elastic tutorial's model, reused from
/// `ElasticScene` (four edge midpoints on springs, out 0.25 s then back 0.45 s), and runs its
/// `action` on the element named by `target` when the tap ends inside it (`PageAction`).
///
/// The label is laid out once per frame size into kept storage (no allocation per frame after
/// the first). The bulge reaches `overshoot` px past the frame, so a placed button draws into
/// its frame grown by `overflow` on each side (`room`: less on the left at the screen's left
/// edge, where a placed surface cannot start), with the panel inset by that room.
public struct ButtonScene: Scene {
    static func parameters(field: Bool) -> [ParameterSpec] {
        let padding: [ParameterSpec] =
            field ? [.number("padding", 10, in: 0...10000, "gap between the placeholder and the left edge, px")] : []
        return [
            .text("label", field ? "Name" : "Button", field ? "the placeholder shown in the empty field" : "the label"),
            .text("font", LabelText.defaultPattern, "a fontconfig pattern, or a font file's path, for the label"),
            .number("size", 24, in: 4...500, "label size, px"),
            .color("color", field ? "#FFFFFF" : "#FF3B30", "the rounded rectangle"),
            .color("textColor", field ? "#C7C7CD" : "#FFFFFF", field ? "the placeholder" : "the label"),
            .number("cornerRadius", 8, in: 0...10000, "corner radius, px"),
        ] + padding + [
            .number("overshoot", 10, in: -1000...1000, "how far the edge midpoints bounce out (negative: in), px"),
            .number("outDuration", 0.25, in: 0.01...60, "seconds of the outward spring"),
            .number("outDamping", 0.9, in: 0.01...10, "damping ratio of the outward spring"),
            .number("outVelocity", 1.5, in: -100...100, "initial velocity of the outward spring"),
            .number("backDuration", 0.45, in: 0.01...60, "seconds of the spring back"),
            .number("backDamping", 0.15, in: 0.01...10, "damping ratio of the spring back"),
            .number("backVelocity", 5.5, in: -100...100, "initial velocity of the spring back"),
            .choice("action", "none", of: PageAction.kinds, "what a tap does to the target element"),
            .text("target", "-", "the id of the element the action acts on (- for none)"),
            .color("background", "#FFFFFF", "the background when the button is the bottom layer"),
        ]
    }

    public static let descriptor = SceneDescriptor(
        name: "button", summary: "a rounded button with a label that bounces and runs an action on a tap",
        parameters: parameters(field: false),
        make: { settings, _, context in ButtonScene(settings, isField: false, text: context.text) })

    public static let fieldDescriptor = SceneDescriptor(
        name: "field", summary: "a rounded text field with a placeholder that bounces on a tap",
        parameters: parameters(field: true),
        make: { settings, _, context in ButtonScene(settings, isField: true, text: context.text) })

    public let background: Color
    public let action: PageAction
    /// How far past its frame a bounce reaches, px.
    public let overflow: Int
    var panel: ElasticScene
    let isField: Bool
    let text: String
    let textColor: Color
    let textSize: Double
    let padding: Double
    let label: LabelText?
    var run = GlyphRun()
    var laidOutFor: FrameSize?
    /// How far the area drawn into reaches past the frame on each side (zero when not placed).
    public var room = Room()

    /// Margins around a button's frame in the area it draws into, px.
    public struct Room: Equatable, Sendable {
        public var left = 0
        public var top = 0
        public var right = 0
        public var bottom = 0

        public init(left: Int = 0, top: Int = 0, right: Int = 0, bottom: Int = 0) {
            (self.left, self.top, self.right, self.bottom) = (left, top, right, bottom)
        }
    }

    /// `text`: the service the label's font and caches come from, shared by the elements of one load.
    public init(_ settings: SceneSettings, isField: Bool, text service: TextService = TextService()) {
        panel = ElasticScene(settings, inset: 0)
        self.isField = isField
        background = settings.color("background")
        text = settings.text("label")
        textColor = settings.color("textColor")
        textSize = settings.number("size")
        padding = isField ? settings.number("padding") : 0
        label = LabelText(pattern: settings.text("font"), service: service)
        overflow = Int(abs(settings.number("overshoot")).rounded(.up)) + 2
        action = PageAction(kind: settings.text("action"), target: settings.text("target"))
    }

    public mutating func handle(_ event: TouchEvent) { panel.handle(event) }

    public mutating func render(at time: Double, size: FrameSize, into ops: inout [FrameCommand]) {
        let x0 = Double(room.left)
        let y0 = Double(room.top)
        let x1 = Double(size.width - room.right)
        let y1 = Double(size.height - room.bottom)
        panel.renderPanel(at: time, x0: x0, y0: y0, x1: x1, y1: y1, into: &ops)
        guard let label else { return }
        if laidOutFor != size {
            run.removeAll()
            let frame = FrameSize(width: max(0, Int(x1 - x0)), height: max(0, Int(y1 - y0)))
            label.layout(
                text, size: textSize, in: frame, at: (x0, y0), padding: isField ? padding : nil, into: &run)
            laidOutFor = size
        }
        ops.append(.draw(DrawCommand(.glyphs(run), color: textColor)))
    }

    public func isIdle(at time: Double) -> Bool { panel.isIdle(at: time) }
}

/// A label's font, and the caches of its load's text service (a class: shared by copies of the
/// scene).
final class LabelText: @unchecked Sendable {
    static let defaultPattern = "Quicksand:bold"
    let typesetter: Typesetter
    let font: Font

    /// Only the default pattern falls back (to DejaVu Sans Bold, a dependency of the package:
    /// Quicksand is only recommended); a font the scene file names was checked when it loaded.
    init?(pattern: String, service: TextService) {
        typesetter = service.typesetter
        let fonts = typesetter.fonts
        guard
            let font = (try? fonts.font(named: pattern))
                ?? (pattern == Self.defaultPattern ? try? fonts.font(pattern: "DejaVu Sans:bold") : nil)
        else { return nil }
        self.font = font
    }

    /// Centred in `frame`, or `padding` px from its left edge (the tutorial insets a field's
    /// text by 10 pt), its baseline placed so the capitals sit in the middle.
    func layout(
        _ text: String, size: Double, in frame: FrameSize, at corner: (x: Double, y: Double), padding: Double?,
        into run: inout GlyphRun
    ) {
        let line = typesetter.shape(text, font: font, features: .none)
        let width = line.advance * size
        let x = corner.x + (padding ?? ((Double(frame.width) - width) / 2).rounded())
        let y = corner.y + ((Double(frame.height) + size * 0.7) / 2).rounded()
        try? typesetter.layout(text, font: font, size: size, x: x, y: y, into: &run)
    }
}

/// What a button's tap does to another element of the page.
public struct PageAction: Equatable, Sendable {
    /// `page`: the target is another scene file (relative to this one) that replaces the page.
    public static let kinds = ["none", "animate", "next", "clear", "page"]
    /// The built-in scene each action acts on.
    public static let targetScene = ["animate": "wave", "next": "slideshow", "clear": "ripples"]
    public var kind: String
    public var target: String
}

/// An element that a button's action can act on.
public protocol ActionTarget {
    /// Runs `action` ("animate", "next", "clear") at `time`; false when this element has no such action.
    mutating func perform(_ action: String, at time: Double) -> Bool
}

extension WaveScene: ActionTarget {
    public mutating func perform(_ action: String, at time: Double) -> Bool {
        guard action == "animate" else { return false }
        runTimers(until: time)
        change(at: time)
        return true
    }
}

extension RipplesScene: ActionTarget {
    public mutating func perform(_ action: String, at time: Double) -> Bool {
        guard action == "clear" else { return false }
        count = 0
        head = 0
        return true
    }
}

extension SlideshowScene: ActionTarget {
    public mutating func perform(_ action: String, at time: Double) -> Bool {
        guard action == "next" else { return false }
        advance(to: time)
        change(at: time)
        return true
    }
}

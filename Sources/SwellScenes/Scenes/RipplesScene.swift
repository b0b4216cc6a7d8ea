import SwellRaster
import SwellText

/// `ripples`: the multi-touch ripple pond. Every touch-down and every move drops a ripple at
/// the finger in that finger's colour; rings grow at `speed` px/s and fade linearly to white
/// over `lifetime` seconds, stroked `width` px at `opacity` on white. At most `limit` ripples
/// live at once (the oldest is dropped); expired ones are trimmed every frame; the pond is
/// idle when empty. Optionally shows "Ripples: N" in a rounded title font (Quicksand Bold, else
/// DejaVu Sans Bold) with tabular digits, at SwiftUI's `.largeTitle` size scaled to the screen.
public struct RipplesScene: Scene {
    /// Six colours, given to fingers in order of arrival (a finger keeps its colour until it lifts;
    /// a new finger takes the first colour no finger down holds).
    public static let palette: [Color] = ["#FF3B30", "#FF9500", "#FFCC00", "#34C759", "#007AFF", "#AF52DE"].map {
        Color(hex: $0)!
    }

    public static let descriptor = SceneDescriptor(
        name: "ripples",
        summary: "multi-touch ripple pond: rings grow from every touch and fade to white",
        parameters: [
            .number("speed", 40, in: 0...10000, "ring growth in pixels per second"),
            .number("lifetime", 14, in: 0.01...3600, "seconds until a ripple has faded to white and is removed"),
            .number("width", 2, in: 0.1...200, "ring stroke width in pixels"),
            .number("opacity", 0.5, in: 0...1, "ring opacity"),
            .integer("limit", 1000, in: 1...100_000, "most ripples alive at once (the oldest is dropped)"),
            .bool("moves", true, "drop a ripple on every finger move, not only on touch-down"),
            .bool("metrics", false, "show \"Ripples: N\" in the top-left corner"),
            .color("background", "#FFFFFF", "the pond"),
        ],
        make: { settings, _, context in RipplesScene(settings, text: context.text) })

    struct Ripple {
        var x: Double
        var y: Double
        var start: Double
        var color: Color
    }

    public let background: Color
    let speed: Double
    let lifetime: Double
    let width: Double
    let opacity: Double
    let spawnOnMoves: Bool
    let showMetrics: Bool
    /// A ring buffer: `count` ripples starting at `head`, oldest first (fixed capacity, no allocation).
    var ripples: [Ripple]
    var head = 0
    public internal(set) var count = 0
    public var liveValue: Int? { count }
    /// Palette slot per finger down, in arrival order.
    var fingers: [(finger: Int, slot: Int)] = []
    /// The counter's glyphs, laid out again into the same storage when the count changes.
    var counter = GlyphRun()
    /// The count and frame height `counter` was laid out for (-1: not yet).
    var counterCount = -1
    var counterHeight = -1
    let counterText: CounterText?

    /// `text`: the service the counter's font and caches come from, shared by the elements of one load.
    public init(_ settings: SceneSettings, text service: TextService = TextService()) {
        background = settings.color("background")
        speed = settings.number("speed")
        lifetime = settings.number("lifetime")
        width = settings.number("width")
        opacity = settings.number("opacity")
        spawnOnMoves = settings.bool("moves")
        showMetrics = settings.bool("metrics")
        ripples = Array(repeating: Ripple(x: 0, y: 0, start: 0, color: .white), count: settings.integer("limit"))
        fingers.reserveCapacity(16)
        counterText = showMetrics ? CounterText(service: service) : nil
    }

    mutating func append(x: Double, y: Double, time: Double, color: Color) {
        if count == ripples.count {
            head = (head + 1) % ripples.count  // drop the oldest
            count -= 1
        }
        ripples[(head + count) % ripples.count] = Ripple(x: x, y: y, start: time, color: color)
        count += 1
    }

    /// Drops ripples that have fully faded by `time` (they are oldest first).
    mutating func trim(at time: Double) {
        while count > 0 && ripples[head].start + lifetime <= time {
            head = (head + 1) % ripples.count
            count -= 1
        }
    }

    func slot(of finger: Int) -> Int? { fingers.first { $0.finger == finger }?.slot }

    public mutating func handle(_ event: TouchEvent) {
        trim(at: event.time)
        switch event.phase {
        case .began:
            if slot(of: event.finger) == nil {
                var free = 0
                while fingers.contains(where: { $0.slot == free }) { free += 1 }
                fingers.append((event.finger, free))
            }
            append(x: event.x, y: event.y, time: event.time, color: Self.palette[slot(of: event.finger)! % 6])
        case .moved:
            guard spawnOnMoves else { return }
            // A move from a finger whose touch-down was missed still gets a colour.
            let colour = Self.palette[(slot(of: event.finger) ?? 0) % 6]
            append(x: event.x, y: event.y, time: event.time, color: colour)
        case .ended:
            fingers.removeAll { $0.finger == event.finger }
        }
    }

    public mutating func render(at time: Double, size: FrameSize, into ops: inout [FrameCommand]) {
        trim(at: time)
        for k in 0..<count {
            let ripple = ripples[(head + k) % ripples.count]
            let age = time - ripple.start
            guard age >= 0 else { continue }  // dropped after this frame's time (events lead frames)
            let color = ripple.color.mixed(with: .white, min(age / lifetime, 1)).withAlpha(opacity)
            let ring = Ring(centerX: ripple.x, centerY: ripple.y, radius: speed * age, width: width)
            ops.append(.draw(DrawCommand(.ring(ring), color: color)))
        }
        if let counterText {
            // Laid out again only when the count or the frame's height changed: an unchanged
            // counter costs no string, no cache lookup and no allocation (scripts/bench counts).
            if count != counterCount || size.height != counterHeight {
                counter.removeAll()
                counterText.layout("Ripples: \(count)", height: size.height, into: &counter)
                counterCount = count
                counterHeight = size.height
            }
            ops.append(.draw(DrawCommand(.glyphs(counter), color: Color(r: 0, g: 0, b: 0, a: 0.75))))
        }
    }

    public func isIdle(at time: Double) -> Bool {
        // The newest ripple is the last to expire.
        count == 0 || ripples[(head + count - 1) % ripples.count].start + lifetime <= time
    }
}

/// The ripple counter's font, and the caches of its load's text service (a class: shared by
/// copies of the scene, laid out on the thread that renders the scene). `.largeTitle` is 34 pt
/// on a 667-pt-tall phone screen; here the size is that share of the frame's height (55 px at
/// 1080 rows), at least 17 px.
public final class CounterText: @unchecked Sendable {
    let typesetter: Typesetter
    let font: Font?
    let features = try! TextFeatures(["tnum"])

    public init(service: TextService = TextService()) {
        typesetter = service.typesetter
        font =
            (try? typesetter.fonts.font(pattern: "Quicksand:bold"))
            ?? (try? typesetter.fonts.font(pattern: "DejaVu Sans:bold"))
    }

    func size(forHeight height: Int) -> Double { max(17, (Double(height) * 34 / 667).rounded()) }

    public func layout(_ text: String, height: Int, into run: inout GlyphRun) {
        guard let font else { return }
        let size = size(forHeight: height)
        try? typesetter.layout(
            text, font: font, size: size, x: (size * 0.5).rounded(), y: (size * 1.3).rounded(), features: features,
            into: &run)
    }
}

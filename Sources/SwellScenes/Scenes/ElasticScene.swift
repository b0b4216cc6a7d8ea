import SwellRaster

/// `elastic`: a filled rounded panel whose four edges are quadratic Béziers with their control
/// points at the edge midpoints. A tap pushes the control points `overshoot` px outward
/// (negative: inward) on a spring (UIKit form: 0.25 s, damping 0.9, velocity 1.5), then
/// springs them back (0.45 s, damping 0.15, velocity 5.5): the panel bulges and wobbles.
public struct ElasticScene: Scene {
    public static let descriptor = SceneDescriptor(
        name: "elastic",
        summary: "a rounded panel whose edges bulge out and wobble back on a tap",
        parameters: [
            .number("overshoot", 10, in: -1000...1000, "how far the edge midpoints move out (negative: in), px"),
            .number("inset", 40, in: 0...10000, "gap between the panel and the screen edges, px"),
            .number("cornerRadius", 24, in: 0...10000, "corner radius, px"),
            .number("outDuration", 0.25, in: 0.01...60, "seconds of the outward spring"),
            .number("outDamping", 0.9, in: 0.01...10, "damping ratio of the outward spring"),
            .number(
                "outVelocity", 1.5, in: -100...100, "initial velocity of the outward spring (distances per second)"),
            .number("backDuration", 0.45, in: 0.01...60, "seconds of the spring back"),
            .number("backDamping", 0.15, in: 0.01...10, "damping ratio of the spring back"),
            .number("backVelocity", 5.5, in: -100...100, "initial velocity of the spring back"),
            .color("color", "#5856D6", "the panel"),
            .color("background", "#FFFFFF", "the background"),
        ],
        make: { settings, _, _ in ElasticScene(settings) })

    public let background: Color
    let color: Color
    let overshoot: Double
    let inset: Double
    let cornerRadius: Double
    let outward: Animation
    let back: Animation
    var offset = AnimatedValue(0)
    /// When the spring back starts (the outward spring's end), if it has not started yet.
    var backStart: Double?
    var path = Path()

    /// `fixedInset` replaces the `inset` parameter (a button's panel fills its frame).
    public init(_ settings: SceneSettings, inset fixedInset: Double? = nil) {
        background = settings.color("background")
        color = settings.color("color")
        overshoot = settings.number("overshoot")
        inset = fixedInset ?? settings.number("inset")
        cornerRadius = settings.number("cornerRadius")
        outward = .spring(
            Spring(
                duration: settings.number("outDuration"), dampingRatio: settings.number("outDamping"),
                initialVelocity: settings.number("outVelocity")))
        back = .spring(
            Spring(
                duration: settings.number("backDuration"), dampingRatio: settings.number("backDamping"),
                initialVelocity: settings.number("backVelocity")))
        path.elements.reserveCapacity(10)
    }

    /// Starts the spring back at its own time once the outward spring has finished.
    mutating func advance(to time: Double) {
        if let start = backStart, start <= time {
            offset.animate(to: 0, at: start, with: back)
            backStart = nil
        }
    }

    public mutating func handle(_ event: TouchEvent) {
        advance(to: event.time)
        guard event.phase == .began else { return }
        offset.animate(to: overshoot, at: event.time, with: outward)
        backStart = event.time + outward.cycleDuration
    }

    public mutating func render(at time: Double, size: FrameSize, into ops: inout [FrameCommand]) {
        renderPanel(
            at: time, x0: inset, y0: inset, x1: Double(size.width) - inset, y1: Double(size.height) - inset,
            into: &ops)
    }

    /// Draws the panel over [x0, x1) x [y0, y1), its bulge reaching past that rectangle.
    mutating func renderPanel(
        at time: Double, x0: Double, y0: Double, x1: Double, y1: Double, into ops: inout [FrameCommand]
    ) {
        advance(to: time)
        guard x1 > x0, y1 > y0 else { return }
        let r = min(cornerRadius, (x1 - x0) / 2, (y1 - y0) / 2)
        let midX = (x0 + x1) / 2
        let midY = (y0 + y1) / 2
        let d = offset.value(at: time)
        path.removeAll()
        path.move(to: x0 + r, y0)
        path.quad(control: midX, y0 - d, to: x1 - r, y0)
        path.quad(control: x1, y0, to: x1, y0 + r)
        path.quad(control: x1 + d, midY, to: x1, y1 - r)
        path.quad(control: x1, y1, to: x1 - r, y1)
        path.quad(control: midX, y1 + d, to: x0 + r, y1)
        path.quad(control: x0, y1, to: x0, y1 - r)
        path.quad(control: x0 - d, midY, to: x0, y0 + r)
        path.quad(control: x0, y0, to: x0 + r, y0)
        path.close()
        ops.append(.draw(DrawCommand(.path(path), color: color)))
    }

    public func isIdle(at time: Double) -> Bool {
        // A spring back not yet started (state is only advanced when rendering) still moves.
        if let start = backStart { return time >= start + back.cycleDuration }
        return !offset.isAnimating(at: time)
    }
}

import SwellRaster

#if canImport(Glibc)
    import Glibc
#endif

/// `flow`: two layered filled waves flowing continuously as a background — orange at 50 %
/// behind, red in front, wavelength 50 px per radian, height 30 px, the front one half a
/// wave ahead so crests and troughs interleave.
public struct FlowScene: Scene {
    public static let descriptor = SceneDescriptor(
        name: "flow",
        summary: "two layered filled waves (orange 50 %, red) flowing continuously",
        parameters: [
            .number("wavelength", 50, in: 0.1...100_000, "pixels per radian of the waves"),
            .number("height", 30, in: 0...10000, "wave amplitude, px"),
            .number("level", 0.5, in: 0...1, "the back wave's axis as a fraction of the screen height"),
            .number("gap", 30, in: -10000...10000, "how far below the back wave the front wave's axis is, px"),
            .number("period", 2, in: 0.01...3600, "seconds for the waves to flow one wavelength (2π)"),
            .color("back", "#FF950080", "the back wave (orange at 50 %)"),
            .color("front", "#FF3B30", "the front wave"),
            .color("background", "#FFFFFF", "the background"),
            .choice(
                "phases", "time", of: ["time", "scroll"],
                "time: the waves flow on their own; scroll: their phases follow the element's place on a scrolling page"
            ),
        ],
        make: { settings, _, _ in FlowScene(settings) })

    public let background: Color
    let backColor: Color
    let frontColor: Color
    let wavelength: Double
    let height: Double
    let level: Double
    let gap: Double
    let flow: Animation
    let followsScroll: Bool
    /// The element's top on the screen, px (set by the page as it scrolls).
    var screenTop = 0.0

    public init(_ settings: SceneSettings) {
        background = settings.color("background")
        backColor = settings.color("back")
        frontColor = settings.color("front")
        wavelength = 2 * Double.pi * settings.number("wavelength")
        height = settings.number("height")
        level = settings.number("level")
        gap = settings.number("gap")
        flow = Animation.linear(duration: settings.number("period")).repeatForever(autoreverses: false)
        followsScroll = settings.text("phases") == "scroll"
    }

    public func handle(_ event: TouchEvent) {}

    public mutating func render(at time: Double, size: FrameSize, into ops: inout [FrameCommand]) {
        let phase = 2 * Double.pi * flow.progress(at: time)
        let axis = Double(size.height) * level
        // The scroll tutorial's phases: back −(top + 45) · 0.7°, front top · 0.7°.
        let degrees = Double.pi / 180
        let backPhase = followsScroll ? -(screenTop + 45) * 0.7 * degrees : phase
        let frontPhase = followsScroll ? screenTop * 0.7 * degrees : phase + Double.pi
        let backWave = Wave(baseline: axis, amplitude: height, wavelength: wavelength, phase: backPhase)
        let frontWave = Wave(baseline: axis + gap, amplitude: height, wavelength: wavelength, phase: frontPhase)
        ops.append(.draw(DrawCommand(.waveFill(backWave), color: backColor)))
        ops.append(.draw(DrawCommand(.waveFill(frontWave), color: frontColor)))
    }

    public func isIdle(at time: Double) -> Bool { followsScroll }
}

/// An element whose drawing follows where a scrolling page puts it on the screen.
public protocol ScrollFollower {
    mutating func follow(screenTop: Double)
}

extension FlowScene: ScrollFollower {
    public mutating func follow(screenTop: Double) { self.screenTop = screenTop }
}

import SwellRaster

/// A scene is a function of time and input: after the same events, `render(at:)` at the same
/// time gives the same ops, whatever frames were rendered before (time-driven state changes,
/// such as timers and the second half of a spring sequence, are applied at their own exact
/// times, never at the time of the frame that notices them). Events arrive in time order and
/// never earlier than a frame already rendered.
public protocol Scene {
    /// The colour under everything when this scene is the bottom layer.
    var background: Color { get }
    /// Applies one touch event (at `event.time`).
    mutating func handle(_ event: TouchEvent)
    /// Appends the frame at `time` to `ops`. May update internal state that depends only on
    /// time (trimming expired ripples, timers), which is why it is mutating.
    mutating func render(at time: Double, size: FrameSize, into ops: inout [FrameCommand])
    /// True when nothing moves at `time` and nothing will until the next input or `nextWake`: a
    /// runner may stop drawing and sleep until then.
    func isIdle(at time: Double) -> Bool
    /// While idle, the time at which the scene moves again by itself (a timer: the slideshow's
    /// next picture), or nil when only input moves it. A runner that sleeps while idle wakes then.
    func nextWake(after time: Double) -> Double?
    /// How far past its frame a placed element draws, px (a bouncing button's bulge).
    var overflow: Int { get }
    /// A number other elements may show (a ripple pond's count), or nil.
    var liveValue: Int? { get }
    /// Takes the number of the element this one shows (`countOf`); most scenes ignore it.
    mutating func show(liveValue: Int)
    /// Waits for work the scene does on other threads (a slideshow decoding its next picture).
    func finishBackgroundWork()
    /// Whether the scene has work on other threads not yet done (a benchmark gives it the idle
    /// part of each frame, as a kiosk's render thread sleeps then).
    var hasBackgroundWork: Bool { get }
}

extension Scene {
    /// Scenes without timers are moved only by input.
    public func nextWake(after time: Double) -> Double? { nil }
    public var overflow: Int { 0 }
    public var liveValue: Int? { nil }
    public mutating func show(liveValue: Int) {}
    public func finishBackgroundWork() {}
    public var hasBackgroundWork: Bool { false }
}

extension Color {
    /// Linear interpolation between two colours, component by component.
    @inlinable
    func mixed(with other: Color, _ t: Double) -> Color {
        Color(r: r + (other.r - r) * t, g: g + (other.g - g) * t, b: b + (other.b - b) * t, a: a + (other.a - a) * t)
    }

    @inlinable
    func withAlpha(_ alpha: Double) -> Color { Color(r: r, g: g, b: b, a: alpha) }
}

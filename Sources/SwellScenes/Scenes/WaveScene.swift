import SwellRaster

#if canImport(Glibc)
    import Glibc
#endif

/// `wave`: a filled sine wave in a band at the bottom of the screen. A tap — or, with no input,
/// a timer — animates amplitude and frequency to new random values with easeInOut, alternating
/// between a tall, tight wave (amplitude 30–60, frequency 0.2–0.4) and a low, long one
/// (amplitude 5–15, frequency 0.05–0.2).
public struct WaveScene: Scene {
    public static let descriptor = SceneDescriptor(
        name: "wave",
        summary: "a filled sine wave; a tap or the timer eases it to a new random shape",
        parameters: [
            .number("amplitude", 10, in: 0...2000, "starting amplitude in pixels"),
            .number("frequency", 0.1, in: 0.0001...10, "starting frequency in radians per pixel"),
            .number(
                "band", 300, in: 1...20000, "height in pixels of the band at the bottom; the wave's axis is its middle"),
            .number("duration", 3, in: 0.01...600, "seconds each change takes (easeInOut)"),
            .number("interval", 4, in: 0...3600, "seconds between timed changes after the last change (0: taps only)"),
            .integer("seed", 1, in: 0...Int(Int32.max), "seed of the random targets"),
            .color("color", "#007AFF", "the wave's colour"),
            .color("background", "#FFFFFF", "the background"),
        ],
        make: { settings, _, _ in WaveScene(settings) })

    public let background: Color
    let color: Color
    let band: Double
    let duration: Double
    let interval: Double
    var amplitude: AnimatedValue
    var frequency: AnimatedValue
    var random: SceneRandom
    var nextIsTall = true
    var nextTimer: Double

    public init(_ settings: SceneSettings) {
        background = settings.color("background")
        color = settings.color("color")
        band = settings.number("band")
        duration = settings.number("duration")
        interval = settings.number("interval")
        amplitude = AnimatedValue(settings.number("amplitude"))
        frequency = AnimatedValue(settings.number("frequency"))
        random = SceneRandom(seed: UInt64(settings.integer("seed")))
        nextTimer = interval > 0 ? interval : .infinity
    }

    /// Starts the next random change at `time`.
    mutating func change(at time: Double) {
        let animation = Animation.easeInOut(duration: duration)
        let targetAmplitude = nextIsTall ? random.uniform(30...60) : random.uniform(5...15)
        let targetFrequency = nextIsTall ? random.uniform(0.2...0.4) : random.uniform(0.05...0.2)
        nextIsTall.toggle()
        amplitude.animate(to: targetAmplitude, at: time, with: animation)
        frequency.animate(to: targetFrequency, at: time, with: animation)
        nextTimer = interval > 0 ? time + interval : .infinity
    }

    /// Fires the timer for every deadline up to `time`, each at its own deadline.
    mutating func runTimers(until time: Double) {
        while nextTimer <= time { change(at: nextTimer) }
    }

    public mutating func handle(_ event: TouchEvent) {
        runTimers(until: event.time)
        if event.phase == .began { change(at: event.time) }
    }

    public mutating func render(at time: Double, size: FrameSize, into ops: inout [FrameCommand]) {
        runTimers(until: time)
        let height = Double(size.height)
        let bandHeight = min(band, height)
        let wave = Wave(
            baseline: height - bandHeight / 2, amplitude: amplitude.value(at: time),
            wavelength: 2 * Double.pi / frequency.value(at: time), phase: 0)
        ops.append(.draw(DrawCommand(.waveFill(wave), color: color)))
    }

    /// Idle between changes (the wave stands still until the timer, `nextWake`, or a tap).
    public func isIdle(at time: Double) -> Bool {
        time < nextTimer && !amplitude.isAnimating(at: time) && !frequency.isAnimating(at: time)
    }

    public func nextWake(after time: Double) -> Double? { nextTimer.isFinite ? nextTimer : nil }
}

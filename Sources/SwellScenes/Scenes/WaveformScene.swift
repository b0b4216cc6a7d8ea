import SwellRaster

#if canImport(Glibc)
    import Glibc
#endif

/// `waveform`: Siri-like waves. N stroked sine waves (strength 50, frequency 10, width 5) with
/// the parabolic envelope 1 − x², all with a phase flowing linearly by 2π per second forever;
/// wave i is drawn at opacity i/N, 10·i px lower, and the whole bundle is masked by a
/// horizontal gradient clear → white → clear (SwiftUI's `.mask(LinearGradient(...))`).
///
/// Frequency is in radians across the width (the original's `sin(x / (width / frequency) + phase)`).
public struct WaveformScene: Scene {
    public static let descriptor = SceneDescriptor(
        name: "waveform",
        summary: "Siri-like stroked waves with a flowing phase under a fading mask",
        parameters: [
            .integer("waves", 10, in: 1...200, "number of waves N (wave i at opacity i/N)"),
            .number("strength", 50, in: 0...10000, "amplitude in pixels at the middle of the screen"),
            .number("frequency", 10, in: 0.001...1000, "radians of phase across the screen width"),
            .number("lineWidth", 5, in: 0.1...500, "stroke width in pixels"),
            .number("spacing", 10, in: -1000...1000, "vertical offset between waves, px"),
            .number("period", 1, in: 0.01...3600, "seconds for the phase to flow through 2π"),
            .bool("mask", true, "fade the waves out towards the left and right edges"),
            .color("color", "#FFFFFF", "stroke colour (its alpha scales every wave)"),
            .color("background", "#007AFF", "the background"),
        ],
        make: { settings, _, _ in WaveformScene(settings) })

    public let background: Color
    let color: Color
    let waves: Int
    let strength: Double
    let frequency: Double
    let lineWidth: Double
    let spacing: Double
    let phase: Animation
    let masked: Bool
    var mask = HorizontalGradientMask(stops: [])
    var maskWidth = -1

    public init(_ settings: SceneSettings) {
        background = settings.color("background")
        color = settings.color("color")
        waves = settings.integer("waves")
        strength = settings.number("strength")
        frequency = settings.number("frequency")
        lineWidth = settings.number("lineWidth")
        spacing = settings.number("spacing")
        phase = Animation.linear(duration: settings.number("period")).repeatForever(autoreverses: false)
        masked = settings.bool("mask")
    }

    public func handle(_ event: TouchEvent) {}

    public mutating func render(at time: Double, size: FrameSize, into ops: inout [FrameCommand]) {
        let width = Double(size.width)
        let phaseNow = 2 * Double.pi * phase.progress(at: time)
        // The bundle is centred vertically: wave i sits spacing·i below the first.
        let top = Double(size.height) / 2 - spacing * Double(waves - 1) / 2
        if masked { ops.append(.beginLayer) }
        for i in 0..<waves {
            let opacity = Double(i) / Double(waves)
            guard opacity > 0 else { continue }
            let wave = Wave(
                baseline: top + spacing * Double(i), amplitude: strength,
                wavelength: 2 * Double.pi * width / frequency, phase: phaseNow)
            let stroke = WaveStroke(wave: wave, envelope: .parabola, width: lineWidth, length: width)
            ops.append(.draw(DrawCommand(.waveStroke(stroke), color: color.withAlpha(color.a * opacity))))
        }
        if masked {
            if maskWidth != size.width {
                mask = HorizontalGradientMask(stops: [
                    MaskStop(x: 0, alpha: 0), MaskStop(x: width / 2, alpha: 1), MaskStop(x: width, alpha: 0),
                ])
                maskWidth = size.width
            }
            ops.append(.endLayer(mask))
        }
    }

    public func isIdle(at time: Double) -> Bool { false }
}

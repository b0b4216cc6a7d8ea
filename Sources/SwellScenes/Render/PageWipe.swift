import SwellRaster

#if canImport(Glibc)
    import Glibc
#endif

/// The switch from one frozen picture to what is shown now: the page a tap left, or a playlist's
/// outgoing item, drawn once into a buffer as it was at the change and laid over the new one.
/// A wipe (pages' page switch) wipes it away from the top, above the slideshow tutorial's rising
/// wave (amplitude 36 px, wavelength 314 px), easeOut over `duration` seconds from the change; a
/// crossfade lays it over the new one at an alpha falling linearly from 1 to 0.
struct PageWipe {
    enum Style {
        case wipe, crossfade
    }

    private var outgoing: PixelBuffer?
    private let renderer = FrameRenderer()
    /// When the switch began (nil: none under way).
    private var start: Double?
    private var style = Style.wipe
    private var duration = ScenePlayer.pageTransition
    private var edge = Path()

    /// Draws `list` (the old page at `time`, `size` big) into the outgoing picture and starts
    /// the switch at `time`, in `style` over `duration` seconds (more than 0).
    mutating func freeze(
        _ list: DisplayList, size: FrameSize, at time: Double, style: Style = .wipe,
        duration: Double = ScenePlayer.pageTransition
    ) {
        if outgoing?.surface.width != size.width || outgoing?.surface.height != size.height {
            outgoing = PixelBuffer(width: size.width, height: size.height)
        }
        if let outgoing { renderer.render(list, into: outgoing.surface, tracksDamage: false) }
        start = time
        self.style = style
        self.duration = duration
    }

    /// Ends the switch under way, if any (a cut).
    mutating func stop() { start = nil }

    func isIdle(at time: Double) -> Bool {
        guard let start else { return true }
        return time >= start + duration
    }

    /// When the switch under way ends (nil: none).
    var end: Double? { start.map { $0 + duration } }

    /// Appends the old page over the new one at `time` (nothing once the switch is over).
    mutating func append(at time: Double, size: FrameSize, into commands: inout [FrameCommand]) {
        guard let start, let outgoing else { return }
        let progress = (time - start) / duration
        guard progress < 1 else {
            self.start = nil
            return
        }
        if style == .crossfade {
            commands.append(.image(outgoing, alpha: Float(1 - max(0, progress))))
            return
        }
        let pct = TimingCurve.easeOut.value(at: progress)
        let width = Double(size.width)
        let amplitude = 36.0
        let mean = (1 - pct) * (Double(size.height) + 2 * amplitude) - amplitude
        let steps = max(1, size.width / 2)
        edge.removeAll()
        edge.move(to: 0, 0)
        for i in 0...steps {
            let x = width * Double(i) / Double(steps)
            edge.line(to: x, mean + amplitude * sin(2 * Double.pi * x / 314 + pct * 4 * Double.pi))
        }
        edge.line(to: width, 0)
        edge.close()
        commands.append(.maskedImage(outgoing, edge))
    }
}

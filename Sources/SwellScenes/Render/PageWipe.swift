import SwellRaster

#if canImport(Glibc)
    import Glibc
#endif

/// The page switch's wave wipe: the page a tap left, frozen as it was then, wiped away over the
/// new one from the top, above the slideshow tutorial's rising wave (amplitude 36 px,
/// wavelength 314 px), easeOut over `ScenePlayer.pageTransition` seconds from the tap.
struct PageWipe {
    private var outgoing: PixelBuffer?
    private let renderer = FrameRenderer()
    /// When the wipe began (nil: no wipe under way).
    private var start: Double?
    private var edge = Path()

    /// Draws `list` (the old page at `time`, `size` big) into the outgoing picture and starts
    /// the wipe at `time`.
    mutating func freeze(_ list: DisplayList, size: FrameSize, at time: Double) {
        if outgoing?.surface.width != size.width || outgoing?.surface.height != size.height {
            outgoing = PixelBuffer(width: size.width, height: size.height)
        }
        if let outgoing { renderer.render(list, into: outgoing.surface, tracksDamage: false) }
        start = time
    }

    func isIdle(at time: Double) -> Bool {
        guard let start else { return true }
        return time >= start + ScenePlayer.pageTransition
    }

    /// Appends the old page over the new one at `time` (nothing once the wipe is over).
    mutating func append(at time: Double, size: FrameSize, into commands: inout [FrameCommand]) {
        guard let start, let outgoing else { return }
        let pct = TimingCurve.easeOut.value(at: (time - start) / ScenePlayer.pageTransition)
        guard pct < 1 else {
            self.start = nil
            return
        }
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

import SwellRaster
import Testing

/// A wave stroke drawn in several bands computes its columns once per frame and the bands read
/// them (`StrokeColumnTable`): the pixels must be the bytes of columns computed in every band,
/// and of the plain op-by-op pipeline, for any band cut and thread count.
@Suite struct SharedStrokeColumnsTests {
    /// A waveform-like bundle of strokes (fast and exact-offset paths, some too bent to share)
    /// across a frame wide enough for several fill items per stroke, sometimes in a masked
    /// layer, sometimes clipped, over random band heights on 1–3 threads.
    @Test func sharedColumnsGiveTheBytesOfPerBandColumns() {
        var random = SeededRandom(seed: 0x5354_524B)
        var shared = 0
        for round in 0..<24 {
            let frame = Self.bundle(&random, width: Int.random(in: 300...1300, using: &random))
            let plain = PixelBuffer(width: frame.width, height: frame.height)
            render(frame, into: plain.surface)
            let expected = FrameRendererTests.packed(plain.surface)
            let threads = 1 + round % 3
            let bandHeight: Int? = round % 4 == 3 ? nil : Int.random(in: 3...90, using: &random)
            for shares in [true, false] {
                let renderer = FrameRenderer(threads: threads, bandHeight: bandHeight)
                renderer.bandThreads = max(2, threads)
                renderer.sharesStrokeColumns = shares
                // These frames (strokes and layers only) would be cut into strips, which share nothing.
                renderer.stripCut = .never
                let banded = PixelBuffer(width: frame.width, height: frame.height)
                renderer.render(frame, into: banded.surface, tracksDamage: false)
                if shares { shared += renderer.sharedStrokes } else { #expect(renderer.sharedStrokes == 0) }
                let difference = FrameRendererTests.firstDifference(
                    FrameRendererTests.packed(banded.surface), expected, width: frame.width)
                #expect(
                    difference == nil,
                    "round \(round), \(frame.width) wide, \(threads) threads, bands of \(bandHeight.map(String.init) ?? "default"), shared \(shares): \(difference ?? "")"
                )
            }
        }
        // Most strokes take the shared path: the test says nothing if none do.
        #expect(shared > 60, "only \(shared) strokes shared their columns")
    }

    static func bundle(_ random: inout SeededRandom, width: Int) -> DisplayList {
        let height = 160
        let w = Double(width)
        var commands: [FrameCommand] = []
        let layered = Bool.random(using: &random)
        if layered { commands.append(.beginLayer) }
        for _ in 0..<Int.random(in: 3...10, using: &random) {
            // Mostly gentle waves (one sub-column: shared), some wide (exact offsets), a few
            // short wavelengths (several sub-columns: not shared).
            let kind = Int.random(in: 0..<6, using: &random)
            let wave = Wave(
                baseline: random.uniform(20...140), amplitude: random.uniform(-50...50),
                wavelength: kind == 5 ? random.uniform(8...40) : random.uniform(300...3000),
                phase: random.uniform(-7...7))
            let stroke = WaveStroke(
                wave: wave, envelope: Bool.random(using: &random) ? .parabola : .none,
                width: kind == 4 ? random.uniform(12...40) : random.uniform(0.5...8),
                length: Bool.random(using: &random) ? w : random.uniform(w / 3...w))
            let clip: ClipRect? =
                Int.random(in: 0..<5, using: &random) == 0
                ? ClipRect(
                    x0: Int.random(in: 0..<width / 2, using: &random), y0: Int.random(in: 0..<40, using: &random),
                    x1: Int.random(in: width / 2...width, using: &random),
                    y1: Int.random(in: 100...height, using: &random))
                : nil
            let color = Color(r: random.uniform(0...1), g: random.uniform(0...1), b: 1, a: random.uniform(0.1...1))
            commands.append(.draw(DrawCommand(.waveStroke(stroke), color: color, clip: clip)))
        }
        if layered {
            commands.append(
                .endLayer(
                    HorizontalGradientMask(stops: [
                        MaskStop(x: 0, alpha: 0), MaskStop(x: w / 2, alpha: 1), MaskStop(x: w, alpha: 0),
                    ])))
        }
        return DisplayList(width: width, height: height, background: Color(r: 0, g: 0.48, b: 1), commands: commands)
    }
}

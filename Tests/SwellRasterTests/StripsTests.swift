import SwellRaster
import Testing

/// Frames of wave strokes drawn on several threads are cut into vertical strips
/// (`BandPlan.cutIntoStrips`): every strip cut, thread count and damage must give the bytes
/// of the plain op-by-op pipeline (and so of row bands).
@Suite struct StripsTests {
    /// Stroke bundles (fast, exact-offset and bent strokes, clips, masked layers) with, in half
    /// the rounds, pictures and wave fills cut into strips too (`.always`), on random strip
    /// widths (any, not only multiples of 16: every clip's x-origin) and 1–3 threads.
    @Test func randomStripCutsGiveThePlainBytes() {
        var random = SeededRandom(seed: 0x5354_5250)
        let picture = DisplayListTests.picture(&random, width: 200, height: 120)
        var strips = 0
        for round in 0..<30 {
            var frame = SharedStrokeColumnsTests.bundle(&random, width: Int.random(in: 200...1300, using: &random))
            let mixed = round % 2 == 1
            if mixed { Self.addPicturesAndFills(&frame, picture, &random) }
            let expected = DisplayListTests.plainPixels(frame)
            let threads = 1 + round % 3
            let renderer = FrameRenderer(threads: threads)
            renderer.bandThreads = max(2, threads)
            renderer.stripCut = mixed ? .always : .strokes
            let columns = Int.random(in: 1...200, using: &random)
            renderer.stripColumns = columns
            let surface = PixelBuffer(width: frame.width, height: frame.height)
            renderer.render(frame, into: surface.surface, tracksDamage: false)
            if renderer.drewStrips { strips += 1 }
            let difference = FrameRendererTests.firstDifference(
                FrameRendererTests.packed(surface.surface), expected, width: frame.width)
            #expect(
                difference == nil,
                "round \(round), \(frame.width) wide, \(threads) threads, strips on \(columns): \(difference ?? "")"
            )
        }
        // Every round's frame qualifies: the test says nothing if none is cut into strips.
        #expect(strips == 30, "only \(strips) of 30 frames were cut into strips")
    }

    /// A waveform-like bundle flowing frame by frame beside a picture whose alpha changes (its
    /// damage keeps its columns: a region narrower than the frame), drawn with damage on 2–3
    /// threads: every frame the plain pipeline's bytes.
    @Test(arguments: [2, 3])
    func flowingStrokesWithDamageGiveThePlainBytes(threads: Int) {
        var random = SeededRandom(seed: UInt64(70 + threads))
        let width = 700
        let height = 160
        let picture = DisplayListTests.picture(&random, width: 120, height: 20)
        let renderer = FrameRenderer(threads: threads)
        renderer.stripCut = .always
        renderer.stripColumns = 48
        let surface = PixelBuffer(width: width, height: height)
        for frame in 0..<10 {
            var commands: [FrameCommand] = [.beginLayer]
            for i in 1..<6 {
                // Frames 4–9 hold the waves still: only the picture's alpha changes.
                let wave = Wave(
                    baseline: 60 + 8 * Double(i), amplitude: 30, wavelength: 500, phase: Double(min(frame, 4)) * 0.7)
                let stroke = WaveStroke(wave: wave, envelope: .parabola, width: 5, length: Double(width))
                commands.append(
                    .draw(DrawCommand(.waveStroke(stroke), color: Color(r: 1, g: 1, b: 1, a: Double(i) / 6))))
            }
            commands.append(
                .endLayer(
                    HorizontalGradientMask(stops: [
                        MaskStop(x: 0, alpha: 0), MaskStop(x: 350, alpha: 1), MaskStop(x: 700, alpha: 0),
                    ])))
            // Below the strokes' rows: its damage keeps its columns.
            let placement = OpPlacement(origin: PixelOrigin(x: 500, y: 138), clip: nil)
            commands.append(.image(picture, alpha: Float(frame) / 10 + 0.05, at: placement))
            let list = DisplayList(
                width: width, height: height, background: Color(r: 0, g: 0.48, b: 1), commands: commands)
            let damage = renderer.render(list, into: surface.surface)
            if frame > 4 { #expect(damage.bounds.x1 - damage.bounds.x0 < width, "frame \(frame): \(damage.rects)") }
            #expect(renderer.drewStrips)
            let difference = FrameRendererTests.firstDifference(
                FrameRendererTests.packed(surface.surface), DisplayListTests.plainPixels(list), width: width)
            #expect(difference == nil, "\(threads) threads, frame \(frame): \(difference ?? "")")
        }
    }

    /// The cut: the strips cover each region exactly, left to right, cut on multiples of the
    /// strip width, narrowing from both sides to at most two of one width in the middle.
    @Test func stripsCoverTheRegionAndNarrowTowardsTheMiddle() {
        var random = SeededRandom(seed: 0x4355_5453)
        for trial in 0..<300 {
            let x0 = Int.random(in: 0...300, using: &random)
            let region = ClipRect(
                x0: x0, y0: 5, x1: x0 + Int.random(in: 1...2500, using: &random),
                y1: Int.random(in: 6...90, using: &random))
            let unit = Int.random(in: 1...200, using: &random)
            let threads = Int.random(in: 2...4, using: &random)
            var strips: [ClipRect] = []
            BandPlan.appendStrips(of: region, columns: unit, threads: threads, into: &strips)
            var x = region.x0
            for strip in strips {
                #expect(strip.x0 == x && strip.x1 > strip.x0 && strip.y0 == region.y0 && strip.y1 == region.y1)
                x = strip.x1
            }
            #expect(x == region.x1, "trial \(trial): strips end at \(x), not \(region.x1)")
            for strip in strips.dropLast() { #expect(strip.x1 % unit == 0, "trial \(trial): cut at \(strip.x1)") }
            // Narrowing: from each side, no strip wider than the one outside it (the edge strips
            // may carry the region's unaligned columns).
            let widths = strips.map { $0.x1 - $0.x0 }
            let half = widths.count / 2
            for i in 1..<max(1, half) {
                #expect(widths[i] <= widths[max(1, i - 1)] || i == 1, "trial \(trial): \(widths)")
                #expect(widths[widths.count - 1 - i] <= widths[widths.count - 1 - max(1, i - 1)] || i == 1)
            }
            if region.x1 - region.x0 >= 8 * unit {
                #expect(widths.count >= 4, "trial \(trial): \(widths)")
                #expect(widths[half] == unit || widths[half - 1] == unit, "trial \(trial): middle of \(widths)")
            }
        }
    }

    /// Adds a picture (alpha 1 or less, placed inside the frame) and a wave fill or two.
    static func addPicturesAndFills(_ frame: inout DisplayList, _ picture: PixelBuffer, _ random: inout SeededRandom) {
        let placement = OpPlacement(
            origin: PixelOrigin(
                x: Int.random(in: -50...frame.width - 20, using: &random), y: Int.random(in: -20...120, using: &random)),
            clip: nil)
        let alpha: Float = Bool.random(using: &random) ? 1 : Float(random.uniform(0.1...0.9))
        frame.commands.insert(.image(picture, alpha: alpha, at: placement), at: Int.random(in: 0...1, using: &random))
        for _ in 0..<Int.random(in: 1...2, using: &random) {
            let wave = Wave(
                baseline: random.uniform(20...150), amplitude: random.uniform(-30...30),
                wavelength: random.uniform(40...900), phase: random.uniform(-3...3))
            frame.commands.insert(
                .draw(DrawCommand(.waveFill(wave), color: DisplayListTests.color(&random))),
                at: Int.random(in: 0...frame.commands.count, using: &random))
        }
    }
}

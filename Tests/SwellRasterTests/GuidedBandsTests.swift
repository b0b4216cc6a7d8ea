import SwellRaster
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The bands of decreasing cost that several threads take from a shared counter
/// (`BandPlan.guidedBands`), and frames cut so (a picture revealed through a wave-edged
/// path, rings over wave fills) giving the plain pipeline's bytes on any number of threads.
@Suite struct GuidedBandsTests {
    static func cut(
        _ costs: [Int], _ regions: [ClipRect], threads: Int, alignment: Int, mostRows: Int = .max
    ) -> [ClipRect] {
        var bands: [ClipRect] = []
        costs.withUnsafeBufferPointer { costs in
            BandPlan.guidedBands(
                costs, regions, threads: threads, alignment: alignment, mostRows: mostRows, into: &bands)
        }
        return bands
    }

    static func cost(_ band: ClipRect, _ costs: [Int]) -> Int { (band.y0..<band.y1).reduce(0) { $0 + costs[$1] } }

    /// Equal rows on two threads: each band a quarter of the rows not yet cut, on multiples of
    /// eight, down to the last ones of a thirty-second of the whole (here one multiple of eight).
    @Test func equalRowsShrinkToShortBands() {
        let bands = Self.cut(
            Array(repeating: 1, count: 97), [ClipRect(x0: 0, y0: 0, x1: 10, y1: 96)], threads: 2, alignment: 8)
        #expect(bands.map { $0.y0 } == [0, 24, 48, 64, 72, 80, 88])
        #expect(bands.map { $0.y1 } == [24, 48, 64, 72, 80, 88, 96])
    }

    /// Random row costs and damage rectangles: the bands cover the rectangles exactly and in
    /// order, cut on multiples of the alignment, none much taller than `mostRows`; every band
    /// but a rectangle's last holds at least the smallest share, and the very last (the band
    /// taken last) at most that share and the rows to the next multiple.
    @Test func randomCutsCoverTheDamageAndEndShort() {
        var random = SeededRandom(seed: 18)
        for trial in 0..<300 {
            let height = Int.random(in: 1...600, using: &random)
            let costs = (0...height).map { _ in Int.random(in: 0...3000, using: &random) }
            var regions: [ClipRect] = []
            var top = Int.random(in: 0..<height, using: &random)
            while top < height && regions.count < 4 {
                let bottom = Int.random(in: top + 1...height, using: &random)
                regions.append(ClipRect(x0: 0, y0: top, x1: 50, y1: bottom))
                top = bottom + Int.random(in: 0...40, using: &random)
            }
            let threads = Int.random(in: 2...4, using: &random)
            let alignment = [1, 8, 16].randomElement(using: &random)!
            let mostRows = Int.random(in: 8...200, using: &random)
            let bands = Self.cut(costs, regions, threads: threads, alignment: alignment, mostRows: mostRows)
            let total = regions.reduce(0) { $0 + Self.cost($1, costs) }
            let smallest = max(1, total / (16 * threads))
            var next = 0
            for region in regions {
                var y = region.y0
                while next < bands.count && bands[next].y0 < region.y1 {
                    let band = bands[next]
                    #expect(band.y0 == y && band.y1 > band.y0 && band.x0 == region.x0, "trial \(trial): \(band)")
                    #expect(band.y1 - band.y0 < mostRows + alignment, "trial \(trial): \(band) too tall")
                    if band.y1 < region.y1 {
                        #expect(band.y1 % alignment == 0, "trial \(trial): \(band) not aligned")
                        let full = Self.cost(band, costs) >= smallest || band.y1 - band.y0 >= mostRows
                        #expect(full, "trial \(trial): \(band) cut early")
                    }
                    y = band.y1
                    next += 1
                }
                #expect(y == region.y1, "trial \(trial): \(region) covered to \(y)")
            }
            #expect(next == bands.count, "trial \(trial): bands outside the damage")
            if let last = bands.last {
                #expect(Self.cost(last, costs) <= smallest + alignment * 3000, "trial \(trial): last band \(last)")
            }
        }
    }

    /// The slideshow's reveal: a picture, and another shown inside a band whose edges are sine
    /// waves, growing frame by frame (damage on), on 2–4 threads with the default bands.
    @Test(arguments: [2, 3, 4])
    func aRevealThroughAWavyPathGivesThePlainBytes(threads: Int) {
        var random = SeededRandom(seed: UInt64(threads))
        let width = 240
        let height = 150
        let shown = DisplayListTests.picture(&random, width: width, height: height)
        let revealed = DisplayListTests.picture(&random, width: width, height: height)
        let renderer = FrameRenderer(threads: threads)
        let surface = PixelBuffer(width: width, height: height)
        for frame in 0..<12 {
            let band = Double(frame + 1) * 14
            var path = Path()
            path.move(to: 0, 75 - band / 2)
            for x in stride(from: 2.0, through: Double(width), by: 2) {
                path.line(to: x, 75 - band / 2 + 9 * sin(x / 11 + Double(frame)))
            }
            for x in stride(from: Double(width), through: 0, by: -2) {
                path.line(to: x, 75 + band / 2 - 9 * sin(x / 11 + Double(frame)))
            }
            path.close()
            let list = DisplayList(
                width: width, height: height, background: .white,
                commands: [.image(shown, alpha: 1), .maskedImage(revealed, path)])
            renderer.render(list, into: surface.surface)
            let difference = FrameRendererTests.firstDifference(
                FrameRendererTests.packed(surface.surface), DisplayListTests.plainPixels(list), width: width)
            #expect(difference == nil, "\(threads) threads, frame \(frame): \(difference ?? "")")
        }
    }

    /// The layers scene: two wave fills (the front one opaque) under many rings, mostly circles,
    /// cut into bands of eight-row multiples up to the cache-sized ones.
    @Test(arguments: [2, 3])
    func ringsOverWaveFillsGiveThePlainBytes(threads: Int) {
        var random = SeededRandom(seed: UInt64(40 + threads))
        let width = 320
        let height = 300
        var commands: [FrameCommand] = [
            .draw(
                DrawCommand(
                    .waveFill(Wave(baseline: 200, amplitude: 20, wavelength: 30, phase: 1)),
                    color: Color(r: 1, g: 0.6, b: 0, a: 0.5))),
            .draw(
                DrawCommand(
                    .waveFill(Wave(baseline: 230, amplitude: 20, wavelength: 30, phase: 2)),
                    color: Color(r: 1, g: 0.2, b: 0.2))),
        ]
        for _ in 0..<60 {
            let ring = Ring(
                centerX: random.uniform(0...320), centerY: random.uniform(0...300), radius: random.uniform(1...120),
                width: random.uniform(1...8))
            commands.append(.draw(DrawCommand(.ring(ring), color: DisplayListTests.color(&random))))
        }
        let list = DisplayList(width: width, height: height, background: .white, commands: commands)
        FrameRendererTests.expectBandedMatchesPlain(list, "rings over waves", configurations: [(threads, nil)])
    }
}

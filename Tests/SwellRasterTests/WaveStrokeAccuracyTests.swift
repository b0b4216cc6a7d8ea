import Foundation
import SwellRaster
import Testing

/// strokeWave against the capsule-union reference cut at the end normals (ReferenceWave.strokeCoverage,
/// 256 sub-rows).
@Suite struct WaveStrokeAccuracyTests {
    static func randomStroke(
        _ random: inout SeededRandom, width: Int, height: Int, wavelengths: ClosedRange<Double>,
        amplitudes: ClosedRange<Double> = -30...30, widths: ClosedRange<Double> = 0.2...12
    ) -> WaveStroke {
        let logLambda = random.uniform(log2(wavelengths.lowerBound)...log2(wavelengths.upperBound))
        let wave = Wave(
            baseline: random.uniform(0...Double(height)), amplitude: random.uniform(amplitudes),
            wavelength: exp2(logLambda), phase: random.uniform(0...(2 * Double.pi)))
        let length = random.uniform(0...1) < 0.5 ? Double(width) : random.uniform(4...(Double(width) + 10))
        return WaveStroke(
            wave: wave, envelope: random.uniform(0...1) < 0.5 ? .parabola : .none, width: random.uniform(widths),
            length: length)
    }

    static func check(_ stroke: WaveStroke, width: Int, height: Int, clip: ClipRect? = nil) -> CoverageError {
        let kernel = CoverageMap.drawnByKernel(.waveStroke(stroke), width: width, height: height, clip: clip)
        let reference = ReferenceWave.strokeCoverage(stroke, width: width, height: height)
        return CoverageError(kernel: kernel, reference: reference)
    }

    /// Draws `count` random strokes against the reference; returns how many took each method.
    @discardableResult
    static func run(
        seed: UInt64, count: Int, label: String, wavelengths: ClosedRange<Double>,
        amplitudes: ClosedRange<Double> = -30...30, widths: ClosedRange<Double> = 0.2...12
    ) -> [WaveStrokeMethod: Int] {
        var methods: [WaveStrokeMethod: Int] = [:]
        var random = SeededRandom(seed: seed)
        var worstMax = 0.0
        var worstMean = 0.0
        var meanSum = 0.0
        for index in 0..<count {
            let width = Int(random.uniform(17...97))
            let height = Int(random.uniform(20...70))
            let stroke = randomStroke(
                &random, width: width, height: height, wavelengths: wavelengths, amplitudes: amplitudes, widths: widths)
            methods[waveStrokeMethod(stroke), default: 0] += 1
            let error = check(stroke, width: width, height: height)
            worstMax = max(worstMax, error.maximum)
            worstMean = max(worstMean, error.meanOverEdges)
            meanSum += error.meanOverEdges
            #expect(error.maximum <= 0.05, "\(label) op \(index) \(stroke): \(error)")
            #expect(error.meanOverEdges <= 0.005, "\(label) op \(index) \(stroke): \(error)")
        }
        print(
            "wave-stroke \(label): worst max \(worstMax), worst edge mean \(worstMean), average edge mean \(meanSum / Double(count)), methods \(methods)"
        )
        return methods
    }

    /// Long gentle waves like the bench lists' (mostly the fast path, robust at the caps).
    @Test func gentleRandomStrokesMatchTheReference() {
        Self.run(seed: 21, count: 200, label: "gentle", wavelengths: 80...3000)
    }

    /// Short wavelengths and wide strokes: the sampled-disc and robust envelope paths, both
    /// well represented.
    @Test func bentRandomStrokesMatchTheReference() {
        let methods = Self.run(seed: 22, count: 150, label: "bent", wavelengths: 4...80)
        #expect(methods[.robust, default: 0] >= 10 && methods[.sampledDiscs, default: 0] >= 50, "\(methods)")
    }

    /// Draws random strokes until `count` of them take `method`, each checked against the
    /// reference; returns how many of those had the parabola envelope.
    @discardableResult
    static func runMethod(
        _ method: WaveStrokeMethod, seed: UInt64, count: Int, label: String, heights: ClosedRange<Double>,
        wavelengths: ClosedRange<Double>, amplitudes: ClosedRange<Double>, widths: ClosedRange<Double>
    ) -> Int {
        var random = SeededRandom(seed: seed)
        var worstMax = 0.0
        var worstMean = 0.0
        var drawn = 0
        var parabolas = 0
        while drawn < count {
            let width = Int(random.uniform(17...97))
            let height = Int(random.uniform(heights))
            let stroke = randomStroke(
                &random, width: width, height: height, wavelengths: wavelengths, amplitudes: amplitudes, widths: widths)
            guard waveStrokeMethod(stroke) == method else { continue }
            drawn += 1
            if stroke.envelope == .parabola { parabolas += 1 }
            let error = check(stroke, width: width, height: height)
            worstMax = max(worstMax, error.maximum)
            worstMean = max(worstMean, error.meanOverEdges)
            #expect(error.maximum <= 0.05, "\(label) op \(drawn) \(stroke): \(error)")
            #expect(error.meanOverEdges <= 0.005, "\(label) op \(drawn) \(stroke): \(error)")
        }
        print("wave-stroke \(label): worst max \(worstMax), worst edge mean \(worstMean)")
        return parabolas
    }

    /// Sharp zig-zags (too many disc samples): the robust envelope path alone.
    @Test func robustEnvelopeStrokesMatchTheReference() {
        Self.runMethod(
            .robust, seed: 27, count: 60, label: "robust envelope", heights: 20...70, wavelengths: 3...40,
            amplitudes: -30...30, widths: 0.5...12)
    }

    /// Strokes too bent for the fast formula whose offset curves are smooth (wide strokes of
    /// moderate curvature, e.g. the waveform scene at lineWidth 20): the exact Newton path.
    @Test func exactOffsetStrokesMatchTheReference() {
        let parabolas = Self.runMethod(
            .exactOffsets, seed: 24, count: 120, label: "exact offsets", heights: 30...80, wavelengths: 20...400,
            amplitudes: -25...25, widths: 3...36)
        #expect(parabolas > 20 && parabolas < 100)
    }

    /// Strokes whose offset curves fold (half width × curvature > ½) but whose disc heights
    /// need at most `maximumDiscSamples` angles: the sampled-disc path, caps in view in most.
    @Test func sampledDiscStrokesMatchTheReference() {
        let parabolas = Self.runMethod(
            .sampledDiscs, seed: 25, count: 150, label: "sampled discs", heights: 30...80, wavelengths: 6...200,
            amplitudes: -25...25, widths: 1...30)
        #expect(parabolas > 20 && parabolas < 130)
    }

    /// Zig-zags of 4–14 px wavelengths that still take the sampled discs: the path near its
    /// sample limit, where the disc heights bend most between samples.
    @Test func steepSampledDiscStrokesMatchTheReference() {
        Self.runMethod(
            .sampledDiscs, seed: 91, count: 80, label: "steep sampled discs", heights: 30...80, wavelengths: 4...14,
            amplitudes: -30...30, widths: 0.3...4)
    }

    /// The sampled-disc path draws the same bytes however a clip (a band, a tile) cuts the stroke.
    @Test func sampledDiscStrokesDoNotDependOnTheClip() {
        var random = SeededRandom(seed: 26)
        let width = 83
        let height = 61
        var drawn = 0
        while drawn < 30 {
            let stroke = Self.randomStroke(
                &random, width: width, height: height, wavelengths: 6...200, amplitudes: -25...25, widths: 1...30)
            guard waveStrokeMethod(stroke) == .sampledDiscs else { continue }
            drawn += 1
            let command = DrawCommand(.waveStroke(stroke), color: Color(r: 1, g: 0.8, b: 0.2, a: 0.7))
            let xCut = Int(random.uniform(1...Double(width - 1)))
            let yCut = Int(random.uniform(1...Double(height - 1)))
            let (wholePixels, difference) = FrameRendererTests.tiledDifference(
                command, width: width, height: height, xCut: xCut, yCut: yCut)
            #expect(difference == nil, "\(stroke) cut at \(xCut), \(yCut): \(difference ?? "")")
            #expect(wholePixels.contains { $0 != 0 }, "\(stroke) drew nothing")
        }
    }

    /// Strokes much wider than the random ones (the scene allows lineWidth up to 500), whose
    /// ends are long cuts along the normals.
    @Test(arguments: [(120.0, WaveEnvelope.parabola), (300.0, .none), (90.0, .none)])
    func veryWideStrokesMatchTheReference(width: Double, envelope: WaveEnvelope) {
        let stroke = WaveStroke(
            wave: Wave(baseline: 200, amplitude: 15, wavelength: 900, phase: 0.7), envelope: envelope, width: width,
            length: 300)
        #expect(waveStrokeMethod(stroke) == .exactOffsets)
        let error = Self.check(stroke, width: 480, height: 400)
        print("wave-stroke width \(width): \(error)")
        #expect(error.maximum <= 0.05 && error.meanOverEdges <= 0.005, "\(error)")
    }

    /// Very wide strokes whose offset curves fold (their hollows fill in): the sampled discs,
    /// with caps much larger than the wave.
    @Test(arguments: [(120.0, 200.0, WaveEnvelope.none), (200.0, 120.0, .parabola)])
    func veryWideFoldedStrokesMatchTheReference(width: Double, wavelength: Double, envelope: WaveEnvelope) {
        let stroke = WaveStroke(
            wave: Wave(baseline: 200, amplitude: 15, wavelength: wavelength, phase: 0.7), envelope: envelope,
            width: width, length: 300)
        #expect(waveStrokeMethod(stroke) == .sampledDiscs)
        let error = Self.check(stroke, width: 480, height: 400)
        print("wave-stroke folded, width \(width): \(error)")
        #expect(error.maximum <= 0.05 && error.meanOverEdges <= 0.005, "\(error)")
    }

    /// Which cross-section each kind of stroke gets: the bench lists' strokes the fast formula,
    /// wide strokes of gentle waves the exact offsets (not the ~1000x slower robust path: ten
    /// such strokes took ~190 ms a frame there), strokes whose offsets fold the sampled discs
    /// (the waveform scene at frequency 120: 155 ms a frame on the robust path, 5 ms on this),
    /// only sharp zig-zags the robust envelope.
    @Test func eachStrokeTakesTheCheapestAccurateMethod() {
        let siri = Wave(baseline: 540, amplitude: 50, wavelength: 2 * .pi * 1920 / 10, phase: 0.3)
        #expect(waveStrokeMethod(WaveStroke(wave: siri, envelope: .parabola, width: 5, length: 1920)) == .fast)
        #expect(waveStrokeMethod(WaveStroke(wave: siri, envelope: .parabola, width: 20, length: 1920)) == .exactOffsets)
        #expect(waveStrokeMethod(WaveStroke(wave: siri, envelope: .none, width: 60, length: 1920)) == .exactOffsets)
        // The waveform scene at frequency 120 (100 px wavelength): its offset curves fold.
        let busy = Wave(baseline: 540, amplitude: 50, wavelength: 2 * .pi * 1920 / 120, phase: 0.3)
        #expect(waveStrokeMethod(WaveStroke(wave: busy, envelope: .parabola, width: 5, length: 1920)) == .sampledDiscs)
        let zigzag = Wave(baseline: 30, amplitude: 15, wavelength: 8, phase: 0)
        #expect(waveStrokeMethod(WaveStroke(wave: zigzag, envelope: .none, width: 4, length: 60)) == .sampledDiscs)
        let sharp = Wave(baseline: 30, amplitude: 30, wavelength: 4, phase: 0)
        #expect(waveStrokeMethod(WaveStroke(wave: sharp, envelope: .none, width: 4, length: 60)) == .robust)
        #expect(waveStrokeMethod(WaveStroke(wave: siri, envelope: .none, width: 0, length: 60)) == .none)
    }

    @Test func randomColoursOverRandomBackgrounds() {
        var random = SeededRandom(seed: 23)
        for index in 0..<120 {
            let width = Int(random.uniform(17...80))
            let height = Int(random.uniform(20...50))
            let stroke = Self.randomStroke(&random, width: width, height: height, wavelengths: 6...2000)
            let color = randomCompositeColor(&random)
            let background = randomOpaqueBackground(width * height, &random)
            let reference = ReferenceWave.strokeCoverage(stroke, width: width, height: height)
            let mismatches = compositeMismatches(
                shape: .waveStroke(stroke), color: color, background: background, width: width, height: height,
                reference: reference)
            #expect(mismatches == 0, "op \(index) \(stroke) \(color)")
        }
    }

    /// A straight stroke is a rectangle: its ends are cut square by the normals (butt caps).
    @Test func straightStrokeIsARectangleWithButtEnds() {
        let stroke = WaveStroke(
            wave: Wave(baseline: 15.5, amplitude: 0, wavelength: 30, phase: 0), envelope: .none, width: 9, length: 20.5)
        let map = CoverageMap.drawnByKernel(.waveStroke(stroke), width: 40, height: 30)
        let total = map.values.reduce(0, +)
        // A vertical cut between two of the end's 32 sub-column samples is drawn as a chord
        // across that sub-column: at most 1/64 of a pixel too much in the end column.
        #expect(abs(total - 20.5 * 9) <= 9.0 / 64 + 0.01, "area \(total) vs \(20.5 * 9)")
        #expect(map[19, 15] == 1 && map[10, 15] == 1 && map[0, 15] == 1)
        // The end at x = 20.5 halves column 20 (plus at most that chord's 1/32 of a pixel).
        #expect(map[20, 15] >= 0.5 && map[20, 15] <= 0.5 + 1.0 / 32 + 1.0 / 255)
        #expect(map[21, 15] == 0 && map[24, 15] == 0)
        #expect(map[10, 10] == 0 && map[10, 20] == 0)
        let error = CoverageError(kernel: map, reference: ReferenceWave.strokeCoverage(stroke, width: 40, height: 30))
        #expect(error.maximum <= 1.0 / 32 + 1.0 / 255, "\(error)")
    }

    /// A sloped end: the cut follows the normal, not the vertical x = L. A long, gentle stroke of
    /// slope ~0.6 at its end, compared with the reference over the end's columns alone.
    @Test(arguments: [0.0, 1.3, 2.9, 4.4])
    func slopedEndsFollowTheNormals(phase: Double) {
        let stroke = WaveStroke(
            wave: Wave(baseline: 40, amplitude: 20, wavelength: 200, phase: phase), envelope: .none, width: 12,
            length: 60.3)
        let map = CoverageMap.drawnByKernel(.waveStroke(stroke), width: 80, height: 80)
        let reference = ReferenceWave.strokeCoverage(stroke, width: 80, height: 80)
        var worst = 0.0
        for j in 0..<80 {
            for i in 52..<70 { worst = max(worst, abs(map[i, j] - reference[i, j])) }
        }
        #expect(worst <= 0.05, "phase \(phase): worst end pixel \(worst)")
        // Beyond x = L + r·|m|/√(1 + m²) ≤ L + 6 nothing is drawn.
        for j in 0..<80 { #expect(map[67, j] == 0) }
    }

    @Test(arguments: [0.05, 0.3, 0.8])
    func subPixelWidthsMatchTheReference(width: Double) {
        let stroke = WaveStroke(
            wave: Wave(baseline: 20, amplitude: 12, wavelength: 70, phase: 0.2), envelope: .parabola, width: width,
            length: 60)
        let error = Self.check(stroke, width: 64, height: 40)
        #expect(error.maximum <= 0.05 && error.meanOverEdges <= 0.005, "\(error)")
    }

    @Test func negativeAmplitudeAndHugeWavelength() {
        for wave in [
            Wave(baseline: 25, amplitude: -18, wavelength: 45, phase: 2),
            Wave(baseline: 25, amplitude: 18, wavelength: 1e7, phase: 1),
        ] {
            let stroke = WaveStroke(wave: wave, envelope: .none, width: 4, length: 70)
            let error = Self.check(stroke, width: 72, height: 50)
            #expect(error.maximum <= 0.05 && error.meanOverEdges <= 0.005, "\(wave): \(error)")
        }
    }

    /// Wavelengths of a few pixels: the stroke is a dense zig-zag. 0.5 and 2 px still meet the
    /// usual tolerances; 0.1 px (the reference's own polyline is then coarse) is checked for
    /// safety and plausible column sums only.
    @Test(arguments: [0.1, 0.5, 2.0])
    func tinyWavelengthsArePlausible(wavelength: Double) {
        let stroke = WaveStroke(
            wave: Wave(baseline: 30, amplitude: 15, wavelength: wavelength, phase: 0.3), envelope: .parabola,
            width: 1.5,
            length: 48)
        let kernel = CoverageMap.drawnByKernel(.waveStroke(stroke), width: 48, height: 60)
        let reference = ReferenceWave.strokeCoverage(stroke, width: 48, height: 60)
        var worstColumn = 0.0
        for i in 0..<48 {
            var k = 0.0
            var r = 0.0
            for j in 0..<60 {
                k += kernel[i, j]
                r += reference[i, j]
                #expect(kernel[i, j] >= 0 && kernel[i, j] <= 1)
            }
            worstColumn = max(worstColumn, abs(k - r))
        }
        let error = CoverageError(kernel: kernel, reference: reference)
        print("wave-stroke wavelength \(wavelength): \(error), worst column sum difference \(worstColumn)")
        #expect(worstColumn <= 0.2)
        if wavelength >= 0.5 { #expect(error.maximum <= 0.05 && error.meanOverEdges <= 0.005, "\(error)") }
    }

    @Test(arguments: [
        WaveStroke(
            wave: Wave(baseline: 10, amplitude: 5, wavelength: 30, phase: 0), envelope: .none, width: 0, length: 20),
        WaveStroke(
            wave: Wave(baseline: 10, amplitude: 5, wavelength: 30, phase: 0), envelope: .none, width: -3, length: 20),
        WaveStroke(
            wave: Wave(baseline: 10, amplitude: 5, wavelength: 30, phase: 0), envelope: .none, width: .nan, length: 20),
        WaveStroke(
            wave: Wave(baseline: 10, amplitude: 5, wavelength: 30, phase: 0), envelope: .parabola, width: 3, length: 0),
        WaveStroke(
            wave: Wave(baseline: 10, amplitude: 5, wavelength: 30, phase: 0), envelope: .none, width: 3,
            length: .infinity),
        WaveStroke(
            wave: Wave(baseline: .infinity, amplitude: 5, wavelength: 30, phase: 0), envelope: .none, width: 3,
            length: 20),
        WaveStroke(
            wave: Wave(baseline: 10, amplitude: .nan, wavelength: 30, phase: 0), envelope: .none, width: 3, length: 20),
        WaveStroke(
            wave: Wave(baseline: 10, amplitude: 5, wavelength: 0, phase: 0), envelope: .none, width: 3, length: 20),
        WaveStroke(
            wave: Wave(baseline: 10, amplitude: 5, wavelength: 30, phase: -.infinity), envelope: .none, width: 3,
            length: 20),
        WaveStroke(
            wave: Wave(baseline: -1e9, amplitude: 5, wavelength: 30, phase: 0), envelope: .none, width: 3, length: 20),
        WaveStroke(
            wave: Wave(baseline: 1e9, amplitude: 5, wavelength: 30, phase: 0), envelope: .none, width: 3, length: 20),
    ])
    func degenerateStrokesDrawNothing(stroke: WaveStroke) {
        let map = CoverageMap.drawnByKernel(.waveStroke(stroke), width: 24, height: 20)
        #expect(map.values.allSatisfy { $0 == 0 })
    }

    @Test func extremeParametersAreSafe() {
        let strokes = [
            WaveStroke(
                wave: Wave(baseline: 10, amplitude: 1e300, wavelength: 3, phase: 0), envelope: .none, width: 3,
                length: 30),
            WaveStroke(
                wave: Wave(baseline: 10, amplitude: 5, wavelength: 1e-9, phase: 0), envelope: .none, width: 3,
                length: 30),
            WaveStroke(
                wave: Wave(baseline: 10, amplitude: 5, wavelength: 30, phase: 0), envelope: .none, width: 1e300,
                length: 30),
            WaveStroke(
                wave: Wave(baseline: 10, amplitude: 5, wavelength: 30, phase: 0), envelope: .parabola, width: 3,
                length: 1e-9),
            WaveStroke(
                wave: Wave(baseline: 10, amplitude: 5, wavelength: 30, phase: 0), envelope: .parabola, width: 1e-300,
                length: 1e-300),
            WaveStroke(
                wave: Wave(baseline: 10, amplitude: 40, wavelength: 2e-6, phase: 1e300), envelope: .parabola, width: 2,
                length: 30),
            WaveStroke(
                wave: Wave(baseline: 10, amplitude: -7, wavelength: -13, phase: -1e12), envelope: .none, width: 0.01,
                length: 1e300),
        ]
        for stroke in strokes {
            let map = CoverageMap.drawnByKernel(.waveStroke(stroke), width: 33, height: 20)
            #expect(map.values.allSatisfy { $0 >= 0 && $0 <= 1 })
        }
        // A stroke wider than the frame covers it.
        let wide = CoverageMap.drawnByKernel(.waveStroke(strokes[2]), width: 33, height: 20)
        #expect(wide.values.allSatisfy { $0 == 1 })
    }

    /// Frame widths that leave a partial SIMD group at the right edge (and one narrower than a
    /// group): the tail lanes must be drawn as accurately as the full ones.
    @Test(arguments: [1, 7, 15, 17, 31, 33, 47])
    func oddFrameWidthsMatchTheReference(width: Int) {
        let stroke = WaveStroke(
            wave: Wave(baseline: 12.3, amplitude: 6, wavelength: 29, phase: 0.8), envelope: .none, width: 3.5,
            length: Double(width) + 5)
        let error = Self.check(stroke, width: width, height: 25)
        #expect(error.maximum <= 0.05 && error.meanOverEdges <= 0.005, "width \(width): \(error)")
        #expect(error.edgePixels > 0)
    }

    @Test func pixelsOutsideTheClipAreUnchanged() {
        let stroke = WaveStroke(
            wave: Wave(baseline: 25, amplitude: 12, wavelength: 40, phase: 1), envelope: .parabola, width: 5, length: 53
        )
        let clip = ClipRect(x0: 5, y0: 14, x1: 41, y1: 31)
        let clipped = CoverageMap.drawnByKernel(.waveStroke(stroke), width: 53, height: 50, clip: clip)
        let whole = CoverageMap.drawnByKernel(.waveStroke(stroke), width: 53, height: 50)
        for j in 0..<50 {
            for i in 0..<53 {
                let inside = i >= 5 && i < 41 && j >= 14 && j < 31
                // Groups sit at absolute multiples of 16 and rows are relative to the op's own
                // origin, so a clipped draw gives exactly the unclipped pixels inside the clip.
                if inside {
                    #expect(clipped[i, j] == whole[i, j], "pixel \(i), \(j)")
                } else {
                    #expect(clipped[i, j] == 0, "pixel \(i), \(j)")
                }
            }
        }
    }

    @Test func rowPaddingIsNeverWritten() {
        let width = 45
        let height = 30
        let stride = width * 4 + 36
        let memory = UnsafeMutableRawPointer.allocate(byteCount: stride * height, alignment: 64)
        defer { memory.deallocate() }
        memory.initializeMemory(as: UInt8.self, repeating: 0xA5, count: stride * height)
        let buffer = PixelBuffer(wrapping: memory, width: width, height: height, stride: stride)
        let stroke = WaveStroke(
            wave: Wave(baseline: 15, amplitude: 9, wavelength: 33, phase: 0), envelope: .none, width: 6, length: 60)
        draw(
            DrawCommand(.waveStroke(stroke), color: Color(r: 0, g: 1, b: 0, a: 0.8)), on: buffer.surface,
            within: buffer.surface.bounds)
        let bytes = memory.assumingMemoryBound(to: UInt8.self)
        var changed = 0
        for j in 0..<height {
            for b in (width * 4)..<stride where bytes[j * stride + b] != 0xA5 { changed += 1 }
        }
        #expect(changed == 0)
        var touchedLastColumn = false
        for j in 0..<height where buffer.surface.pixel(x: width - 1, y: j) != 0xA5A5_A5A5 { touchedLastColumn = true }
        #expect(touchedLastColumn)
    }
}

import Foundation
import SwellRaster
import Testing

/// fillWave against the 256-sample-column reference (ReferenceWave.fillCoverage).
@Suite struct WaveFillAccuracyTests {
    static func randomWave(_ random: inout SeededRandom, height: Int, wavelengths: ClosedRange<Double>) -> Wave {
        let logLambda = random.uniform(log2(wavelengths.lowerBound)...log2(wavelengths.upperBound))
        return Wave(
            baseline: random.uniform(-10...(Double(height) + 10)), amplitude: random.uniform(-40...40),
            wavelength: exp2(logLambda), phase: random.uniform(0...(2 * Double.pi)))
    }

    static func check(_ wave: Wave, width: Int, height: Int, clip: ClipRect? = nil) -> CoverageError {
        let kernel = CoverageMap.drawnByKernel(.waveFill(wave), width: width, height: height, clip: clip)
        let reference = ReferenceWave.fillCoverage(wave, width: width, height: height)
        return CoverageError(kernel: kernel, reference: reference)
    }

    @Test func randomWavesMatchTheReference() {
        var random = SeededRandom(seed: 11)
        var worstMax = 0.0
        var worstMean = 0.0
        for index in 0..<300 {
            let width = Int(random.uniform(17...97))
            let height = Int(random.uniform(20...70))
            let wave = Self.randomWave(&random, height: height, wavelengths: 2...2000)
            let error = Self.check(wave, width: width, height: height)
            worstMax = max(worstMax, error.maximum)
            worstMean = max(worstMean, error.meanOverEdges)
            #expect(error.maximum <= 0.05, "op \(index) \(wave): \(error)")
            #expect(error.meanOverEdges <= 0.005, "op \(index) \(wave): \(error)")
        }
        print("wave-fill random: worst max \(worstMax), worst edge mean \(worstMean)")
    }

    @Test func randomColoursOverRandomBackgrounds() {
        var random = SeededRandom(seed: 12)
        for index in 0..<120 {
            let width = Int(random.uniform(17...80))
            let height = Int(random.uniform(20...50))
            let wave = Self.randomWave(&random, height: height, wavelengths: 3...1000)
            let color = randomCompositeColor(&random)
            let background = randomOpaqueBackground(width * height, &random)
            let reference = ReferenceWave.fillCoverage(wave, width: width, height: height)
            let mismatches = compositeMismatches(
                shape: .waveFill(wave), color: color, background: background, width: width, height: height,
                reference: reference)
            #expect(mismatches == 0, "op \(index) \(wave) \(color)")
        }
    }

    /// The wave kernels' fixed-point compositing: the correctly rounded d + (s − d)·α (ties up,
    /// like the reference) except where the exact value lies within 0.01 of a tie.
    @Test func fixedPointBlenderRoundsLikeTheReference() {
        var random = SeededRandom(seed: 13)
        var inexact = 0
        for _ in 0..<300 {
            let color = Color(
                r: random.uniform(0...1), g: random.uniform(0...1), b: random.uniform(0...1), a: random.uniform(0...1))
            let source = SourceColor(color)
            let blender = WaveBlender(source)
            let row = UnsafeMutablePointer<UInt32>.allocate(capacity: 35)
            defer { row.deallocate() }
            var before = [UInt32](repeating: 0, count: 35)
            for i in 0..<35 { before[i] = UInt32.random(in: 0...0xFF_FFFF, using: &random) }
            let coverage = LaneFloats((0..<16).map { _ in Float(random.uniform(0...1)) })
            for i in 0..<35 { row[i] = before[i] }
            blender.fullSpan(row, from: 0, to: 19)
            blender.coverageLanes(row, group: 19, lanes: 19..<35, coverage: coverage)
            for i in 0..<35 {
                let alpha = Double(source.alpha) * (i < 19 ? 1 : Double(coverage[i - 19]))
                #expect(row[i] >> 24 == 0xFF)
                for (shift, channel) in [(16, source.red), (8, source.green), (0, source.blue)] {
                    let d = Double((before[i] >> UInt32(shift)) & 0xFF)
                    let exact = d + (Double(channel) - d) * alpha
                    let got = Double((row[i] >> UInt32(shift)) & 0xFF)
                    let nearTie = abs(exact - exact.rounded(.down) - 0.5) < 0.01
                    #expect(abs(got - exact.rounded()) <= (nearTie ? 1 : 0), "d \(d) s \(channel) alpha \(alpha)")
                    if got != exact.rounded() { inexact += 1 }
                }
            }
        }
        print("fixed-point blender: \(inexact) of \(300 * 35 * 3) channels off by one (all within 0.01 of a tie)")
    }

    @Test func flatWaveCoversExactlyBelowTheBaseline() {
        let wave = Wave(baseline: 10.3, amplitude: 0, wavelength: 50, phase: 1)
        let map = CoverageMap.drawnByKernel(.waveFill(wave), width: 33, height: 20)
        for i in 0..<33 {
            #expect(map[i, 9] == 0)
            #expect(abs(map[i, 10] - 0.7) <= 0.5 / 255 + 1e-9)
            #expect(map[i, 11] == 1)
        }
    }

    @Test func negativeAmplitudeIsTheMirroredPhase() {
        let wave = Wave(baseline: 30, amplitude: -20, wavelength: 37, phase: 0.4)
        let error = Self.check(wave, width: 61, height: 60)
        #expect(error.maximum <= 0.05 && error.meanOverEdges <= 0.005, "\(error)")
        let mirrored = Wave(baseline: 30, amplitude: 20, wavelength: 37, phase: 0.4 + Double.pi)
        let a = CoverageMap.drawnByKernel(.waveFill(wave), width: 61, height: 60)
        let b = CoverageMap.drawnByKernel(.waveFill(mirrored), width: 61, height: 60)
        #expect(CoverageError(kernel: a, reference: b).maximum <= 2.5 / 255)
    }

    @Test func hugeWavelengthIsNearlyStraight() {
        let wave = Wave(baseline: 20.6, amplitude: 15, wavelength: 1e7, phase: 0.5)
        let error = Self.check(wave, width: 70, height: 40)
        #expect(error.maximum <= 0.05 && error.meanOverEdges <= 0.005, "\(error)")
    }

    /// Wavelengths of 2 px or less: 32 sub-columns cannot follow the curve within one pixel,
    /// so only safety and plausibility are checked: every column's mean coverage is close to
    /// the reference's and nothing lies outside [band, bottom].
    @Test(arguments: [0.5, 1.0, 2.0])
    func tinyWavelengthsArePlausible(wavelength: Double) {
        let width = 48
        let height = 60
        let wave = Wave(baseline: 30, amplitude: 20, wavelength: wavelength, phase: 0.3)
        let kernel = CoverageMap.drawnByKernel(.waveFill(wave), width: width, height: height)
        let reference = ReferenceWave.fillCoverage(wave, width: width, height: height)
        for i in 0..<width {
            var kernelSum = 0.0
            var referenceSum = 0.0
            for j in 0..<height {
                kernelSum += kernel[i, j]
                referenceSum += reference[i, j]
                if j < 9 { #expect(kernel[i, j] == 0) }
                if j > 51 { #expect(kernel[i, j] == 1) }
            }
            #expect(abs(kernelSum - referenceSum) <= 0.1, "column \(i): \(kernelSum) vs \(referenceSum)")
        }
        let error = CoverageError(kernel: kernel, reference: reference)
        print("wave-fill wavelength \(wavelength): \(error)")
        if wavelength >= 0.5 { #expect(error.maximum <= 0.05 && error.meanOverEdges <= 0.005, "\(error)") }
    }

    @Test func baselineFarAboveFillsEverythingAndFarBelowNothing() {
        let above = CoverageMap.drawnByKernel(
            .waveFill(Wave(baseline: -1e9, amplitude: 30, wavelength: 40, phase: 0)), width: 35, height: 20)
        #expect(above.values.allSatisfy { $0 == 1 })
        let below = CoverageMap.drawnByKernel(
            .waveFill(Wave(baseline: 1e12, amplitude: 1e6, wavelength: 40, phase: 0)), width: 35, height: 20)
        #expect(below.values.allSatisfy { $0 == 0 })
    }

    @Test(arguments: [
        Wave(baseline: 10, amplitude: 1e300, wavelength: 3, phase: 0),
        Wave(baseline: 10, amplitude: 25, wavelength: 2e-6, phase: 1e300),
        Wave(baseline: 1e6, amplitude: 1e6 - 12, wavelength: 1e300, phase: -1e12),
    ])
    func extremeParametersAreSafe(wave: Wave) {
        // Only safety: no trap, no hang; the readback is in range by construction, and a
        // phase of 1e12 rad cannot be reduced accurately enough for a 1e6 px amplitude anyway.
        let map = CoverageMap.drawnByKernel(.waveFill(wave), width: 35, height: 20)
        #expect(map.values.allSatisfy { $0 >= 0 && $0 <= 1 })
    }

    @Test func wavelengthsBelowTheLimitDrawNothing() {
        let map = CoverageMap.drawnByKernel(
            .waveFill(Wave(baseline: 10, amplitude: 5, wavelength: 1e-7, phase: 0)), width: 20, height: 20)
        #expect(map.values.allSatisfy { $0 == 0 })
    }

    @Test(arguments: [
        Wave(baseline: .nan, amplitude: 10, wavelength: 40, phase: 0),
        Wave(baseline: 10, amplitude: .infinity, wavelength: 40, phase: 0),
        Wave(baseline: 10, amplitude: 10, wavelength: 0, phase: 0),
        Wave(baseline: 10, amplitude: 10, wavelength: .nan, phase: 0),
        Wave(baseline: 10, amplitude: 10, wavelength: -.infinity, phase: 0),
        Wave(baseline: 10, amplitude: 10, wavelength: 40, phase: .infinity),
    ])
    func invalidParametersDrawNothing(wave: Wave) {
        let map = CoverageMap.drawnByKernel(.waveFill(wave), width: 20, height: 20)
        #expect(map.values.allSatisfy { $0 == 0 })
    }

    /// Frame widths that leave a partial SIMD group at the right edge (and one narrower than a
    /// group): the tail lanes must be drawn as accurately as the full ones.
    @Test(arguments: [1, 7, 15, 17, 31, 33, 47])
    func oddFrameWidthsMatchTheReference(width: Int) {
        let wave = Wave(baseline: 12.3, amplitude: 6, wavelength: 29, phase: 0.8)
        let error = Self.check(wave, width: width, height: 25)
        #expect(error.maximum <= 0.05 && error.meanOverEdges <= 0.005, "width \(width): \(error)")
        #expect(error.edgePixels > 0)
    }

    @Test func pixelsOutsideTheClipAreUnchanged() {
        let wave = Wave(baseline: 25, amplitude: 12, wavelength: 30, phase: 1)
        let clip = ClipRect(x0: 7, y0: 18, x1: 44, y1: 33)
        let clipped = CoverageMap.drawnByKernel(.waveFill(wave), width: 53, height: 50, clip: clip)
        let whole = CoverageMap.drawnByKernel(.waveFill(wave), width: 53, height: 50)
        for j in 0..<50 {
            for i in 0..<53 {
                let inside = i >= 7 && i < 44 && j >= 18 && j < 33
                #expect(clipped[i, j] == (inside ? whole[i, j] : 0), "pixel \(i), \(j)")
            }
        }
    }

    @Test func rowPaddingIsNeverWritten() {
        let width = 37
        let height = 30
        let stride = width * 4 + 52
        let memory = UnsafeMutableRawPointer.allocate(byteCount: stride * height, alignment: 64)
        defer { memory.deallocate() }
        memory.initializeMemory(as: UInt8.self, repeating: 0xA5, count: stride * height)
        let buffer = PixelBuffer(wrapping: memory, width: width, height: height, stride: stride)
        draw(
            DrawCommand(
                .waveFill(Wave(baseline: 12, amplitude: 9, wavelength: 23, phase: 0)),
                color: Color(r: 1, g: 0, b: 0, a: 0.7)),
            on: buffer.surface, within: buffer.surface.bounds)
        let bytes = memory.assumingMemoryBound(to: UInt8.self)
        var changed = 0
        for j in 0..<height {
            for b in (width * 4)..<stride where bytes[j * stride + b] != 0xA5 { changed += 1 }
        }
        #expect(changed == 0)
        #expect(buffer.surface.pixel(x: width - 1, y: height - 1) != 0xA5A5_A5A5)
    }
}

import Foundation
import SwellRaster
import Testing

/// The polynomial sine the wave kernels use instead of libm.
@Suite struct SineTests {
    @Test func matchesFoundationSineOverAWideRangeOfTurns() {
        var random = SeededRandom(seed: 3)
        var worst = 0.0
        for _ in 0..<20_000 {
            var turns = SIMD16<Float>()
            for lane in 0..<16 { turns[lane] = Float(random.uniform(-1000...1000)) }
            let got = sineOfTurns(turns)
            for lane in 0..<16 {
                let expected = sin(2 * Double.pi * Double(turns[lane]))
                worst = max(worst, abs(Double(got[lane]) - expected))
            }
        }
        print("sineOfTurns max error over ±1000 turns: \(worst)")
        #expect(worst < 5e-7)
    }

    @Test func exactAtQuarterTurnsAndOdd() {
        let turns = SIMD16<Float>(
            0, 0.25, 0.5, 0.75, 1, -0.25, 2.5, 1e5, 0.125, -0.125, 0.3, -0.3, 0.49, -0.49, 0.01, -0.01)
        let s = sineOfTurns(turns)
        #expect(abs(s[0]) < 1e-7 && abs(s[1] - 1) < 1e-6 && abs(s[2]) < 1e-6 && abs(s[3] + 1) < 1e-6)
        #expect(abs(s[4]) < 1e-6 && abs(s[5] + 1) < 1e-6 && abs(s[6]) < 1e-6 && abs(s[7]) < 1e-6)
        for lane in stride(from: 8, to: 16, by: 2) { #expect(s[lane] == -s[lane + 1]) }
    }
}

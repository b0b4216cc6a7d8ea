/// Where the wave kernels evaluate their sine: sixteen columns per group, and within a column
/// k equal sub-columns whose edges sit at x = groupX + lane + s / k.
///
/// The phase of a sample is kept in turns (2π·x/λ + φ = 2π·turns). The integer part is
/// removed in Double once per group and sub-column edge, so the Float that reaches
/// `sineOfTurns` is below 2 turns however far x is from 0 or however short the wavelength.
@frozen
public struct WaveSampler {
    @usableFromInline let inverseWavelength: Double
    @usableFromInline let phaseTurns: Double
    /// frac(lane / λ) per lane.
    @usableFromInline let laneTurns: LaneFloats
    /// Radians per pixel, 2π/λ.
    @usableFromInline let angularFrequency: Double

    /// The most sub-columns a column is split into (tiny wavelengths stop refining here).
    @usableFromInline static let maximumSubColumns = 32

    @inlinable
    init(wavelength: Double, phase: Double) {
        inverseWavelength = 1 / wavelength
        phaseTurns = fractionalPart(phase / (2 * Double.pi))
        var lanes = LaneFloats(repeating: 0)
        for lane in 0..<laneCount {
            lanes[lane] = Float(fractionalPart(Double(lane) * inverseWavelength))
        }
        laneTurns = lanes
        angularFrequency = 2 * Double.pi / wavelength
    }

    /// Sub-columns needed so that a curve with |y''| ≤ `curvatureBound` deviates from its
    /// chords by little within each sub-column: |y''|·h² ≤ `tolerance` with h = 1/k.
    @inlinable
    static func subColumns(curvatureBound: Double, tolerance: Double) -> Int {
        let k = (curvatureBound / tolerance).squareRoot().rounded(.up)
        if !(k >= 1) { return 1 }  // also catches NaN
        if !(k <= Double(maximumSubColumns)) { return maximumSubColumns }
        return Int(k)
    }

    /// Turns of x = groupX + lane + offset for every lane (in [0, 2)).
    @inlinable @inline(__always)
    func turns(groupX: Int, offset: Double) -> LaneFloats {
        let x = Double(groupX) + offset
        let base = fractionalPart(x * inverseWavelength + phaseTurns)
        return LaneFloats(repeating: Float(base)) + laneTurns
    }
}

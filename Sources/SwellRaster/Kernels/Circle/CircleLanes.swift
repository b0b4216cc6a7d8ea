/// Ring coverage of sixteen pixels of one row at once, in `Float`: the hot path for circles of
/// radius `CircleTuning.exactBelowRadius ... CircleTuning.floatUpToRadius`.
///
/// Both boundaries of a ring share the pixel's direction from the centre, so the square root
/// and the one division are paid once per sixteen pixels; each boundary then costs ~20 vector
/// multiply/add/compare operations. Written with `.replacing(with:where:)` rather than
/// `pointwiseMin`/`abs` on vectors, which compile to long lane-by-lane code (docs/simd-notes).
@frozen @usableFromInline
struct CircleLanes {
    @usableFromInline let outer: Float
    @usableFromInline let inner: Float
    @usableFromInline let outerCurvature: Float
    @usableFromInline let innerCurvature: Float
    @usableFromInline let hasInner: Bool

    @inlinable
    init(outer: Double, inner: Double) {
        self.outer = Float(outer)
        self.inner = Float(inner)
        outerCurvature = Float(1 / (24 * outer))
        hasInner = inner > 0
        innerCurvature = hasInner ? Float(1 / (24 * inner)) : 0
    }

    /// Coverage of the pixels whose centres lie `dx` (per lane) and `dy` from the ring's centre.
    @inlinable @inline(__always)
    func coverage(dx: LaneFloats, dy: Float) -> LaneFloats {
        let zero = LaneFloats(repeating: 0)
        let absX = dx.replacing(with: zero - dx, where: dx .< zero)
        let absY = LaneFloats(repeating: abs(dy))
        let p = absX.replacing(with: absY, where: absX .< absY)  // max(|dx|, |dy|)
        var q = absY.replacing(with: absX, where: absX .< absY)  // min(|dx|, |dy|)
        // Keep 1/(p·q) finite on the axes; b < 1e-3/ρ changes no coverage measurably.
        let tiny = LaneFloats(repeating: 1e-3)
        q = q.replacing(with: tiny, where: q .< tiny)
        let rho = (absX * absX + absY * absY).squareRoot()
        let reciprocal = 1 / (p * q * rho)
        // Normal components a = p/ρ ≥ b = q/ρ and the reciprocals 1/a and 1/(ab), from one division.
        let pq = p * q
        let a = p * p * q * reciprocal
        let b = pq * q * reciprocal
        let inverseA = q * rho * rho * reciprocal
        let inverseAB = rho * rho * rho * reciprocal
        let halfSum = (a + b) * 0.5
        let halfB = b * 0.5
        var result = disc(
            radius: outer, curvature: outerCurvature, rho: rho, halfSum: halfSum, halfB: halfB,
            inverseA: inverseA, inverseAB: inverseAB)
        if hasInner {
            result -= disc(
                radius: inner, curvature: innerCurvature, rho: rho, halfSum: halfSum, halfB: halfB,
                inverseA: inverseA, inverseAB: inverseAB)
            result = result.replacing(with: zero, where: result .< zero)
        }
        return result
    }

    /// The lane form of `halfPlaneDiscCoverage` (see there for the model).
    @inlinable @inline(__always)
    func disc(
        radius: Float, curvature: Float, rho: LaneFloats, halfSum: LaneFloats, halfB: LaneFloats,
        inverseA: LaneFloats, inverseAB: LaneFloats
    ) -> LaneFloats {
        let zero = LaneFloats(repeating: 0)
        let one = LaneFloats(repeating: 1)
        let u = radius - rho
        var linear = 0.5 + u * inverseA
        linear = linear.replacing(with: zero, where: linear .< zero)
        linear = linear.replacing(with: one, where: linear .> one)
        let absU = u.replacing(with: zero - u, where: u .< zero)
        let toCorner = halfSum - absU
        let offset = toCorner - halfB
        let absOffset = offset.replacing(with: zero - offset, where: offset .< zero)
        var cornerRun = halfB - absOffset
        cornerRun = cornerRun.replacing(with: zero, where: cornerRun .< zero)
        let cornerArea = cornerRun * cornerRun * inverseAB * 0.5
        let halfPlane = linear + cornerArea.replacing(with: zero - cornerArea, where: u .> zero)
        var chord = toCorner.replacing(with: zero, where: toCorner .< zero) * inverseAB
        chord = chord.replacing(with: inverseA, where: chord .> inverseA)
        let covered = halfPlane - chord * chord * chord * curvature
        return covered.replacing(with: zero, where: covered .< zero)
    }
}

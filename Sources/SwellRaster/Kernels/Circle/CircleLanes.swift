/// Ring coverage of sixteen pixels of one row at once, in `Float`: the hot path for circles of
/// radius `CircleTuning.exactBelowRadius ... CircleTuning.floatUpToRadius`.
///
/// Both boundaries of a ring share the pixel's direction from the centre, so the square root
/// and the one division are paid once per sixteen pixels; each boundary then costs ~25 vector
/// add/multiply/and operations. No selects or compares (see LaneMath.swift for why).
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

    /// Coverage of the pixels whose centres lie (dx, dy) from the ring's centre.
    @inlinable @inline(__always)
    func coverage(dx: LaneFloats, dy: LaneFloats) -> LaneFloats {
        let absX = magnitude(dx)
        let absY = magnitude(dy)
        let spread = magnitude(absX - absY)
        let p = (absX + absY + spread) * 0.5  // max(|dx|, |dy|)
        // min(|dx|, |dy|), kept ≥ 1e-3 so 1/(p·q) stays finite on the axes; b < 1e-3/ρ changes
        // no coverage measurably.
        let tiny = LaneFloats(repeating: 1e-3)
        let q = tiny + positivePart((absX + absY - spread) * 0.5 - tiny)
        let rho = (absX * absX + absY * absY + 1e-6).squareRoot()  // never 0: no NaN at the centre
        let reciprocal = 1 / (p * q * rho)
        // Normal components a = p/ρ ≥ b = q/ρ and the reciprocals 1/a and 1/(ab), from one division.
        let pq = p * q
        let a = p * pq * reciprocal
        let b = pq * q * reciprocal
        let inverseA = q * rho * rho * reciprocal
        let inverseAB = rho * rho * rho * reciprocal
        let halfSum = (a + b) * 0.5
        let halfB = b * 0.5
        let outerCoverage = disc(
            radius: outer, curvature: outerCurvature, rho: rho, halfSum: halfSum, halfB: halfB,
            inverseA: inverseA, inverseAB: inverseAB)
        guard hasInner else { return outerCoverage }
        let innerCoverage = disc(
            radius: inner, curvature: innerCurvature, rho: rho, halfSum: halfSum, halfB: halfB,
            inverseA: inverseA, inverseAB: inverseAB)
        return positivePart(outerCoverage - innerCoverage)
    }

    /// The lane form of `halfPlaneDiscCoverage` (see there for the model).
    @inlinable @inline(__always)
    func disc(
        radius: Float, curvature: Float, rho: LaneFloats, halfSum: LaneFloats, halfB: LaneFloats,
        inverseA: LaneFloats, inverseAB: LaneFloats
    ) -> LaneFloats {
        let one = LaneFloats(repeating: 1)
        let u = radius - rho
        let linear = capped(positivePart(0.5 + u * inverseA), one)
        let toCorner = halfSum - magnitude(u)
        let cornerRun = positivePart(halfB - magnitude(toCorner - halfB))
        let cornerArea = cornerRun * cornerRun * inverseAB * 0.5
        // Inside the line (u > 0) the corner left out is subtracted, outside it the one let in is added.
        let halfPlane = linear - flippedWhereNegative(cornerArea, u)
        let chord = capped(positivePart(toCorner) * inverseAB, inverseA)
        return positivePart(halfPlane - chord * chord * chord * curvature)
    }
}

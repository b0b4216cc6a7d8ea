/// Ring coverage of sixteen pixels at once, in `Float`: the hot path for circles of radius
/// `CircleTuning.exactBelowRadius ... CircleTuning.floatUpToRadius`.
///
/// Both boundaries of a ring share the pixel's direction from the centre, so the square root
/// and the one division are paid once per sixteen pixels. No selects or compares (see
/// LaneMath.swift for why). (An inverse square root by the 0x5F3759DF bit trick and Newton
/// steps instead of vsqrtps + vdivps was measured 10 % slower on Zen 5: its chain of
/// dependent multiplies is longer than the two instructions' latency.)
///
/// One boundary per pixel: a pixel's projection on the normal spans (a + b)/2 ≤ √2/2 either
/// side of its centre, so when the ring is at least √2 wide no pixel meets both circles. Then,
/// with d = ρ − (middle radius) and h the half width, ring coverage is the half-plane CDF at
/// u = h − |d| (the nearer boundary, seen from the ring's side) with that boundary's curvature
/// term: subtracted at the outer circle (a disc's convex arc), added at the inner one (the arc
/// of the hole bulges away from the ring). This is the two-disc difference, term for term, at
/// half the work. Discs and thinner rings take `disc` once or twice.
@frozen @usableFromInline
struct CircleLanes {
    @usableFromInline let outer: Float
    @usableFromInline let inner: Float
    @usableFromInline let outerCurvature: Float
    @usableFromInline let innerCurvature: Float
    @usableFromInline let hasInner: Bool
    /// The single-boundary form applies (a disc, or a ring at least `widestPixelReach` wide).
    @usableFromInline let oneBoundaryPerPixel: Bool
    @usableFromInline let middle: Float
    @usableFromInline let halfWidth: Float
    /// The curvature term's factor, split so that adding or subtracting `curvatureSpread` by the
    /// sign of d gives 1/(24 R_outer) (outside the middle radius) or 1/(24 R_inner) (inside).
    @usableFromInline let curvatureMean: Float
    @usableFromInline let curvatureSpread: Float
    /// The single-boundary form without its arc term: both radii at least `straightFromRadius`,
    /// where the area between tangent and arc in a pixel is at most (√2)³/(24 R) ≤ 0.0025.
    @usableFromInline let straight: Bool

    /// Inner radii from which rings leave the arc term out.
    @inlinable static var straightFromRadius: Double { 48 }

    /// A pixel's projection on any normal reaches at most √2/2 from its centre; with margin for
    /// the `Float` rounding of a and b.
    @inlinable static var widestPixelReach: Double { 1.4143 }

    @inlinable
    init(outer: Double, inner: Double) {
        self.outer = Float(outer)
        self.inner = Float(inner)
        outerCurvature = Float(1 / (24 * outer))
        hasInner = inner > 0
        innerCurvature = hasInner ? Float(1 / (24 * inner)) : 0
        oneBoundaryPerPixel = !hasInner || outer - inner >= CircleLanes.widestPixelReach
        middle = hasInner ? Float((outer + inner) / 2) : 0
        halfWidth = hasInner ? Float((outer - inner) / 2) : Float(outer)
        let outerFactor = 1 / (24 * outer)
        let innerFactor = hasInner ? 1 / (24 * inner) : 0
        curvatureMean = Float((outerFactor + innerFactor) / 2)
        curvatureSpread = Float((outerFactor - innerFactor) / 2)
        straight = oneBoundaryPerPixel && hasInner && inner >= CircleLanes.straightFromRadius
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
        // These branches are on values fixed for the whole ring (always predicted). They also keep
        // LLVM's SLP vectoriser building whole 16-lane vectors (see LaneMath.swift).
        guard hasInner else {
            return disc(
                radius: outer, curvature: outerCurvature, rho: rho, halfSum: halfSum, halfB: halfB,
                inverseA: inverseA, inverseAB: inverseAB)
        }
        guard oneBoundaryPerPixel else {
            let outerCoverage = disc(
                radius: outer, curvature: outerCurvature, rho: rho, halfSum: halfSum, halfB: halfB,
                inverseA: inverseA, inverseAB: inverseAB)
            let innerCoverage = disc(
                radius: inner, curvature: innerCurvature, rho: rho, halfSum: halfSum, halfB: halfB,
                inverseA: inverseA, inverseAB: inverseAB)
            return positivePart(outerCoverage - innerCoverage)
        }
        guard straight else {
            return nearBoundary(rho: rho, halfSum: halfSum, halfB: halfB, inverseA: inverseA, inverseAB: inverseAB)
        }
        return halfPlaneCoverage(
            u: halfWidth - magnitude(rho - middle), halfSum: halfSum, halfB: halfB, inverseA: inverseA,
            inverseAB: inverseAB)
    }

    /// A ring at least `widestPixelReach` wide (`oneBoundaryPerPixel`): the coverage of pixels
    /// ρ from the centre, from the nearer circle alone, for a pixel footprint on the normal
    /// with components a ≥ b (halfSum = (a + b)/2, halfB = b/2, 1/a and 1/(ab)).
    @inlinable @inline(__always)
    func nearBoundary(
        rho: LaneFloats, halfSum: LaneFloats, halfB: LaneFloats, inverseA: LaneFloats, inverseAB: LaneFloats
    ) -> LaneFloats {
        let d = rho - middle
        let u = halfWidth - magnitude(d)
        let halfPlane = halfPlaneCoverage(
            u: u, halfSum: halfSum, halfB: halfB, inverseA: inverseA, inverseAB: inverseAB)
        let toCorner = halfSum - magnitude(u)
        let chord = capped(positivePart(toCorner) * inverseAB, inverseA)
        // Seen from the nearer circle's disc: the outer one (d ≥ 0) covers `halfPlane`, the inner
        // one 1 − halfPlane. That disc's coverage loses its arc term, chord³/(24 R), and is
        // clamped at 0 as in `disc`; the ring is the outer disc's coverage, or 1 minus the inner
        // one's. Written as flips of (x − 1/2) by the sign of d: no select, no upper clamp needed.
        let nearDisc = flippedWhereNegative(halfPlane - 0.5, d) + 0.5
        let chordCubed = chord * chord * chord
        let arcArea = chordCubed * curvatureMean + flippedWhereNegative(chordCubed * curvatureSpread, d)
        let nearCovered = positivePart(nearDisc - arcArea)
        return flippedWhereNegative(nearCovered - 0.5, d) + 0.5
    }

    /// The pixel area on the inner side of a line u px from the pixel's centre (negative:
    /// the centre is outside), for a footprint on the normal with components a ≥ b: a
    /// trapezoid CDF, the linear ramp less (inside) or plus (outside) the corner triangle.
    @inlinable @inline(__always)
    func halfPlaneCoverage(
        u: LaneFloats, halfSum: LaneFloats, halfB: LaneFloats, inverseA: LaneFloats, inverseAB: LaneFloats
    ) -> LaneFloats {
        let linear = capped(positivePart(0.5 + u * inverseA), LaneFloats(repeating: 1))
        let toCorner = halfSum - magnitude(u)
        let cornerRun = positivePart(halfB - magnitude(toCorner - halfB))
        let cornerArea = cornerRun * cornerRun * inverseAB * 0.5
        return linear - flippedWhereNegative(cornerArea, u)
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

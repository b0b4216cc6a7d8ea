/// The row model for a ring's steep sides: each pixel row takes the ring's normal where the
/// row's centre line crosses the middle circle, instead of each pixel's own direction from the
/// centre. The footprint constants (1/a, 1/(ab), (a + b)/2, b/2) are then one set per row,
/// computed for sixteen rows or row sides at once, and a pixel's coverage costs a square root
/// and the half-plane CDF (`CircleLanes.nearBoundary`), with no division and no per-pixel
/// normal: about half the operations of `CircleLanes.coverage`.
///
/// Accuracy: the normal of a pixel of a steep run differs from its row's by at most
/// (run length)·|n_y|/R radians; for rings 2 px wide, against 32×32 supersampling, the mean
/// error over edge pixels was 0.00103 (row model) against 0.00082 (per-pixel normal) at
/// R = 32 and equal from R = 100, with the same maximum (a numpy prototype of both models).
/// Used for rings of inner radius ≥ `minimumRadius` that are at least `widestPixelReach` wide
/// (one boundary per pixel); RingAccuracyTests checks it against the exact reference.
@frozen @usableFromInline
struct RowNormal {
    @usableFromInline let inverseA: LaneFloats
    @usableFromInline let inverseAB: LaneFloats
    @usableFromInline let halfSum: LaneFloats
    @usableFromInline let halfB: LaneFloats

    /// Inner radii from which steep rows use the row model.
    @inlinable static var minimumRadius: Double { 24 }

    /// The row normals of rows whose centres lie `dy` from the ring's centre (per lane).
    @inlinable @inline(__always)
    init(dy: LaneFloats, _ lanes: CircleLanes) {
        let middle = LaneFloats(repeating: lanes.middle)
        let absY = magnitude(dy)
        // Where the row's centre line meets the middle circle: x = √(R² − dy²) (0 where it does
        // not, which steep rows never are).
        let absX = magnitude(positivePart((middle - absY) * (middle + absY))).squareRoot()
        let spread = magnitude(absX - absY)
        let p = (absX + absY + spread) * 0.5  // max
        let tiny = LaneFloats(repeating: 1e-3)
        let q = tiny + positivePart((absX + absY - spread) * 0.5 - tiny)  // min, ≥ 1e-3 as in CircleLanes
        // a = p/R and b = q/R; 1/a = R/p and 1/(ab) = R²/(pq), from one division.
        let reciprocal = 1 / (p * q)
        let inverseMiddle = 1 / lanes.middle
        inverseA = middle * q * reciprocal
        inverseAB = middle * middle * reciprocal
        halfSum = (p + q) * (0.5 * inverseMiddle)
        halfB = q * (0.5 * inverseMiddle)
    }

    /// Coverage of the pixels `dx` from the centre on rows whose dy² is `dySquared`, with or
    /// without the arc term (`CircleLanes.straight`: the tangent line's coverage alone, half
    /// the operations).
    @inlinable @inline(__always)
    func coverage(dx: LaneFloats, dySquared: LaneFloats, _ lanes: CircleLanes, arcs: Bool) -> LaneFloats {
        // The root's argument passed through `magnitude` (one bitwise and): LLVM then knows it is
        // not negative and keeps the root one vector instruction (else a sqrtf call per lane).
        let rho = magnitude(dx * dx + dySquared).squareRoot()
        guard arcs else {
            let u = lanes.halfWidth - magnitude(rho - lanes.middle)
            return lanes.halfPlaneCoverage(
                u: u, halfSum: halfSum, halfB: halfB, inverseA: inverseA, inverseAB: inverseAB)
        }
        return lanes.nearBoundary(
            rho: rho, halfSum: halfSum, halfB: halfB, inverseA: inverseA, inverseAB: inverseAB)
    }
}

extension CircleLanes {
    /// Whether steep rows of this ring use `RowNormal`.
    @inlinable var rowModelFits: Bool {
        hasInner && oneBoundaryPerPixel && Double(inner) >= RowNormal.minimumRadius
    }
}

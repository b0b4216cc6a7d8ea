/// The ends of a stroke: butt caps, cut by the curve's normals at x = 0 and x = L, as
/// bench-data/README.md defines a wave stroke (the points within r of the curve *measured
/// along its normals*).
///
/// Near an end the stroke is, to second order, a straight band between the two offset edges
/// (the curve moved by ±r along its normal), which stop at the end's normal line. An offset
/// edge of an end with slope m stops at x = end ∓ r·m/√(1 + m²) (for the edge on the +y side
/// and the −y side). Every method first computes the round stroke's cross-section (the band
/// plus the disc of radius r around the end point: `apply` for the fast and exact paths, the
/// discs' own search for the sampled-disc path, the capsules for the robust one), then
/// `cutAtNormals` removes what lies beyond an end's normal within the x range the normal
/// spans, |x − end| < r·|m|/√(1 + m²): there the round stroke beyond the normal is the end
/// disc's outer half, so what is left is the butt end. On a vertical line x in that range the
/// normal line is one height, y = y_end − (x − end)/m, and the cut is one bound of [lo, hi]. For
/// an end where the stroke folds (`WaveStrokeGeometry.hasButtEnds` false) the ends stay round;
/// the reference (`ReferenceWave.cutAtEndNormals`) follows the same rule.
@usableFromInline
struct WaveStrokeEnds {
    /// End points (y relative to the band origin) and the x range of each offset edge.
    @usableFromInline let startY: Float
    @usableFromInline let endX: Float
    @usableFromInline let endY: Float
    /// The +y offset edge exists for x in [highFrom, highTo], the −y one for [lowFrom, lowTo].
    @usableFromInline let highFrom: Float
    @usableFromInline let highTo: Float
    @usableFromInline let lowFrom: Float
    @usableFromInline let lowTo: Float
    @usableFromInline let radius: Float
    /// Slopes g'(0) and g'(L), their reciprocals (0 for a zero slope), and the x range each end
    /// normal spans beyond its end point's x: r·|m|/√(1 + m²).
    @usableFromInline let startSlope: Float
    @usableFromInline let endSlope: Float
    @usableFromInline let startInverseSlope: Float
    @usableFromInline let endInverseSlope: Float
    @usableFromInline let startReach: Float
    @usableFromInline let endReach: Float
    /// `WaveStrokeGeometry.hasButtEnds`: false keeps the round ends.
    @usableFromInline let cut: Bool

    @inlinable
    init(_ geometry: WaveStrokeGeometry, origin: Int) {
        let r = geometry.radius
        let length = geometry.length
        startY = Float(geometry.centre(0) - Double(origin))
        endX = Float(length)
        endY = Float(geometry.centre(length) - Double(origin))
        // Offset edge ends: E ± r·n with n = (−m, 1)/√(1 + m²).
        let m0 = geometry.slope(0)
        let m1 = geometry.slope(length)
        let shift0 = r * m0 / (1 + m0 * m0).squareRoot()
        let shift1 = r * m1 / (1 + m1 * m1).squareRoot()
        highFrom = Float(-shift0)
        lowFrom = Float(shift0)
        highTo = Float(length - shift1)
        lowTo = Float(length + shift1)
        radius = Float(r)
        startSlope = Float(m0)
        endSlope = Float(m1)
        startInverseSlope = m0 != 0 ? Float(1 / m0) : 0
        endInverseSlope = m1 != 0 ? Float(1 / m1) : 0
        startReach = Float(abs(shift0))
        endReach = Float(abs(shift1))
        cut = geometry.hasButtEnds
    }

    @inlinable @inline(__always)
    func selectMin(_ a: LaneFloats, _ b: LaneFloats) -> LaneFloats {
        var r = a
        r.replace(with: b, where: b .< a)
        return r
    }

    @inlinable @inline(__always)
    func selectMax(_ a: LaneFloats, _ b: LaneFloats) -> LaneFloats {
        var r = a
        r.replace(with: b, where: b .> a)
        return r
    }

    /// Applies the ends to a band cross-section [low, high] at the lanes' x (only for the
    /// groups at the ends, so the lane masks used here cost little): the round stroke's
    /// cross-section, then `cutAtNormals`.
    @inlinable @inline(__always)
    func apply(x: LaneFloats, low: inout LaneFloats, high: inout LaneFloats) {
        let infinity = LaneFloats(repeating: .infinity)
        high.replace(with: -infinity, where: (x .< highFrom) .| (x .> highTo))
        low.replace(with: infinity, where: (x .< lowFrom) .| (x .> lowTo))
        let rr = radius * radius
        let zero = LaneFloats(repeating: 0)
        let d0 = x
        let h0 = laneAbs(laneMax(rr - d0 * d0, zero)).squareRoot()  // |…| lets LLVM use vsqrtps
        let in0 = d0 * d0 .<= rr
        high.replace(with: selectMax(high, startY + h0), where: in0)
        low.replace(with: selectMin(low, startY - h0), where: in0)
        let d1 = x - endX
        let h1 = laneAbs(laneMax(rr - d1 * d1, zero)).squareRoot()
        let in1 = d1 * d1 .<= rr
        high.replace(with: selectMax(high, endY + h1), where: in1)
        low.replace(with: selectMin(low, endY - h1), where: in1)
        cutAtNormals(x: x, low: &low, high: &high)
    }

    /// Cuts a round stroke's cross-section [low, high] at the lanes' x by the end normals
    /// (butt caps); where nothing is left, an empty cross-section at the nearer end point.
    @inlinable @inline(__always)
    func cutAtNormals(x: LaneFloats, low: inout LaneFloats, high: inout LaneFloats) {
        if cut { cutBeyondNormals(x: x, low: &low, high: &high) }
        // Beyond the ends: an empty cross-section at the nearer end point.
        var empty = LaneFloats(repeating: endY)
        empty.replace(with: LaneFloats(repeating: startY), where: x .< endX * 0.5)
        let none = .!(low .<= high)
        low.replace(with: empty, where: none)
        high.replace(with: empty, where: none)
    }

    @inlinable @inline(__always)
    func cutBeyondNormals(x: LaneFloats, low: inout LaneFloats, high: inout LaneFloats) {
        // Start: beyond the normal is x + m₀·(y − y₀) < 0, i.e. y < y₀ − x/m₀ for m₀ > 0.
        let nearStart = x .< startReach
        let startNormal = startY - x * startInverseSlope
        if startSlope > 0 {
            low.replace(with: selectMax(low, startNormal), where: nearStart)
        } else if startSlope < 0 {
            high.replace(with: selectMin(high, startNormal), where: nearStart)
        } else {
            low.replace(with: .infinity, where: x .< 0)
        }
        // End: beyond the normal is (x − L) + m₁·(y − y₁) > 0, i.e. y > y₁ − (x − L)/m₁ for m₁ > 0.
        let nearEnd = x .> endX - endReach
        let endNormal = endY - (x - endX) * endInverseSlope
        if endSlope > 0 {
            high.replace(with: selectMin(high, endNormal), where: nearEnd)
        } else if endSlope < 0 {
            low.replace(with: selectMax(low, endNormal), where: nearEnd)
        } else {
            low.replace(with: .infinity, where: x .> endX)
        }
    }
}

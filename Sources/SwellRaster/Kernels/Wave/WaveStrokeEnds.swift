/// The round caps of a gently bent stroke, for the SIMD fast path.
///
/// Near an end the stroke is, to second order, a straight capsule: the band between the two
/// offset edges (the curve moved by ±r along its normal), which stop at the end's normal
/// line, together with the disc of radius r around the end point. The vertical cross-section
/// is therefore hi = max(band top where the upper offset edge reaches x, disc top) and
/// lo = min(band bottom where the lower offset edge reaches x, disc bottom). An offset edge
/// of an end with slope m stops at x = end ∓ r·m/√(1 + m²) (for the edge on the +y side and
/// the −y side), which is where the band's vertical cross-section stops being valid.
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

    /// Applies the caps to a band cross-section [low, high] at the lanes' x (only for the
    /// groups at the ends, so the lane masks used here cost little).
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
        // Beyond the caps: an empty cross-section at the nearer end point.
        var empty = LaneFloats(repeating: endY)
        empty.replace(with: LaneFloats(repeating: startY), where: x .< endX * 0.5)
        let none = .!(low .<= high)
        low.replace(with: empty, where: none)
        high.replace(with: empty, where: none)
    }
}

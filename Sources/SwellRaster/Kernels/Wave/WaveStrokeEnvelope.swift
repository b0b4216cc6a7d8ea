/// The robust path of the stroke kernel: the exact vertical cross-section of the stroke of a
/// fine polyline through the centre line.
///
/// The points within r of the graph of a continuous function over [0, L] meet every vertical
/// line x in a single interval [lo(x), hi(x)]: between the lowest and highest centre-line values
/// within r horizontally every height is reached (intermediate values), and outside that range
/// the distance grows monotonically. So hi(x) is the maximum over the capsules of the polyline
/// of their top at x (the discs around the vertices and the offset edges of the segments), and
/// lo(x) the minimum of their bottoms. Round caps come for free: the disc around an end vertex.
/// Used for the ends of every stroke and for strokes whose curvature is too high for the
/// vertical band g ± r·√(1 + g'²). Scalar Double, a few hundred operations per sample.
@usableFromInline
struct WaveStrokeEnvelope {
    @usableFromInline let geometry: WaveStrokeGeometry
    /// The polyline's vertex spacing.
    @usableFromInline let step: Double
    @usableFromInline let lastVertex: Int

    @inlinable
    init(_ geometry: WaveStrokeGeometry) {
        self.geometry = geometry
        // Chord error κ·δ²/8 ≤ 1e-3 px, at most 1 px, and at most ~128 vertices per window.
        var step = (8e-3 / max(geometry.curvatureBound, 1e-12)).squareRoot()
        step = min(step, 1)
        step = max(step, 2 * geometry.radius / 126, geometry.length / 1e7)
        self.step = step
        lastVertex = Int((geometry.length / step).rounded(.up))
    }

    @inlinable @inline(__always)
    func vertexX(_ m: Int) -> Double { min(Double(m) * step, geometry.length) }

    /// [lo, hi] of the stroke at x (for x beyond the caps: a zero-width interval at the end).
    @inlinable
    func interval(at x: Double) -> (low: Double, high: Double) {
        let r = geometry.radius
        let length = geometry.length
        if x <= -r || x >= length + r {
            let y = geometry.centre(x <= -r ? 0 : length)
            return (y, y)
        }
        let first = max(0, Int(((x - r) / step).rounded(.down)))
        let last = min(lastVertex, Int(((x + r) / step).rounded(.up)))
        var low = Double.infinity
        var high = -Double.infinity
        var px = vertexX(first)
        var py = geometry.centre(px)
        for m in first...last {
            // The disc around vertex m.
            let dx = x - px
            if abs(dx) <= r {
                let h = (r * r - dx * dx).squareRoot()
                low = min(low, py - h)
                high = max(high, py + h)
            }
            guard m < last else { break }
            let qx = vertexX(m + 1)
            let qy = geometry.centre(qx)
            // The two offset edges of segment m: the segment moved by ±r along its normal.
            let sx = qx - px
            let sy = qy - py
            let scale = r / (sx * sx + sy * sy).squareRoot()
            let nx = -sy * scale  // the normal (nx, ny) points to larger y (ny > 0)
            let ny = sx * scale
            if sx > 0 {
                let upperStart = px + nx
                let lowerStart = px - nx
                if x >= upperStart && x <= upperStart + sx {
                    high = max(high, py + ny + sy * (x - upperStart) / sx)
                }
                if x >= lowerStart && x <= lowerStart + sx {
                    low = min(low, py - ny + sy * (x - lowerStart) / sx)
                }
            }
            px = qx
            py = qy
        }
        if !(low <= high) {
            let y = geometry.centre(min(max(x, 0), length))
            return (y, y)
        }
        return (low, high)
    }
}

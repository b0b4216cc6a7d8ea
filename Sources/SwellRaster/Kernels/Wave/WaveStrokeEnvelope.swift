/// The robust path of the stroke kernel: the exact vertical cross-section of the stroke of a
/// fine polyline through the centre line.
///
/// The points within r of the graph of a continuous function over [0, L] meet every vertical
/// line x in a single interval [lo(x), hi(x)]: between the lowest and highest centre-line values
/// within r horizontally every height is reached (intermediate values), and outside that range
/// the distance grows monotonically. So hi(x) is the maximum over the capsules of the polyline
/// of their top at x (the discs around the vertices and the offset edges of the segments), and
/// lo(x) the minimum of their bottoms. Round ends come for free (the disc around an end vertex);
/// the kernel then cuts them at the end normals (`WaveStrokeEnds.cutAtNormals`).
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
    ///
    /// The polyline scan finds where the top and bottom are attained (within one vertex step);
    /// a golden-section search of the exact centre line then refines them, so the polyline's
    /// chord error does not reach the result (hi is max over x' of g(x') + √(r² − (x' − x)²)).
    @inlinable
    func interval(at x: Double) -> (low: Double, high: Double) {
        interval(at: x, vertices: ComputedVertices(envelope: self))
    }

    /// The vertices a sample at x scans: [first, last] (empty, first > last, beyond the caps).
    @inlinable
    func vertexRange(at x: Double) -> (first: Int, last: Int) {
        let r = geometry.radius
        guard x > -r && x < geometry.length + r else { return (1, 0) }
        // Clamped in Double first: with extreme widths and lengths the quotients may not fit Int.
        let last = Int(min(Double(lastVertex), ((x + r) / step).rounded(.up)))
        let first = min(last, Int(max(0, ((x - r) / step).rounded(.down))))
        return (first, last)
    }

    /// `interval(at:)` with the polyline's vertices and segments taken from `vertices` (computed
    /// on the spot, or cached for the samples of a group: neighbouring samples share them).
    @inlinable
    func interval<Vertices: PolylineVertices>(at x: Double, vertices: Vertices) -> (low: Double, high: Double) {
        let r = geometry.radius
        let length = geometry.length
        if x <= -r || x >= length + r {
            let y = geometry.centre(x <= -r ? 0 : length)
            return (y, y)
        }
        let (first, last) = vertexRange(at: x)
        var low = Double.infinity
        var high = -Double.infinity
        var lowAt = x
        var highAt = x
        var px = vertexX(first)
        var py = vertices.height(first)
        for m in first...last {
            // The disc around vertex m.
            let dx = x - px
            if abs(dx) <= r {
                let h = (r * r - dx * dx).squareRoot()
                if py - h < low {
                    low = py - h
                    lowAt = px
                }
                if py + h > high {
                    high = py + h
                    highAt = px
                }
            }
            guard m < last else { break }
            let qx = vertexX(m + 1)
            let qy = vertices.height(m + 1)
            // The two offset edges of segment m: the segment moved by ±r along its normal.
            let sx = qx - px
            let (nx, ny, slope) = vertices.segment(m)
            if sx > 0 {
                let upperStart = px + nx
                let lowerStart = px - nx
                if x >= upperStart && x <= upperStart + sx {
                    let y = py + ny + slope * (x - upperStart)
                    if y > high {
                        high = y
                        highAt = x - nx
                    }
                }
                if x >= lowerStart && x <= lowerStart + sx {
                    let y = py - ny + slope * (x - lowerStart)
                    if y < low {
                        low = y
                        lowAt = x + nx
                    }
                }
            }
            px = qx
            py = qy
        }
        guard low <= high else {
            let y = geometry.centre(min(max(x, 0), length))
            return (y, y)
        }
        let windowStart = max(0, x - r)
        let windowEnd = min(length, x + r)
        let refinedHigh = refine(x, around: highAt, from: windowStart, to: windowEnd, sign: 1)
        let refinedLow = refine(x, around: lowAt, from: windowStart, to: windowEnd, sign: -1)
        // The exact discs at the window ends (the caps) are lower bounds of hi too.
        let startDisc = disc(x, at: windowStart)
        let endDisc = disc(x, at: windowEnd)
        return (min(refinedLow, startDisc.low, endDisc.low), max(refinedHigh, startDisc.high, endDisc.high))
    }

    @inlinable
    func disc(_ x: Double, at centreX: Double) -> (low: Double, high: Double) {
        let r = geometry.radius
        let dx = x - centreX
        let h = max(0, r * r - dx * dx).squareRoot()
        let y = geometry.centre(centreX)
        return (y - h, y + h)
    }

    /// The maximum of sign·(g(x') ± √(r² − (x' − x)²)) for x' within one polyline step of
    /// `guess` (and inside [from, to]), by golden-section search.
    @inlinable
    func refine(_ x: Double, around guess: Double, from: Double, to: Double, sign: Double) -> Double {
        let r = geometry.radius
        @inline(__always) func value(_ t: Double) -> Double {
            let dx = t - x
            return sign * geometry.centre(t) + max(0, r * r - dx * dx).squareRoot()
        }
        var a = max(from, guess - step)
        var b = min(to, guess + step)
        guard a < b else { return value(max(from, min(to, guess))) }
        let ratio = 0.381_966_011_250_105_2
        var c = a + ratio * (b - a)
        var d = b - ratio * (b - a)
        var fc = value(c)
        var fd = value(d)
        for _ in 0..<24 {
            if fc >= fd {
                b = d
                d = c
                fd = fc
                c = a + ratio * (b - a)
                fc = value(c)
            } else {
                a = c
                c = d
                fc = fd
                d = b - ratio * (b - a)
                fd = value(d)
            }
        }
        return sign * max(fc, fd, value(a), value(b))
    }
}

/// Where `WaveStrokeEnvelope.interval` reads the polyline: vertex heights and, per segment m
/// (vertex m to m + 1), its normal scaled to r, (nx, ny) with ny ≥ 0, and its slope.
@usableFromInline
protocol PolylineVertices {
    func height(_ m: Int) -> Double
    func segment(_ m: Int) -> (nx: Double, ny: Double, slope: Double)
}

/// The polyline computed on the spot (one sine per vertex and a square root per segment).
@usableFromInline
struct ComputedVertices: PolylineVertices {
    @usableFromInline let envelope: WaveStrokeEnvelope

    @inlinable init(envelope: WaveStrokeEnvelope) { self.envelope = envelope }

    @inlinable @inline(__always)
    func height(_ m: Int) -> Double { envelope.geometry.centre(envelope.vertexX(m)) }

    @inlinable @inline(__always)
    func segment(_ m: Int) -> (nx: Double, ny: Double, slope: Double) {
        let px = envelope.vertexX(m)
        let qx = envelope.vertexX(m + 1)
        return envelopeSegment(sx: qx - px, sy: height(m + 1) - height(m), radius: envelope.geometry.radius)
    }
}

/// The normal of a segment scaled to `radius` (pointing to larger y) and its slope.
@inlinable @inline(__always)
func envelopeSegment(sx: Double, sy: Double, radius: Double) -> (nx: Double, ny: Double, slope: Double) {
    let scale = radius / (sx * sx + sy * sy).squareRoot()
    return (-sy * scale, sx * scale, sy / sx)
}

/// The vertices first...last of the polyline, computed once for all the samples of a group
/// (a group's 16 columns and their sub-columns scan overlapping windows of the same vertices:
/// computing them per sample was ~45 % of the robust path). Four Doubles per vertex in `storage`.
@usableFromInline
struct CachedVertices: PolylineVertices {
    @usableFromInline let first: Int
    @usableFromInline let heights: UnsafeMutablePointer<Double>
    @usableFromInline let normalsX: UnsafeMutablePointer<Double>
    @usableFromInline let normalsY: UnsafeMutablePointer<Double>
    @usableFromInline let slopes: UnsafeMutablePointer<Double>

    /// Vertices that fit in `capacity` Doubles of storage.
    @inlinable static func capacity(doubles: Int) -> Int { doubles / 4 }

    @inlinable
    init(_ envelope: WaveStrokeEnvelope, first: Int, last: Int, storage: UnsafeMutablePointer<Double>, capacity: Int) {
        self.first = first
        heights = storage
        normalsX = storage + capacity
        normalsY = storage + 2 * capacity
        slopes = storage + 3 * capacity
        let computed = ComputedVertices(envelope: envelope)
        for m in first...last { heights[m - first] = computed.height(m) }
        for m in first..<last {
            let sx = envelope.vertexX(m + 1) - envelope.vertexX(m)
            let (nx, ny, slope) = envelopeSegment(
                sx: sx, sy: heights[m + 1 - first] - heights[m - first], radius: envelope.geometry.radius)
            normalsX[m - first] = nx
            normalsY[m - first] = ny
            slopes[m - first] = slope
        }
    }

    @inlinable @inline(__always)
    func height(_ m: Int) -> Double { heights[m - first] }

    @inlinable @inline(__always)
    func segment(_ m: Int) -> (nx: Double, ny: Double, slope: Double) {
        (normalsX[m - first], normalsY[m - first], slopes[m - first])
    }
}

import Foundation
import SwellRaster

/// Independent Double-precision coverage of wave fills and strokes, for judging the kernels.
///
/// Fills: `samples` vertical sample lines per pixel column, each contributing the exact
/// vertical coverage clamp(j + 1 − f(x), 0, 1) of every row (Foundation `sin`).
/// Strokes: `subRows` horizontal sample lines per pixel row, each contributing the exact
/// x-intervals of the union of the capsules (radius width/2) around a polyline through the
/// centre line, fine enough that its chord error is below 1e-4 px, with the ends cut by the
/// curve's exact normals at x = 0 and x = L (butt caps, as bench-data/README.md defines the
/// stroke: the points within width/2 *measured perpendicular to the curve* for 0 ≤ x ≤ L),
/// except where the stroke folds within its width of an end, which stays round. The
/// kernels instead work with vertical cross-sections and chords per column, so the two methods
/// share nothing but the definition of the shape.
enum ReferenceWave {
    static func height(_ wave: Wave, at x: Double) -> Double {
        wave.baseline + wave.amplitude * sin(2 * Double.pi * x / wave.wavelength + wave.phase)
    }

    static func centre(_ stroke: WaveStroke, at x: Double) -> Double {
        let wave = stroke.wave
        var e = 1.0
        if stroke.envelope == .parabola {
            let half = stroke.length / 2
            e = 1 - ((x - half) / half) * ((x - half) / half)
        }
        return wave.baseline + e * wave.amplitude * sin(2 * Double.pi * x / wave.wavelength + wave.phase)
    }

    /// Coverage of the fill over the pixels [x0, x0 + width) x [y0, y0 + height).
    static func fillCoverage(_ wave: Wave, x0: Int = 0, y0: Int = 0, width: Int, height: Int, samples: Int = 256)
        -> CoverageMap
    {
        var values = [Double](repeating: 0, count: width * height)
        let weight = 1 / Double(samples)
        for i in 0..<width {
            for s in 0..<samples {
                let x = Double(x0 + i) + (Double(s) + 0.5) * weight
                let f = self.height(wave, at: x) - Double(y0)
                // Row j gets clamp(j + 1 − f, 0, 1): 0 above the curve, 1 below its row.
                let curveRow = f.rounded(.down)
                if curveRow >= Double(height) { continue }
                var j = 0
                if curveRow >= 0 {
                    j = Int(curveRow)
                    values[j * width + i] += (Double(j) + 1 - f) * weight
                    j += 1
                }
                while j < height {
                    values[j * width + i] += weight
                    j += 1
                }
            }
        }
        return CoverageMap(width: width, height: height, values: values)
    }

    /// A bound of |g''| used only to choose the polyline step.
    static func curvatureBound(_ stroke: WaveStroke) -> Double {
        let a = abs(stroke.wave.amplitude)
        let w = 2 * Double.pi / abs(stroke.wave.wavelength)
        guard stroke.envelope == .parabola else { return a * w * w }
        let e1 = 4 / stroke.length
        return a * (w * w + 2 * e1 * w + 2 * e1 * e1)
    }

    /// Coverage of the stroke over the pixels [x0, x0 + width) x [y0, y0 + height).
    static func strokeCoverage(
        _ stroke: WaveStroke, x0: Int = 0, y0: Int = 0, width: Int, height: Int, subRows: Int = 256
    ) -> CoverageMap {
        var values = [Double](repeating: 0, count: width * height)
        let r = stroke.width / 2
        guard r > 0 else { return CoverageMap(width: width, height: height, values: values) }
        // Polyline over the part of [0, L] that can reach the crop; chord error κ·δ²/8 < 1e-4.
        let step = min(0.25, max(1e-3, (8e-4 / max(curvatureBound(stroke), 1e-12)).squareRoot()))
        let from = max(0, Double(x0) - r - 1)
        let to = min(stroke.length, Double(x0 + width) + r + 1)
        guard from <= to else { return CoverageMap(width: width, height: height, values: values) }
        var points: [(x: Double, y: Double)] = []
        var x = from
        while true {
            points.append((x, centre(stroke, at: x)))
            if x >= to { break }
            x = min(x + step, to)
        }
        if points.count == 1 { points.append(points[0]) }
        // Segments by pixel row they can reach.
        var rowSegments = [[Int]](repeating: [], count: height)
        for m in 0..<(points.count - 1) {
            let lowY = min(points[m].y, points[m + 1].y) - r - Double(y0)
            let highY = max(points[m].y, points[m + 1].y) + r - Double(y0)
            let first = max(0, Int(max(lowY, -1).rounded(.down)))
            let last = min(height - 1, Int(min(highY, Double(height)).rounded(.down)))
            if first <= last { for j in first...last { rowSegments[j].append(m) } }
        }
        let ends = EndNormals(stroke)
        let cut = buttEnds(stroke)
        var spans: [(Double, Double)] = []
        for j in 0..<height where !rowSegments[j].isEmpty {
            for sub in 0..<subRows {
                let ys = Double(y0 + j) + (Double(sub) + 0.5) / Double(subRows)
                spans.removeAll(keepingCapacity: true)
                for m in rowSegments[j] {
                    if let span = capsuleSpan(points[m], points[m + 1], radius: r, atY: ys) { spans.append(span) }
                }
                if cut { cutAtEndNormals(&spans, ends, atY: ys) }
                guard !spans.isEmpty else { continue }
                spans.sort { $0.0 < $1.0 }
                var current = spans[0]
                for span in spans.dropFirst() {
                    if span.0 <= current.1 {
                        current.1 = max(current.1, span.1)
                    } else {
                        add(current, row: j, x0: x0, width: width, weight: 1 / Double(subRows), into: &values)
                        current = span
                    }
                }
                add(current, row: j, x0: x0, width: width, weight: 1 / Double(subRows), into: &values)
            }
        }
        return CoverageMap(width: width, height: height, values: values)
    }

    /// The two end normals of a stroke: end points, exact slopes g'(0) and g'(L) (from the
    /// derivative written out, not differences), and how far each normal reaches along x.
    struct EndNormals {
        let startY: Double
        let startSlope: Double
        let startReach: Double
        let length: Double
        let endY: Double
        let endSlope: Double
        let endReach: Double

        init(_ stroke: WaveStroke) {
            let r = stroke.width / 2
            length = stroke.length
            startY = centre(stroke, at: 0)
            endY = centre(stroke, at: stroke.length)
            startSlope = slope(stroke, at: 0)
            endSlope = slope(stroke, at: stroke.length)
            startReach = r * abs(startSlope) / (1 + startSlope * startSlope).squareRoot()
            endReach = r * abs(endSlope) / (1 + endSlope * endSlope).squareRoot()
        }
    }

    /// Whether the stroke's ends are cut (butt caps): where it does not fold within its width
    /// of an end, r·|g″| ≤ ½ over the 2r + 2 px next to each end, bounded here from the
    /// envelope's own bound near the ends. Where it folds the ends stay round.
    static func buttEnds(_ stroke: WaveStroke) -> Bool {
        let r = stroke.width / 2
        guard stroke.envelope == .parabola else { return r * curvatureBound(stroke) <= 0.5 }
        let a = abs(stroke.wave.amplitude)
        let w = 2 * Double.pi / abs(stroke.wave.wavelength)
        let near = min(1, 4 * (2 * r + 2) / stroke.length)
        let e1 = 4 / stroke.length
        let bound = a * (near * w * w + 2 * e1 * w + e1 * e1 / 2)
        return r * bound <= 0.5
    }

    static func slope(_ stroke: WaveStroke, at x: Double) -> Double {
        let wave = stroke.wave
        let omega = 2 * Double.pi / wave.wavelength
        let s = sin(omega * x + wave.phase)
        let c = cos(omega * x + wave.phase)
        guard stroke.envelope == .parabola else { return wave.amplitude * omega * c }
        let half = stroke.length / 2
        let u = (x - half) / half
        return wave.amplitude * ((-2 * u / half) * s + (1 - u * u) * omega * c)
    }

    /// Removes from the spans of the line y = ys what lies beyond an end normal: at the start the
    /// points with (P − E₀)·(1, m₀) < 0, at the end those with (P − E₁)·(1, m₁) > 0, each only
    /// within the x range its normal spans (|x − end| ≤ r·|m|/√(1 + m²)), where the round stroke
    /// beyond the normal is the end disc's outer half. Near an end whose stroke does not fold,
    /// that leaves exactly the points within r of the curve measured along its normals.
    static func cutAtEndNormals(_ spans: inout [(Double, Double)], _ ends: EndNormals, atY ys: Double) {
        // Beyond the start normal: x < −m₀·(ys − y₀), within x < reach₀.
        let startCut = min(ends.startReach, -ends.startSlope * (ys - ends.startY))
        // Beyond the end normal: x > L − m₁·(ys − y₁), within x > L − reach₁.
        let endCut = max(ends.length - ends.endReach, ends.length - ends.endSlope * (ys - ends.endY))
        spans = spans.compactMap { span in
            let low = max(span.0, startCut)
            let high = min(span.1, endCut)
            return low < high ? (low, high) : nil
        }
    }

    private static func add(
        _ span: (Double, Double), row: Int, x0: Int, width: Int, weight: Double, into values: inout [Double]
    ) {
        let a = span.0 - Double(x0)
        let b = span.1 - Double(x0)
        let first = max(0, Int(max(a, -1).rounded(.down)))
        let last = min(width - 1, Int(min(b, Double(width)).rounded(.down)))
        guard first <= last else { return }
        for i in first...last {
            let overlap = min(b, Double(i + 1)) - max(a, Double(i))
            if overlap > 0 { values[row * width + i] += overlap * weight }
        }
    }

    /// The x-interval where the horizontal line y = ys meets the capsule of radius r around p–q.
    static func capsuleSpan(_ p: (x: Double, y: Double), _ q: (x: Double, y: Double), radius r: Double, atY ys: Double)
        -> (Double, Double)?
    {
        if ys < min(p.y, q.y) - r || ys > max(p.y, q.y) + r { return nil }
        var low = Double.infinity
        var high = -Double.infinity
        func addDisc(_ c: (x: Double, y: Double)) {
            let dy = ys - c.y
            if abs(dy) <= r {
                let h = (r * r - dy * dy).squareRoot()
                low = min(low, c.x - h)
                high = max(high, c.x + h)
            }
        }
        addDisc(p)
        addDisc(q)
        let dx = q.x - p.x
        let dy = q.y - p.y
        let length = (dx * dx + dy * dy).squareRoot()
        if length > 0 {
            let ux = dx / length
            let uy = dy / length
            // along(x) = (x − p.x)·ux + (ys − p.y)·uy ∈ [0, length];
            // across(x) = −(x − p.x)·uy + (ys − p.y)·ux ∈ [−r, r].
            var a = -Double.infinity
            var b = Double.infinity
            func limit(_ slope: Double, _ offset: Double, _ lo: Double, _ hi: Double) {
                if abs(slope) < 1e-15 {
                    if offset < lo || offset > hi {
                        a = .infinity
                        b = -.infinity
                    }
                    return
                }
                let t1 = (lo - offset) / slope
                let t2 = (hi - offset) / slope
                a = max(a, min(t1, t2))
                b = min(b, max(t1, t2))
            }
            limit(ux, (ys - p.y) * uy, 0, length)
            limit(-uy, (ys - p.y) * ux, -r, r)
            if a <= b {
                low = min(low, p.x + a)
                high = max(high, p.x + b)
            }
        }
        return low <= high ? (low, high) : nil
    }
}

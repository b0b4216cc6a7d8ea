import Foundation
import SwellRaster

/// Independent Double-precision coverage of wave fills and strokes, for judging the kernels.
///
/// Fills: `samples` vertical sample lines per pixel column, each contributing the exact
/// vertical coverage clamp(j + 1 − f(x), 0, 1) of every row (Foundation `sin`).
/// Strokes: `subRows` horizontal sample lines per pixel row, each contributing the exact
/// x-intervals of the union of the capsules (radius width/2) around a polyline through the
/// centre line, fine enough that its chord error is below 1e-4 px. The kernels instead work
/// with vertical cross-sections and chords per column, so the two methods share nothing but
/// the definition of the shape.
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
        var spans: [(Double, Double)] = []
        for j in 0..<height where !rowSegments[j].isEmpty {
            for sub in 0..<subRows {
                let ys = Double(y0 + j) + (Double(sub) + 0.5) / Double(subRows)
                spans.removeAll(keepingCapacity: true)
                for m in rowSegments[j] {
                    if let span = capsuleSpan(points[m], points[m + 1], radius: r, atY: ys) { spans.append(span) }
                }
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

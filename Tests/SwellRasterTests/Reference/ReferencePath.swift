import SwellRaster

/// Independent reference for the path fill: exact in x, supersampled in y. On each of
/// `subRows` horizontal lines per pixel row it intersects the original lines and quadratics
/// analytically (quadratic roots, no flattening), sorts the crossings, and adds the exact
/// length of every non-zero-winding interval inside each pixel. Everything in `Double`.
/// The error is below 1/subRows per pixel (the midpoint rule across y).
func referencePathCoverage(_ path: Path, width: Int, height: Int, clip: ClipRect? = nil, subRows: Int = 256)
    -> CoverageMap
{
    enum Piece {
        case line(Double, Double, Double, Double)
        case quad(Double, Double, Double, Double, Double, Double)
    }
    var pieces: [Piece] = []
    var start = (0.0, 0.0)
    var current = (0.0, 0.0)
    var open = false
    func closeSubpath() {
        if open && current != start { pieces.append(.line(current.0, current.1, start.0, start.1)) }
    }
    for element in path.elements {
        switch element {
        case .move(let x, let y):
            closeSubpath()
            start = (x, y)
            current = (x, y)
            open = true
        case .line(let x, let y):
            if !open {
                start = current
                open = true
            }
            pieces.append(.line(current.0, current.1, x, y))
            current = (x, y)
        case .quad(let cx, let cy, let x, let y):
            if !open {
                start = current
                open = true
            }
            pieces.append(.quad(current.0, current.1, cx, cy, x, y))
            current = (x, y)
        case .close:
            closeSubpath()
            current = start
            open = false
        }
    }
    closeSubpath()

    var values = [Double](repeating: 0, count: width * height)
    var crossings: [(x: Double, winding: Int)] = []
    for j in 0..<height {
        for k in 0..<subRows {
            let y = Double(j) + (Double(k) + 0.5) / Double(subRows)
            crossings.removeAll(keepingCapacity: true)
            for piece in pieces {
                switch piece {
                case .line(let x0, let y0, let x1, let y1):
                    if (y0 <= y && y < y1) || (y1 <= y && y < y0) {
                        crossings.append((x0 + (y - y0) * (x1 - x0) / (y1 - y0), y1 > y0 ? 1 : -1))
                    }
                case .quad(let x0, let y0, let cx, let cy, let x2, let y2):
                    // y(t) = a t² + b t + c0 − y
                    let a = y0 - 2 * cy + y2
                    let b = 2 * (cy - y0)
                    let c = y0 - y
                    var roots: [Double] = []
                    if abs(a) < 1e-12 {
                        if b != 0 { roots.append(-c / b) }
                    } else {
                        let discriminant = b * b - 4 * a * c
                        if discriminant > 0 {
                            let root = discriminant.squareRoot()
                            // The numerically stable pair of roots.
                            let q = -0.5 * (b + (b >= 0 ? root : -root))
                            roots.append(q / a)
                            if q != 0 { roots.append(c / q) }
                        }
                    }
                    for t in roots where t >= 0 && t < 1 {
                        let slope = 2 * a * t + b
                        if slope == 0 { continue }
                        let u = 1 - t
                        crossings.append((u * u * x0 + 2 * u * t * cx + t * t * x2, slope > 0 ? 1 : -1))
                    }
                }
            }
            crossings.sort { $0.x < $1.x }
            var winding = 0
            for (index, crossing) in crossings.enumerated() {
                winding += crossing.winding
                guard winding != 0, index + 1 < crossings.count else { continue }
                let left = max(crossing.x, 0)
                let right = min(crossings[index + 1].x, Double(width))
                guard left < right else { continue }
                var i = Int(left.rounded(.down))
                while i < width && Double(i) < right {
                    let overlap = min(right, Double(i + 1)) - max(left, Double(i))
                    if overlap > 0 { values[j * width + i] += overlap / Double(subRows) }
                    i += 1
                }
            }
        }
    }
    if let clip {
        for j in 0..<height {
            for i in 0..<width where !(i >= clip.x0 && i < clip.x1 && j >= clip.y0 && j < clip.y1) {
                values[j * width + i] = 0
            }
        }
    }
    return CoverageMap(width: width, height: height, values: values.map { min($0, 1) })
}

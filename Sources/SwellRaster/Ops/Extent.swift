/// The whole pixels [first, end) that a shape spanning low...high along one axis can touch, with a
/// pixel's margin below and two above (the kernels' filters reach that far), inside 0..<limit.
/// NaN, infinite or reversed bounds give an empty span.
@inlinable
func pixelSpan(from low: Double, to high: Double, within limit: Int) -> (Int, Int) {
    guard low.isFinite, high.isFinite, low <= high else { return (0, 0) }
    // Clamped to the frame while still Double: a coordinate beyond Int's range (a wave's
    // baseline of 1e76, say) traps when converted.
    let first = max(0, Int(min(max(-1, low - 1), Double(limit)).rounded(.down)))
    let end = min(limit, Int(min(max(-1, high + 2), Double(limit) + 1).rounded(.up)))
    return (first, max(first, end))
}

/// The rows a shape can touch, [top, bottom) in whole pixels, computed without rasterising.
/// Used to bin commands to horizontal bands; it may overestimate, never underestimate.
/// NaN or infinite parameters give an empty extent (such shapes draw nothing).
@inlinable
public func rowExtent(of shape: Shape, frameHeight: Int) -> (top: Int, bottom: Int) {
    func rows(_ low: Double, _ high: Double) -> (top: Int, bottom: Int) {
        pixelSpan(from: low, to: high, within: frameHeight)
    }
    switch shape {
    case .ring(let ring):
        let reach = max(ring.radius, 0) + max(ring.width, 0) / 2
        return rows(ring.centerY - reach, ring.centerY + reach)
    case .disc(let disc):
        return rows(disc.centerY - max(disc.radius, 0), disc.centerY + max(disc.radius, 0))
    case .waveFill(let wave):
        return rows(wave.baseline - abs(wave.amplitude), Double(frameHeight))
    case .waveStroke(let stroke):
        let reach = abs(stroke.wave.amplitude) + max(stroke.width, 0) / 2
        return rows(stroke.wave.baseline - reach, stroke.wave.baseline + reach)
    case .path(let path):
        // A quadratic stays inside the hull of its points, so the points bound the outline.
        var low = Double.infinity
        var high = -Double.infinity
        for element in path.elements {
            switch element {
            case .move(_, let y), .line(_, let y):
                low = min(low, y)
                high = max(high, y)
            case .quad(_, let cy, _, let y):
                low = min(low, cy, y)
                high = max(high, cy, y)
            case .close:
                break
            }
        }
        return rows(low, high)
    case .glyphs(let run):
        // Whole pixels already: the masks' own rows, clamped to the frame.
        guard !run.bounds.isEmpty else { return (0, 0) }
        let top = min(max(run.bounds.y0, 0), frameHeight)
        return (top, max(top, min(run.bounds.y1, frameHeight)))
    }
}

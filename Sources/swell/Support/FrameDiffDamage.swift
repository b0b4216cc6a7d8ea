import SwellRaster

/// A frame's damage found by comparing it with the frame before, pixel for pixel: for each band
/// of `bandHeight` rows, the columns between the first and the last pixel that changed. Exact
/// (every changed pixel is inside), so presenting only it must show what presenting whole shows:
/// `swell bench --damage diff` uses it to check the presenters' partial copies on a real driver.
/// Costs a full-frame compare and copy: a test tool, not a renderer's damage.
final class FrameDiffDamage {
    private let previous: PixelBuffer
    private var seen = false
    private var damage = Damage()
    private let bandHeight = 16
    /// Damaged pixels (rectangle areas) and frame pixels, summed over the frames.
    private(set) var damagedPixels = 0
    private(set) var framePixels = 0

    init(width: Int, height: Int) { previous = PixelBuffer(width: width, height: height) }

    /// The damage of `surface` against the frame given last (whole the first time); remembers it.
    func damage(of surface: PixelSurface) -> Damage {
        damage.removeAll()
        if !seen {
            seen = true
            damage.add(ClipRect(x0: 0, y0: 0, x1: surface.width, y1: surface.height))
        } else {
            for y0 in stride(from: 0, to: surface.height, by: bandHeight) {
                let y1 = min(surface.height, y0 + bandHeight)
                if let columns = changedColumns(surface, rows: y0..<y1) {
                    damage.add(ClipRect(x0: columns.lowerBound, y0: y0, x1: columns.upperBound, y1: y1))
                }
            }
        }
        for y in 0..<surface.height { previous.surface.row(y).update(from: surface.row(y), count: surface.width) }
        damagedPixels += damage.area
        framePixels += surface.width * surface.height
        return damage
    }

    /// The columns from the first to past the last pixel that differs in `rows`, or nil.
    private func changedColumns(_ surface: PixelSurface, rows: Range<Int>) -> Range<Int>? {
        var first = surface.width
        var last = -1
        for y in rows {
            let now = surface.row(y)
            let before = previous.surface.row(y)
            var x = 0
            while x < first && now[x] == before[x] { x += 1 }
            first = min(first, x)
            var end = surface.width - 1
            while end > last && now[end] == before[end] { end -= 1 }
            last = max(last, end)
        }
        return last >= first ? first..<(last + 1) : nil
    }
}

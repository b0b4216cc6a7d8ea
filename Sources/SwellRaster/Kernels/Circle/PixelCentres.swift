/// Pixel centres' offsets from a circle's centre, in `Float`, the same for a pixel whichever
/// path (general windows, steep rows) computes its coverage, so that the output does not
/// depend on how rows are grouped into blocks or bands.
///
/// Why not `Float(Double(x) + 0.5 - centerX)` per window: a lane's offset was then the window's
/// rounded offset plus the lane index, rounded again, and windows start at different pixels in
/// different paths, which changed a few pixels by 1/255 between band heights. Here an offset is
/// always (whole pixels from an integer origin, exact in `Float`) + (the centre's fraction,
/// one rounding), added in that order.
@frozen @usableFromInline
struct PixelCentres {
    @usableFromInline let originX: Int
    @usableFromInline let originY: Int
    /// 0.5 minus the centre's fractional part, per axis.
    @usableFromInline let offsetX: Float
    @usableFromInline let offsetY: Float

    /// For |centre| < 2^62; the offsets are exact for pixels within 2^24 px of the centre.
    @inlinable
    init(centerX: Double, centerY: Double) {
        let x = centerX.rounded(.down)
        let y = centerY.rounded(.down)
        originX = Int(x)
        originY = Int(y)
        offsetX = Float(0.5 - (centerX - x))
        offsetY = Float(0.5 - (centerY - y))
    }

    /// Column x's whole-pixel distance from the origin: add lane indices, then `offsetX`.
    @inlinable @inline(__always)
    func column(_ x: Int) -> Float { Float(x &- originX) }

    /// The vertical offset of row y's pixel centres from the centre.
    @inlinable @inline(__always)
    func dy(_ y: Int) -> Float { Float(y &- originY) + offsetY }

    /// `column` of eight windows' first pixels at once.
    @inlinable @inline(__always)
    func columns(_ x: SIMD8<Int64>) -> SIMD8<Float> { SIMD8<Float>(x &- SIMD8<Int64>(repeating: Int64(originX))) }

    /// `dy` of the eight rows from `firstRow`.
    @inlinable @inline(__always)
    func dy(rowsFrom firstRow: Int) -> SIMD8<Float> {
        SIMD8<Float>(SIMD8<Int64>(0, 1, 2, 3, 4, 5, 6, 7) &+ Int64(firstRow &- originY)) + offsetY
    }

    /// The horizontal offsets of the sixteen pixels from column x.
    @inlinable @inline(__always)
    func dx(from x: Int) -> LaneFloats { (LaneFloats(repeating: column(x)) + laneOffsets) + offsetX }

    /// The horizontal offsets of two eight-pixel windows from columns `low` and `high`, as the
    /// low and high halves of one vector.
    @inlinable @inline(__always)
    func dx(windowsFrom low: Int, _ high: Int) -> LaneFloats {
        let offsets = SIMD8<Float>(0, 1, 2, 3, 4, 5, 6, 7)
        return LaneFloats(
            lowHalf: SIMD8(repeating: column(low)) + offsets, highHalf: SIMD8(repeating: column(high)) + offsets)
            + offsetX
    }
}

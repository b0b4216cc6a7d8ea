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

    /// `column` of two sets of eight windows' first pixels, interleaved: lane 2r is `a[r]`'s,
    /// lane 2r + 1 is `b[r]`'s.
    @inlinable @inline(__always)
    func columns(_ a: SIMD8<Int64>, _ b: SIMD8<Int64>) -> LaneFloats {
        let first = columns(a)
        let second = columns(b)
        return LaneFloats(
            first[0], second[0], first[1], second[1], first[2], second[2], first[3], second[3],
            first[4], second[4], first[5], second[5], first[6], second[6], first[7], second[7])
    }

    /// `dy` of the eight rows from `firstRow`, each in two neighbouring lanes (lanes 2r, 2r + 1:
    /// row r).
    @inlinable @inline(__always)
    func dy(pairedFrom firstRow: Int) -> LaneFloats {
        let rows = dy(rowsFrom: firstRow)
        return LaneFloats(
            rows[0], rows[0], rows[1], rows[1], rows[2], rows[2], rows[3], rows[3],
            rows[4], rows[4], rows[5], rows[5], rows[6], rows[6], rows[7], rows[7])
    }

    /// `dy` of the eight rows from `firstRow`.
    @inlinable @inline(__always)
    func dy(rowsFrom firstRow: Int) -> SIMD8<Float> {
        SIMD8<Float>(SIMD8<Int64>(0, 1, 2, 3, 4, 5, 6, 7) &+ Int64(firstRow &- originY)) + offsetY
    }

    /// The horizontal offsets of the sixteen pixels from column x.
    @inlinable @inline(__always)
    func dx(from x: Int) -> LaneFloats { (LaneFloats(repeating: column(x)) + laneOffsets) + offsetX }
}

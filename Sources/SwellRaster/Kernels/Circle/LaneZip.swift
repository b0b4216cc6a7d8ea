/// Interleaving of two lane vectors, the steps of the transposes in `SteepRows`: there each
/// lane computes one row side and each vector one pixel offset, and the blend needs the pixels
/// of a window side by side. Written as element lists from two vectors at constant indices,
/// which LLVM folds into one two-source shuffle (vpermt2ps) per result.

/// Lanes 0...7 of a and b alternating one at a time (low), then lanes 8...15 (high).
@inlinable @inline(__always)
func zipOnes(_ a: LaneFloats, _ b: LaneFloats) -> (low: LaneFloats, high: LaneFloats) {
    (
        LaneFloats(
            a[0], b[0], a[1], b[1], a[2], b[2], a[3], b[3], a[4], b[4], a[5], b[5], a[6], b[6], a[7], b[7]),
        LaneFloats(
            a[8], b[8], a[9], b[9], a[10], b[10], a[11], b[11], a[12], b[12], a[13], b[13], a[14], b[14], a[15], b[15])
    )
}

/// Pairs of lanes of a and b alternating (low: lanes 0...7 of each, high: 8...15).
@inlinable @inline(__always)
func zipPairs(_ a: LaneFloats, _ b: LaneFloats) -> (low: LaneFloats, high: LaneFloats) {
    (
        LaneFloats(
            a[0], a[1], b[0], b[1], a[2], a[3], b[2], b[3], a[4], a[5], b[4], b[5], a[6], a[7], b[6], b[7]),
        LaneFloats(
            a[8], a[9], b[8], b[9], a[10], a[11], b[10], b[11], a[12], a[13], b[12], b[13], a[14], a[15], b[14], b[15])
    )
}

/// Quads of lanes of a and b alternating (low: lanes 0...7 of each, high: 8...15).
@inlinable @inline(__always)
func zipQuads(_ a: LaneFloats, _ b: LaneFloats) -> (low: LaneFloats, high: LaneFloats) {
    (
        LaneFloats(
            a[0], a[1], a[2], a[3], b[0], b[1], b[2], b[3], a[4], a[5], a[6], a[7], b[4], b[5], b[6], b[7]),
        LaneFloats(
            a[8], a[9], a[10], a[11], b[8], b[9], b[10], b[11], a[12], a[13], a[14], a[15], b[12], b[13], b[14], b[15])
    )
}

/// Four vectors c0...c3 (lane m of c_k: pixel k of window m) as four vectors of four-pixel
/// windows: result j holds windows 4j...4j+3, pixels in order.
@inlinable @inline(__always)
func windowsOfFour(_ c0: LaneFloats, _ c1: LaneFloats, _ c2: LaneFloats, _ c3: LaneFloats) -> (
    LaneFloats, LaneFloats, LaneFloats, LaneFloats
) {
    let first = zipOnes(c0, c1)
    let second = zipOnes(c2, c3)
    let low = zipPairs(first.low, second.low)
    let high = zipPairs(first.high, second.high)
    return (low.low, low.high, high.low, high.high)
}

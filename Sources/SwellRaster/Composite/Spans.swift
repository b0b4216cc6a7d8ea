/// Row-span primitives shared by every kernel: a constant-alpha span and a per-pixel
/// coverage vector. Both read and write only pixels inside the half-open span they are given.

/// Composites `source` at constant `alpha` (source alpha x coverage) over pixels x0..<x1 of `row`.
/// An opaque full-coverage span is a plain store.
@inlinable
public func blendSpan(
    _ row: UnsafeMutablePointer<UInt32>, from x0: Int, to x1: Int, _ source: SourceColor, alpha: Float
) {
    guard x1 > x0, alpha > 0 else { return }
    if alpha >= 1 {
        (row + x0).update(repeating: source.opaquePixel, count: x1 - x0)
        return
    }
    let lanes = LaneFloats(repeating: alpha)
    updateSpan(
        row, from: x0, to: x1, sixteen: { blend($0, source, alpha: lanes) },
        one: { blendPixel($0, source, alpha: alpha) })
}

/// Rewrites pixels x0..<x1 of `row` sixteen at a time with `sixteen`, then the rest one at a time
/// with `one` (which must give each pixel the bytes `sixteen` would): the walk of every
/// constant-alpha span, whatever its precision (`blendSpan`, `lowpBlendSpan`).
@inlinable @inline(__always)
func updateSpan(
    _ row: UnsafeMutablePointer<UInt32>, from x0: Int, to x1: Int, sixteen: (PixelVector) -> PixelVector,
    one: (UInt32) -> UInt32
) {
    var x = x0
    while x + laneCount <= x1 {
        let p = UnsafeMutableRawPointer(row + x)
        p.storeBytes(of: sixteen(p.loadUnaligned(as: PixelVector.self)), as: PixelVector.self)
        x += laneCount
    }
    while x < x1 {
        row[x] = one(row[x])
        x += 1
    }
}

/// Composites sixteen pixels starting at `row + x` with per-lane alpha, touching only the
/// first `count` lanes (count in 1...16), so a vector may straddle the end of a span or row.
@inlinable @inline(__always)
public func blendLanes(
    _ row: UnsafeMutablePointer<UInt32>, at x: Int, count: Int, _ source: SourceColor, alpha: LaneFloats
) {
    let p = UnsafeMutableRawPointer(row + x)
    if count >= laneCount {
        p.storeBytes(of: blend(p.loadUnaligned(as: PixelVector.self), source, alpha: alpha), as: PixelVector.self)
    } else {
        var d = PixelVector(repeating: 0)
        for i in 0..<count { d[i] = row[x + i] }
        let out = blend(d, source, alpha: alpha)
        for i in 0..<count { row[x + i] = out[i] }
    }
}

/// Per-lane mix of two pixel vectors: `out = round(a + (b − a) · t)` per channel, the same
/// rounding as `blend`, so an image composited at alpha t matches a colour composited at t.
/// Bytes become floats through `byteAsFloat`: the standard library's Int32→Float lane
/// conversion was an unspecialised generic call here, 18 % of a `waveform` frame.
@inlinable @inline(__always)
public func mixPixels(_ a: PixelVector, _ b: PixelVector, _ t: LaneFloats) -> PixelVector {
    let byte = PixelVector(repeating: 0xFF)
    @inline(__always) func channel(_ shift: UInt32) -> PixelVector {
        let x = byteAsFloat((a &>> shift) & byte)
        let y = byteAsFloat((b &>> shift) & byte)
        return (roundedLowBits(x + (y - x) * t) & byte) &<< shift
    }
    return channel(16) | channel(8) | channel(0) | PixelVector(repeating: 0xFF00_0000)
}

/// The scalar form of `mixPixels` for single pixels.
@inlinable @inline(__always)
public func mixPixel(_ a: UInt32, _ b: UInt32, _ t: Float) -> UInt32 {
    @inline(__always) func channel(_ shift: UInt32) -> UInt32 {
        let x = Float((a >> shift) & 0xFF)
        let y = Float((b >> shift) & 0xFF)
        return ((x + (y - x) * t + 12_582_912.0).bitPattern & 0xFF) << shift
    }
    return 0xFF00_0000 | channel(16) | channel(8) | channel(0)
}

/// Mixes lanes x..<x+count of `row` towards the same lanes of `other` by per-lane `t`.
@inlinable @inline(__always)
public func mixLanes(
    _ row: UnsafeMutablePointer<UInt32>, toward other: UnsafeMutablePointer<UInt32>, at x: Int, count: Int,
    _ t: LaneFloats
) {
    if count >= laneCount {
        let p = UnsafeMutableRawPointer(row + x)
        let q = UnsafeRawPointer(other + x)
        p.storeBytes(
            of: mixPixels(p.loadUnaligned(as: PixelVector.self), q.loadUnaligned(as: PixelVector.self), t),
            as: PixelVector.self)
    } else {
        for i in 0..<count { row[x + i] = mixPixel(row[x + i], other[x + i], t[i]) }
    }
}

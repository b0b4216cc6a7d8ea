/// Curve samples at whole-pixel x across a chunk of columns, for ops that need one sub-column
/// per column (the common case). Each column's chord needs the samples at x − 1 … x + 2 (the
/// outer two for the curvature correction); computing each x once and reading the four
/// vectors back as unaligned loads costs one sine per column instead of four.
///
/// Chunks keep the scratch small and on the stack: 1024 columns per chunk, and the samples
/// cover one extra group on each side.
@usableFromInline let waveChunkColumns = 1024
/// Floats of scratch per sampled curve.
@usableFromInline let waveChunkSamples = waveChunkColumns + 3 * laneCount

/// Loads the four edge vectors of the group at `groupX` (samples start at x = chunkStart − 16).
@inlinable @inline(__always)
func loadColumnEdges(
    _ samples: UnsafeMutablePointer<Float>, groupX: Int, chunkStart: Int, into edges: UnsafeMutablePointer<LaneFloats>
) {
    let base = UnsafeRawPointer(samples + (groupX - chunkStart + laneCount - 1))
    let size = MemoryLayout<Float>.stride
    edges[0] = base.loadUnaligned(as: LaneFloats.self)
    edges[1] = base.loadUnaligned(fromByteOffset: size, as: LaneFloats.self)
    edges[2] = base.loadUnaligned(fromByteOffset: 2 * size, as: LaneFloats.self)
    edges[3] = base.loadUnaligned(fromByteOffset: 3 * size, as: LaneFloats.self)
}

/// Calls `sample(groupX)` for every group from chunkStart − 16 to past chunkEnd + 16 and
/// stores the results contiguously.
@inlinable @inline(__always)
func fillColumnSamples(
    _ samples: UnsafeMutablePointer<Float>, chunkStart: Int, chunkEnd: Int, _ sample: (Int) -> LaneFloats
) {
    var groupX = chunkStart - laneCount
    var index = 0
    while groupX < chunkEnd + laneCount {
        UnsafeMutableRawPointer(samples + index).storeBytes(of: sample(groupX), as: LaneFloats.self)
        groupX += laneCount
        index += laneCount
    }
}

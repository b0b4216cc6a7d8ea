/// One boundary curve across a group of sixteen columns, approximated per sub-column by a
/// straight chord moved by the mean of (curve − chord).
///
/// Input: the curve sampled at the sub-column edges s = −1 … k+1 (`edges`, k + 3 vectors;
/// the two outer samples only feed the curvature estimate). Output per sub-column s in 0..<k:
/// `starts[s]` (the corrected value at its left edge) and `slopes[s]` (change across it).
///
/// The correction: over an interval of width h a smooth curve exceeds its chord on average by
/// −y''·h²/12; y''·h² is estimated by the second difference of the samples, averaged over the
/// sub-column's two edges. With it each sub-column's area under the chord is exact to O(h⁴),
/// which is what keeps the per-pixel coverage error of long gentle waves near 1e-4.
@usableFromInline
struct ChordBounds {
    @usableFromInline var low: Float
    @usableFromInline var high: Float

    @inlinable init(low: Float, high: Float) {
        self.low = low
        self.high = high
    }
}

/// Per lane, the lowest and highest point of the chords (see `buildChords`).
@inlinable @inline(__always)
func buildChordLanes(
    edges: UnsafeMutablePointer<LaneFloats>, subColumns k: Int, corrected: Bool,
    starts: UnsafeMutablePointer<LaneFloats>, slopes: UnsafeMutablePointer<LaneFloats>
) -> (low: LaneFloats, high: LaneFloats) {
    // edges[s + 1] holds the sample at edge s.
    if k == 1 {
        // The common case, straight-line code (no loop state for the compiler to keep).
        let left = edges[1]
        let right = edges[2]
        var start = left
        if corrected {
            // Named parts, in the same order of evaluation: Swift 6.2 (the arm64 toolchain) cannot
            // type-check the whole sum in reasonable time.
            let outerLeft = edges[2] - 2 * left + edges[0]
            let curvature = outerLeft + edges[3] - 2 * right + left
            start -= curvature * (1.0 / 24.0)
        }
        let slope = right - left
        starts[0] = start
        slopes[0] = slope
        let end = start + slope
        return (laneMin(start, end), laneMax(start, end))
    }
    var low = edges[1]
    var high = edges[1]
    var previousCurvature = edges[2] - 2 * edges[1] + edges[0]
    for s in 0..<k {
        let left = edges[s + 1]
        let right = edges[s + 2]
        var start = left
        if corrected {
            let curvature = edges[s + 3] - 2 * right + left
            start -= (previousCurvature + curvature) * (1.0 / 24.0)
            previousCurvature = curvature
        }
        let slope = right - left
        starts[s] = start
        slopes[s] = slope
        let end = start + slope
        low = laneMin(low, laneMin(start, end))
        high = laneMax(high, laneMax(start, end))
    }
    return (low, high)
}

/// `buildChordLanes` with the bounds reduced over the lanes: the lowest and highest point of
/// the chords across the group.
@inlinable @inline(__always)
func buildChords(
    edges: UnsafeMutablePointer<LaneFloats>, subColumns k: Int, corrected: Bool,
    starts: UnsafeMutablePointer<LaneFloats>, slopes: UnsafeMutablePointer<LaneFloats>
) -> ChordBounds {
    let lanes = buildChordLanes(edges: edges, subColumns: k, corrected: corrected, starts: starts, slopes: slopes)
    return laneBounds(lanes)
}

/// The coverage of the row whose bottom edge is at `rowBottom` by the region below (y greater
/// than) the chords, averaged over the k sub-columns.
@inlinable @inline(__always)
func coverageBelowChords(
    rowBottom: Float, starts: UnsafeMutablePointer<LaneFloats>, slopes: UnsafeMutablePointer<LaneFloats>,
    subColumns k: Int
) -> LaneFloats {
    let bottom = LaneFloats(repeating: rowBottom)
    if k == 1 {
        let u = bottom - starts[0]
        return meanClampedLine(u, u - slopes[0])
    }
    var sum = LaneFloats(repeating: 0)
    for s in 0..<k {
        let u = bottom - starts[s]
        sum += meanClampedLine(u, u - slopes[s])
    }
    return sum * (1 / Float(k))
}

/// The reciprocal of each sub-column's run for `coverageBelowChordsScaled`: 1 / (−slope ± ε),
/// with ε = 1e-4 carrying the sign of −slope as in `meanClampedLine`. The run of a chord is
/// the same for every row, so the stroke divides once per group here instead of once per row
/// and boundary (the division was the largest single cost of its row loop).
@inlinable @inline(__always)
func chordRunReciprocals(
    slopes: UnsafeMutablePointer<LaneFloats>, subColumns k: Int, into reciprocals: UnsafeMutablePointer<LaneFloats>
) {
    for s in 0..<k {
        reciprocals[s] = 1 / signedEpsilonRun(-slopes[s])
    }
}

/// `coverageBelowChords` with the per-row division replaced by a multiplication by
/// `reciprocals` (from `chordRunReciprocals` for the same slopes): the same integral to within
/// a Float rounding of the quotient.
@inlinable @inline(__always)
func coverageBelowChordsScaled(
    rowBottom: Float, starts: UnsafeMutablePointer<LaneFloats>, reciprocals: UnsafeMutablePointer<LaneFloats>,
    slopes: UnsafeMutablePointer<LaneFloats>, subColumns k: Int
) -> LaneFloats {
    let bottom = LaneFloats(repeating: rowBottom)
    if k == 1 {
        let u = bottom - starts[0]
        return clampedLineIntegral(u, u - slopes[0], run: -slopes[0]) * reciprocals[0]
    }
    var sum = LaneFloats(repeating: 0)
    for s in 0..<k {
        let u = bottom - starts[s]
        sum += clampedLineIntegral(u, u - slopes[s], run: -slopes[s]) * reciprocals[s]
    }
    return sum * (1 / Float(k))
}

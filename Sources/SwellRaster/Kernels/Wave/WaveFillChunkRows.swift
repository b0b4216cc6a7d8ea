/// The curve rows of a wave fill with one sub-column per column (the common case), for one
/// chunk of columns, written row by row.
///
/// Why row by row: the group-by-group order writes 64 bytes per row and steps a whole frame row
/// (7.5 KiB at 1080p) to the next, past the hardware prefetchers' 4 KiB reach. Measured on the
/// 2-core Xeon here (a C loop of 64-byte AVX-512 stores over a 1920x1080 frame): 0.35–0.41 ms
/// row by row, 0.75 ms column-group by column-group. So the chords of every group of the chunk
/// are built first (2 vectors a group, in the wave scratch) and then each row of the chunk is
/// swept left to right: above every group's chord it is left alone (or written in its virtual
/// colour), below every chord it is one constant-alpha span, and between, each group gives its
/// pixels the chord's coverage. Per pixel the math is `fillWaveBand`'s group loop's, so the
/// bytes are the same.
///
/// `scratch` holds at least 4 + 2·(chunk groups) vectors: the edges, then each group's chord
/// start and slope. With `virtualColors` the rows that are still virtual are not read, and every
/// pixel of `columns` in `rows` is written (see `fillWaveBand`), except those `hidden` names: a
/// later opaque fill covers them, so they are left as they are.
@inlinable @inline(__always)
func fillChunkRowByRow(
    _ surface: PixelSurface, _ blender: WaveBlender, samples: UnsafeMutablePointer<Float>,
    scratch: UnsafeMutablePointer<LaneFloats>, chunk: Range<Int>, columns: Range<Int>, rows: Range<Int>,
    origin: Int, virtualColors: UnsafePointer<UInt32>?, hidden: HiddenGroups?
) {
    let edges = scratch
    let groupCount = (chunk.count + laneCount - 1) / laneCount
    let starts = scratch + 4
    let slopes = starts + groupCount
    // Each group's partial rows [top, full), relative to origin; 64 groups at most.
    var tops = InlineArray<64, Int32>(repeating: 0)
    var fulls = InlineArray<64, Int32>(repeating: 0)
    precondition(groupCount <= tops.count && 4 + 2 * groupCount <= waveScratchLanes, "wave chunk too wide")
    var chunkTop = rows.upperBound
    var chunkFull = rows.lowerBound
    for group in 0..<groupCount {
        let (top, full) = chordRows(
            samples, groupX: chunk.lowerBound + group * laneCount, chunkStart: chunk.lowerBound, edges: edges,
            starts: starts + group, slopes: slopes + group, rows: rows)
        tops[group] = Int32(top)
        fulls[group] = Int32(full)
        chunkTop = min(chunkTop, top)
        chunkFull = max(chunkFull, full)
    }
    let x0 = max(columns.lowerBound, chunk.lowerBound)
    let x1 = min(columns.upperBound, chunk.upperBound)
    guard x1 > x0 else { return }
    // Every group whole inside the columns (the usual case): no per-group lane arithmetic.
    let wholeGroups = x0 == chunk.lowerBound && x1 == chunk.lowerBound + groupCount * laneCount
    // Groups a later opaque fill covers from some row on (relative rows; whole groups only):
    // `hiddenTop` is the first such row of any group, `hiddenEnd` where hiding stops.
    var hides = InlineArray<64, Int32>(repeating: .max)
    var hiddenTop = Int32.max
    var hiddenEnd = Int32.min
    if let hidden, wholeGroups {
        for group in 0..<groupCount {
            let from = hidden.from[chunk.lowerBound / laneCount + group]
            hides[group] = from == .max ? .max : Int32(clamping: Int(from) - origin)
            hiddenTop = min(hiddenTop, hides[group])
        }
        hiddenEnd = Int32(clamping: hidden.rows.upperBound - origin)
    }
    let keep = PixelVector(repeating: blender.keep)
    let addRed = PixelVector(repeating: blender.addRed)
    let addGreen = PixelVector(repeating: blender.addGreen)
    let addBlue = PixelVector(repeating: blender.addBlue)
    for y in rows {
        let row = surface.row(origin + y)
        let under = virtualColors?[origin + y] ?? UniformRows.written
        let virtual = under != UniformRows.written
        let y32 = Int32(y)
        let hiding = y32 >= hiddenTop && y32 < hiddenEnd
        if y >= chunkFull && !hiding {
            // Below every chord: covered.
            blender.fullSpan(row, from: x0, to: x1, under: under)
            continue
        }
        if y < chunkTop {
            // Above every chord: untouched (written in its colour if virtual).
            WaveBlender.materialiseSpan(row, from: x0, to: x1, under: under)
            continue
        }
        // An opaque fill's covered pixels are its colour whatever is under them (`fullSpan`'s
        // shortcut): stored, not blended. The strip page's front wave over the back wave's rows.
        let storesCovered = virtual || blender.isOpaque
        let coveredPixel = storesCovered ? blender.fullPixel(over: under) : under
        if wholeGroups {
            let underVector = PixelVector(repeating: under)
            let coveredVector = PixelVector(repeating: coveredPixel)
            var p = UnsafeMutableRawPointer(row + x0)
            for group in 0..<groupCount {
                if hiding && y32 >= hides[group] {
                    // Left alone: the later fill stores its colour here.
                } else if y32 < tops[group] {
                    if virtual { p.storeBytes(of: underVector, as: PixelVector.self) }
                } else if y32 < fulls[group] {
                    let coverage = coverageBelowChords(
                        rowBottom: Float(y + 1), starts: starts + group, slopes: slopes + group, subColumns: 1)
                    blender.coverageLanes(
                        row, group: x0 + group * laneCount,
                        lanes: (x0 + group * laneCount)..<(x0 + (group + 1) * laneCount),
                        coverage: laneClamp01(coverage), under: under)
                } else if storesCovered {
                    p.storeBytes(of: coveredVector, as: PixelVector.self)
                } else {
                    let d = p.loadUnaligned(as: PixelVector.self)
                    p.storeBytes(
                        of: WaveBlender.mix(d, keep: keep, red: addRed, green: addGreen, blue: addBlue),
                        as: PixelVector.self)
                }
                p += laneCount * MemoryLayout<UInt32>.stride
            }
            continue
        }
        for group in 0..<groupCount {
            let groupX = chunk.lowerBound + group * laneCount
            let lanes = max(x0, groupX)..<min(x1, groupX + laneCount)
            if y32 < tops[group] {
                WaveBlender.materialiseSpan(row, from: lanes.lowerBound, to: lanes.upperBound, under: under)
            } else if y32 < fulls[group] {
                let coverage = coverageBelowChords(
                    rowBottom: Float(y + 1), starts: starts + group, slopes: slopes + group, subColumns: 1)
                blender.coverageLanes(row, group: groupX, lanes: lanes, coverage: laneClamp01(coverage), under: under)
            } else {
                blender.fullSpan(row, from: lanes.lowerBound, to: lanes.upperBound, under: under)
            }
        }
    }
}

/// The rows of `rows` (relative to the op's origin) where the chords of the group at `groupX`
/// lie: [top, full) partly covered, from `full` on covered. Also stores the group's chord in
/// `starts` and `slopes` (one vector each). Shared with `WaveFillRows.hiddenGroups`, which must
/// find the same rows.
@inlinable @inline(__always)
func chordRows(
    _ samples: UnsafeMutablePointer<Float>, groupX: Int, chunkStart: Int, edges: UnsafeMutablePointer<LaneFloats>,
    starts: UnsafeMutablePointer<LaneFloats>, slopes: UnsafeMutablePointer<LaneFloats>, rows: Range<Int>
) -> (top: Int, full: Int) {
    loadColumnEdges(samples, groupX: groupX, chunkStart: chunkStart, into: edges)
    let bounds = buildChords(edges: edges, subColumns: 1, corrected: true, starts: starts, slopes: slopes)
    let top = clampedRow(bounds.low.rounded(.down), low: rows.lowerBound, high: rows.upperBound)
    let full = max(top, clampedRow(bounds.high.rounded(.up), low: rows.lowerBound, high: rows.upperBound))
    return (top, full)
}

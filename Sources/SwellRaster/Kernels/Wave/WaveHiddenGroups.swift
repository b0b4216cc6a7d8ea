/// The pixels of a band that a later opaque wave fill stores its colour in whatever lies under
/// them, per group of sixteen columns: row y of the group starting at x = 16·g is hidden when
/// `rows` holds y and y ≥ `from[g]` (`Int32.max`: nowhere). An earlier command may leave such
/// pixels alone (any bytes): the fill overwrites them.
///
/// Why: on the strip page (examples/strip.json) the back wave's full rows and covered groups lie
/// under the front wave's curve rows, and about half of those pixels the opaque front wave then
/// covers; over a picture each was blended pixel by pixel (`WaveBlender.mix`) for nothing.
@frozen
public struct HiddenGroups {
    /// Indexed by absolute group (x / 16), for every group of the frame's width.
    @usableFromInline let from: UnsafePointer<Int32>
    @usableFromInline let rows: Range<Int>

    @inlinable
    init(from: UnsafePointer<Int32>, rows: Range<Int>) {
        self.from = from
        self.rows = rows
    }

    /// Calls `body(x0, x1)` for each run of columns of `0..<width` not hidden in row `y`.
    @inlinable @inline(__always)
    func forEachShownRun(row y: Int, width: Int, _ body: (Int, Int) -> Void) {
        guard rows.contains(y) else {
            body(0, width)
            return
        }
        let groups = (width + laneCount - 1) / laneCount
        let y32 = Int32(y)
        var group = 0
        while group < groups {
            guard y32 < from[group] else {
                group += 1
                continue
            }
            let start = group
            while group < groups && y32 < from[group] { group += 1 }
            body(start * laneCount, min(width, group * laneCount))
        }
    }
}

extension WaveFillRows {
    /// For an opaque fill drawn over the full width of the surface with one sub-column per
    /// column (the only case whose groups the row-by-row kernel stores whole), fills `from` (one
    /// entry per group of the surface's width) with each group's first fully covered row among
    /// `curveRows` and returns the hidden pixels; nil otherwise. The rows are those
    /// `fillChunkRowByRow` computes (`chordRows`), so a pixel is hidden exactly where the fill
    /// stores `WaveBlender.opaquePixel`.
    @inlinable
    func hiddenGroups(
        _ shape: Wave, _ source: SourceColor, surface: PixelSurface, into from: UnsafeMutablePointer<Int32>
    ) -> HiddenGroups? {
        guard source.alpha >= 1, !curveRows.isEmpty, area.x0 == 0, area.x1 == surface.width else { return nil }
        let angular = 2 * Double.pi / shape.wavelength
        guard WaveSampler.subColumns(curvatureBound: abs(amplitude) * angular * angular, tolerance: 0.1) == 1 else {
            return nil
        }
        let heights = WaveHeights(shape, amplitude: amplitude, origin: origin)
        let rows = (curveRows.lowerBound - origin)..<(curveRows.upperBound - origin)
        withWaveScratch { scratch, samples in
            var chunkStart = 0
            while chunkStart < surface.width {
                let chunkEnd = min(surface.width, chunkStart + waveChunkColumns)
                fillColumnSamples(samples, chunkStart: chunkStart, chunkEnd: chunkEnd) { heights($0) }
                var groupX = chunkStart
                while groupX < chunkEnd {
                    let full = chordRows(
                        samples, groupX: groupX, chunkStart: chunkStart, edges: scratch, starts: scratch + 4,
                        slopes: scratch + 5, rows: rows
                    ).full
                    from[groupX / laneCount] = full < rows.upperBound ? Int32(clamping: origin + full) : .max
                    groupX += laneCount
                }
                chunkStart = chunkEnd
            }
        }
        return HiddenGroups(from: from, rows: curveRows)
    }
}

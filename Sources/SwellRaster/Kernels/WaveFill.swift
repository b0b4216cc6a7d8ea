// Anti-aliased wave fill: the region y ≥ f(x) = baseline + amplitude·sin(2π·x/wavelength + phase).
//
// Design (measured figures at the end):
// - Rows are split by the wave's analytic range [baseline − |A| − 1, baseline + |A| + 1]:
//   rows above it are untouched, rows below it are full coverage and drawn as constant-alpha
//   row spans across the whole clip, row-major, so most of the memory traffic is sequential.
// - The rows in the range are drawn per group of 16 columns (one SIMD16 lane per column).
//   Per group f is evaluated at the column edges with the polynomial `sineOfTurns` (phase
//   reduced in Double once per group, never a libm call per column or pixel). Within each
//   (sub-)column the curve is replaced by its chord shifted by the mean of (f − chord)
//   (−f''/12, from second differences; see `buildChords`), and the coverage of row j is the
//   exact integral ∫₀¹ clamp(j + 1 − y(t), 0, 1) dt of that line (`meanClampedLine`).
//   Rows of the group below its chords are full coverage, rows above are skipped.
// - Columns are split into k sub-columns when the curve bends (|A|·ω² large: short
//   wavelengths), k = ⌈√(|A|ω²/0.1)⌉ ≤ 32, chosen once per op.
// - Accuracy (WaveFillAccuracyTests, against 256 exact sample columns per pixel): for
//   wavelengths ≥ 2 px the coverage error is ≤ 0.05 per pixel and ≤ 0.005 mean over edge pixels.
//   Limit: below ~2 px per wavelength (with large amplitudes) 32 sub-columns no longer resolve
//   the curve; the result stays finite and its column means close to the reference, but single
//   pixels may be off by more than 0.05.
// - Degenerate input draws nothing: non-finite baseline, amplitude, wavelength or phase, or a
//   wavelength of 0. Amplitudes are limited to ±1e6 px (beyond that every column spans the
//   frame anyway) so Float coordinates stay meaningful.

/// Fills the wave `shape` (y ≥ f(x), down to the bottom of the clip) with `source`, touching
/// only pixels inside `clip`.
@inlinable
public func fillWave(_ surface: PixelSurface, _ shape: Wave, _ source: SourceColor, clip: ClipRect) {
    let area = clip.intersection(surface.bounds)
    guard !area.isEmpty, source.alpha > 0 else { return }
    guard shape.baseline.isFinite, shape.amplitude.isFinite, shape.wavelength.isFinite, shape.phase.isFinite,
        shape.wavelength != 0
    else { return }
    let amplitude = min(max(shape.amplitude, -1e6), 1e6)
    let reach = abs(amplitude) + 1
    // Rows [bandTop, bandBottom) may be partly covered; rows from bandBottom down are full.
    let bandTopValue = (shape.baseline - reach).rounded(.down)
    let bandBottomValue = (shape.baseline + reach).rounded(.up)
    let bandTop =
        bandTopValue <= Double(area.y0) ? area.y0 : (bandTopValue >= Double(area.y1) ? area.y1 : Int(bandTopValue))
    let bandBottom =
        bandBottomValue <= Double(area.y0)
        ? area.y0 : (bandBottomValue >= Double(area.y1) ? area.y1 : Int(bandBottomValue))
    if bandTop < bandBottom {
        fillWaveBand(
            surface, shape, amplitude: amplitude, source, columns: area.x0..<area.x1, rows: bandTop..<bandBottom)
    }
    let blender = WaveBlender(source)
    for y in bandBottom..<area.y1 {
        blender.fullSpan(surface.row(y), from: area.x0, to: area.x1)
    }
}

/// The rows of the fill where the curve lies, group by group.
@inlinable
func fillWaveBand(
    _ surface: PixelSurface, _ shape: Wave, amplitude: Double, _ source: SourceColor, columns: Range<Int>,
    rows: Range<Int>
) {
    let angular = 2 * Double.pi / shape.wavelength
    let k = WaveSampler.subColumns(curvatureBound: abs(amplitude) * angular * angular, tolerance: 0.1)
    let sampler = WaveSampler(wavelength: shape.wavelength, phase: shape.phase)
    let blender = WaveBlender(source)
    // Coordinates relative to the band's top row keep Float values small.
    let origin = rows.lowerBound
    let baseline = LaneFloats(repeating: Float(shape.baseline - Double(origin)))
    let scaledAmplitude = LaneFloats(repeating: Float(amplitude))
    let bandRows = rows.count
    @inline(__always) func height(_ groupX: Int, _ offset: Double) -> LaneFloats {
        baseline + scaledAmplitude * sineOfTurns(sampler.turns(groupX: groupX, offset: offset))
    }
    withUnsafeTemporaryAllocation(of: LaneFloats.self, capacity: 3 * WaveSampler.maximumSubColumns + 3) { scratch in
        withUnsafeTemporaryAllocation(of: Float.self, capacity: waveChunkSamples) { sampleScratch in
            let edges = scratch.baseAddress!
            let starts = edges + (k + 3)
            let slopes = starts + k
            let samples = sampleScratch.baseAddress!
            var chunkStart = columns.lowerBound
            while chunkStart < columns.upperBound {
                let chunkEnd = min(columns.upperBound, chunkStart + waveChunkColumns)
                if k == 1 {
                    fillColumnSamples(samples, chunkStart: chunkStart, chunkEnd: chunkEnd) { height($0, 0) }
                }
                var groupX = chunkStart
                while groupX < chunkEnd {
                    let lanes = min(laneCount, chunkEnd - groupX)
                    if k == 1 {
                        loadColumnEdges(samples, groupX: groupX, chunkStart: chunkStart, into: edges)
                    } else {
                        for edge in -1...(k + 1) { edges[edge + 1] = height(groupX, Double(edge) / Double(k)) }
                    }
                    let bounds = buildChords(
                        edges: edges, subColumns: k, corrected: true, starts: starts, slopes: slopes)
                    // Rows (relative to origin) [top, full) are partial; [full, bandRows) are covered.
                    let top = clampedRow(bounds.low.rounded(.down), low: 0, high: bandRows)
                    let full = max(top, clampedRow(bounds.high.rounded(.up), low: 0, high: bandRows))
                    for y in top..<full {
                        let coverage = coverageBelowChords(
                            rowBottom: Float(y + 1), starts: starts, slopes: slopes, subColumns: k)
                        blender.coverageLanes(surface.row(origin + y), at: groupX, count: lanes, coverage: coverage)
                    }
                    for y in full..<bandRows {
                        blender.fullSpan(surface.row(origin + y), from: groupX, to: groupX + lanes)
                    }
                    groupX += laneCount
                }
                chunkStart = chunkEnd
            }
        }
    }
}

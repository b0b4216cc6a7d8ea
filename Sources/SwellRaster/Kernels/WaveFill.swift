// Anti-aliased wave fill: the region y ≥ f(x) = baseline + amplitude·sin(2π·x/wavelength + phase).
//
// Design
// - Rows are split by the wave's analytic range [baseline − |A| − 1, baseline + |A| + 1]:
//   rows above it are untouched, rows below it are full coverage and drawn as constant-alpha
//   row spans across the whole clip, row-major, so most of the memory traffic is sequential.
// - The rows in the range are drawn per group of 16 columns (one SIMD16 lane per column),
//   processed in chunks of 1024 columns. f is evaluated once per column x (integer x) with the
//   polynomial `sineOfTurns` (phase reduced in Double once per group: no libm call per column
//   or pixel) into a small stack buffer; a group reads its edges x−1 … x+2 back as unaligned
//   loads. Within a column the curve is replaced by its chord shifted by the mean of (f − chord),
//   −f''/12, estimated from second differences (`buildChords`), and the coverage of row j is the
//   exact integral ∫₀¹ clamp(j + 1 − y(t), 0, 1) dt of that line (`meanClampedLine`). Rows of the
//   group below its chords are full coverage (constant spans), rows above are skipped.
// - When the curve bends (|A|·ω² large: short wavelengths) columns are split into
//   k = ⌈√(|A|ω²/0.1)⌉ ≤ 32 sub-columns, chosen once per op (edges sampled per group then).
// - Clip independence: groups sit at absolute multiples of 16 columns and Float rows are
//   relative to the op's own top row, so any clip (bands, threads, tiles) gives exactly the
//   pixels of the unclipped draw (FrameRendererTests, WaveStrokeAccuracyTests).
// - Compositing: `WaveBlender`, the `fixed16` precision (`BlendPrecision`). Lane
//   min/max/clamp use sign-bit selects (`WaveLanes.swift`) because Swift lane masks compiled to
//   mask shuffles in these loops.
// - The stroke (WaveStroke.swift) reuses the chords and their integrals for both of its edges.
// - No allocation and no calls in the column and row loops (zmm code in the tuned build: check
//   `objdump -d` after a change of structure); the scratch buffers are InlineArrays on the stack
//   (WaveScratch.swift).
// - Accuracy (WaveFillAccuracyTests: 256 exact sample columns per pixel): 300 random fills
//   (λ 2–2000 px) within 0.0024 of the reference on any pixel, 0.0016 mean over edge pixels.
//   Below ~0.5 px per wavelength 32 sub-columns stop resolving the curve. Degenerate input draws
//   nothing: non-finite baseline, amplitude, wavelength or phase, or |wavelength| < 1e-6 px.
//   Amplitudes are limited to ±1e6 px so Float coordinates stay meaningful.
// Now: waves.json (4 fills + 10 strokes, 1080p) 0.54 ms a frame on one core of a 2.6 GHz Zen 4
// EPYC, tuned build, 6.4x a memset (`scripts/bench`; docs/speed.md). History: docs/speed-log.md.

/// Fills the wave `shape` (y ≥ f(x), down to the bottom of the clip) with `source`, touching
/// only pixels inside `clip`.
@inlinable
public func fillWave(_ surface: PixelSurface, _ shape: Wave, _ source: SourceColor, clip: ClipRect) {
    guard let rows = WaveFillRows(shape, source, surface: surface, clip: clip) else { return }
    rows.drawCurve(surface, shape, source)
    let blender = WaveBlender(source)
    for y in rows.fullRows {
        blender.fullSpan(surface.row(y), from: rows.area.x0, to: rows.area.x1)
    }
}

/// The rows of the fill where the curve lies, group by group.
///
/// With `virtualColors` (absolute rows; `UniformRows`), rows that are still virtual are not read
/// and not expected to be written: every pixel of `columns` in `rows` is written, the uncovered
/// ones with the row's colour, so the caller can count the rows as written afterwards. The
/// frame renderer used to write such rows out first and then blend them: waves.json spent
/// ~6 % of its frame doing so. Pixels `hidden` names (a later opaque fill's) may be left alone
/// (with one sub-column per column).
@inlinable
func fillWaveBand(
    _ surface: PixelSurface, _ shape: Wave, amplitude: Double, _ source: SourceColor, columns: Range<Int>,
    rows: Range<Int>, origin: Int, virtualColors: UnsafePointer<UInt32>? = nil, hidden: HiddenGroups? = nil
) {
    let angular = 2 * Double.pi / shape.wavelength
    let k = WaveSampler.subColumns(curvatureBound: abs(amplitude) * angular * angular, tolerance: 0.1)
    let blender = WaveBlender(source)
    // Row coordinates relative to `origin` keep Float values small; rows [firstRow, endRow).
    let height = WaveHeights(shape, amplitude: amplitude, origin: origin)
    let firstRow = rows.lowerBound - origin
    let endRow = rows.upperBound - origin
    withWaveScratch { scratch, sampleScratch in
        do {
            let edges = scratch
            let starts = edges + (k + 3)
            let slopes = starts + k
            let samples = sampleScratch
            // Groups sit at multiples of 16 in absolute x (the same lanes for any clip); lanes
            // outside the clip are computed but not written.
            var chunkStart = columns.lowerBound - columns.lowerBound % laneCount
            while chunkStart < columns.upperBound {
                let chunkEnd = min(columns.upperBound, chunkStart + waveChunkColumns)
                if k == 1 {
                    fillColumnSamples(samples, chunkStart: chunkStart, chunkEnd: chunkEnd) { height($0) }
                    fillChunkRowByRow(
                        surface, blender, samples: samples, scratch: scratch, chunk: chunkStart..<chunkEnd,
                        columns: columns, rows: firstRow..<endRow, origin: origin, virtualColors: virtualColors,
                        hidden: hidden)
                    chunkStart = chunkEnd
                    continue
                }
                var groupX = chunkStart
                while groupX < chunkEnd {
                    let lanes = max(columns.lowerBound, groupX)..<min(columns.upperBound, groupX + laneCount)
                    for edge in -1...(k + 1) { edges[edge + 1] = height(groupX, Double(edge) / Double(k)) }
                    let bounds = buildChords(
                        edges: edges, subColumns: k, corrected: true, starts: starts, slopes: slopes)
                    // Rows (relative to origin) [top, full) are partial; [full, endRow) are covered.
                    let top = clampedRow(bounds.low.rounded(.down), low: firstRow, high: endRow)
                    let full = max(top, clampedRow(bounds.high.rounded(.up), low: firstRow, high: endRow))
                    if let virtualColors {
                        for y in firstRow..<top {
                            WaveBlender.materialiseSpan(
                                surface.row(origin + y), from: lanes.lowerBound, to: lanes.upperBound,
                                under: virtualColors[origin + y])
                        }
                    }
                    for y in top..<full {
                        let coverage = coverageBelowChords(
                            rowBottom: Float(y + 1), starts: starts, slopes: slopes, subColumns: k)
                        blender.coverageLanes(
                            surface.row(origin + y), group: groupX, lanes: lanes, coverage: laneClamp01(coverage),
                            under: virtualColors?[origin + y] ?? UniformRows.written)
                    }
                    blender.fullColumns(
                        surface, rows: (origin + full)..<(origin + endRow), from: lanes.lowerBound,
                        to: lanes.upperBound, virtualColors: virtualColors)
                    groupX += laneCount
                }
                chunkStart = chunkEnd
            }
        }
    }
}

/// The curve's height at the columns of a group (plus `offset` columns), in rows relative to
/// `origin`: what every wave kernel samples (one place, so that `WaveFillRows.hiddenGroups`
/// finds the fill's own rows).
@usableFromInline
struct WaveHeights {
    @usableFromInline let sampler: WaveSampler
    @usableFromInline let baseline: LaneFloats
    @usableFromInline let amplitude: LaneFloats

    @inlinable
    init(_ shape: Wave, amplitude: Double, origin: Int) {
        sampler = WaveSampler(wavelength: shape.wavelength, phase: shape.phase)
        baseline = LaneFloats(repeating: Float(shape.baseline - Double(origin)))
        self.amplitude = LaneFloats(repeating: Float(amplitude))
    }

    @inlinable @inline(__always)
    func callAsFunction(_ groupX: Int, _ offset: Double = 0) -> LaneFloats {
        baseline + amplitude * sineOfTurns(sampler.turns(groupX: groupX, offset: offset))
    }
}

// Anti-aliased wave fill: the region y ≥ f(x) = baseline + amplitude·sin(2π·x/wavelength + phase).
// This comment also records the design and measured speed of the wave stroke (WaveStroke.swift).
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
// - Compositing: `WaveBlender`, 16-bit fixed point in 32-bit lanes (ties round up like the
//   reference; the shared Float `blend` is ~7x slower because its int→float conversion is an
//   out-of-line call). Lane min/max/clamp use sign-bit selects (`WaveLanes.swift`) because
//   Swift lane masks compiled to mask shuffles in these loops.
// - Stroke: every vertical line meets the stroke in one interval [lo, hi]; coverage is
//   fill(lo) − fill(hi) with the same chord integrals. Gentle strokes (half width · curvature ·
//   (1 + slope²) ≤ 0.02): lo/hi = g ∓ r·√(1 + g'²) + ½r²g''g'²/(1 + g'²) in SIMD, round caps in
//   SIMD at the ends; others: exact offset curves by Newton (SIMD), the discs' extremes
//   sampled over the disc angle (SIMD), or, for sharp zig-zags, exact capsule envelopes of a
//   refined polyline (scalar, slower); WaveStroke.swift lists them.
//
// Accuracy (swift test -c release; references: 256 exact sample columns per pixel for fills,
// 256 sub-rows of exact capsule-union intervals for strokes)
// - fill, 300 random ops (λ 2–2000 px): max pixel error 0.0024, worst mean over edge pixels
//   0.0016 (the 1/255 readback quantisation alone gives ~0.001). λ = 0.5–2 px: max 0.003.
// - stroke, 200 gentle + 150 bent random ops (λ 4–3000, widths 0.2–12, both envelopes, caps
//   in view): max 0.014 (at a cap tip) / 0.0095, worst edge mean 0.0014 / 0.0012. By path:
//   150 sampled-disc strokes (λ 6–200, widths 1–30) max 0.017, edge mean 0.0013; 60 robust
//   ones (λ 3–40) max 0.0067, edge mean 0.0013; 120 exact-offset ones max 0.011, 0.0013.
// - bench lists vs the Double reference with per-op 8-bit rounding: mean channel error
//   ≤ 0.024/255, max 1/255 on 4 tiles each of waves.json and waves-4k.json.
// - Limits: below ~0.5 px per wavelength 32 sub-columns stop resolving the curve (λ = 0.1 px is
//   tested for safety and column sums only). Degenerate input draws nothing: non-finite
//   baseline, amplitude, wavelength or phase, or |wavelength| < 1e-6 px (zero included). Amplitudes are limited to
//   ±1e6 px (every column then spans the frame anyway) so Float coordinates stay meaningful.
//
// Speed, 2026-12-01 on a 2-core Intel Xeon VM (AVX-512; a 1080p memset 0.32–0.42 ms there, the
// frame goes to memory): waves.json through FrameRenderer 0.96 → ~0.85–0.9 ms (quiet A/B of
// `swell render bench-data/waves.json --repeat 400 --threads 1`), `scripts/bench` 2.3–2.7x a
// memset, from (1) virtual curve rows blended from their colour (LazyDraw.swift), (2) k = 1
// fills swept row by row per chunk (WaveFillChunkRows.swift), (3) one fold for the chord bounds
// (`laneBounds`). Same bytes. The notes below are from the EPYC machine of earlier sessions.
//
// Speed (one core of the shared 2-core AMD EPYC (AVX-512) machine, medians of 60 frames; the
// machine is noisy, ranges are over repeated runs, A/B runs interleaved)
// - Now: `scripts/build; .build/tuned-native/release/swell render bench-data/waves.json
//   --repeat 80 --threads 1`: waves.json 0.331–0.343 ms against 0.368–0.375 ms for the build
//   before the two stroke changes below (interleaved, quiet machine), ~5.2x a memset of
//   0.063–0.066 ms; strokes alone (clear + the 10 strokes, minus the clear) ~0.19 ms (was ~0.21):
//   * laneMinimum/laneMaximum (4 per stroke group, 2 per fill group): one 16-lane fold, then
//     scalar minima. The old tree of sign-bit selects over lane swaps compiled to ~60 xmm
//     instructions with mask moves and horizontal subtracts each, ~20 % of the stroke kernel's
//     samples in `perf record`. Same bytes. waves.json 0.365 -> 0.337 ms. (Fragile: splitting
//     `buildChords` so its k = 1 case inlines, or moving the stroke's row loop out of line,
//     each gave back 0.01–0.03 ms; `perf annotate` still shows the coverage integrals of the
//     row loop in mixed xmm/ymm/zmm pieces.)
//   * the stroke's row loop multiplies by per-group reciprocals of the chord runs
//     (`chordRunReciprocals`, `coverageBelowChordsScaled`) instead of dividing per row and
//     boundary: 0.372 -> 0.365 ms. Changes the bytes within a Float rounding of the quotient
//     (1 byte of waves.json; checksums re-recorded, goldens unchanged).
//   Tried without gain (within noise, so not kept): keeping the k = 1 chord's start, slope,
//   1/run and ε term in registers across rows; folding alpha·2^16 into the blender constants.
// - Before those, through FrameRenderer (what `swell render` and the bench's "Swell banded" use):
//   `scripts/build; .build/tuned-native/release/swell render bench-data/waves.json --repeat 60
//   --threads 1`: waves.json 0.37–0.38 ms (was 0.56–0.62 ms in the same runs), i.e. ~5.7x a
//   memset of 0.065 ms. Borderline: `scripts/bench --frames 60` (Cairo timed in the same
//   rounds) gave banded 0.43 ms against a 0.06 ms memset (6.7x) once; `.build/tuned/release/
//   RasterBench measure --build tuned --renderers swell-banded,memset` 0.36–0.38 ms. What changed:
//   * lazy uniform rows (Render/UniformRows.swift): the clear and the fully covered rows of
//     full-width fills stay one colour per row (`WaveBlender.fullPixel`) and are written once
//     at the end; only the curve rows (`WaveFillRows.curveRows`) and what other ops touch are
//     blended pixel by pixel: the 4 fills + clear 0.33 -> 0.18 ms.
//   * the rows below a group's chords in one call (`WaveBlender.fullColumns`, constants kept
//     in registers): fills + clear 0.18 -> 0.15 ms.
//   * the stroke's sine and cosine per column edge out of line (`outlinedSineOfTurns`): LLVM
//     had interleaved the two inlined polynomials into scalar/xmm/ymm code: strokes 0.26 ->
//     0.22 ms (+ clear: 0.33 -> 0.28 ms).
//   All give the same bytes (checked with cmp on the bench lists and random lists, 1 and 2
//   threads, against the previous build). Left then: strokes ~0.22 ms (row loop: the coverage
//   integral's division and the per-row blend; see above), the end-of-band row fills ~1 memset, the fills'
//   curve rows ~0.09 ms. waves-4k through FrameRenderer: 1.7–1.9 ms (was 2.9–3.6 ms); two
//   threads: waves 0.46 ms (was 0.65–0.71: two threads are slower than one on this shared
//   machine, before and after), waves-4k 1.8–2.0 ms (was 2.4–3.2); ripples-1000 unchanged.
// - Earlier figures, op by op (`render(_:into:)`, before the changes above; a timing harness
//   outside the repository):
// - waves.json 1920x1080 (clear + 4 fills + 10 strokes): 0.51–0.56 ms. A memset of the frame
//   takes 0.058–0.064 ms (the 8 MB frame stays in L3), so this is ~9x memset, not the 3x hoped
//   for: the fills alone blend 2.7 M pixels (1.3 frames) and the clear is one memset. Fills
//   0.21–0.23 ms, strokes 0.24 ms (~24 µs per 1920-px stroke, compute-bound in the row loop).
// - waves-4k.json 3840x2160: 2.1–3.3 ms against a memset of 0.40–1.06 ms (both swing with the
//   other jobs on the machine; ratio 3.3–5.4x); fills 1.0–1.8 ms (memory-bound: the frame no
//   longer fits L3), strokes 0.52–0.75 ms.
// - A whole-frame constant-alpha span at 1080p: `WaveBlender.fullSpan` 0.11–0.13 ms (~2x
//   memset), the shared `blendSpan` 0.85 ms.
// - Rendering in row bands (all ops per band) did not pay with these kernels: each band
//   re-samples every column of the ops crossing it (64-row bands: 0.74 ms at 1080p).
// - Default (portable SSE2) build, identical pixels: waves 2.2 ms, waves-4k 8.2–8.7 ms (the 32-bit
//   multiplies of the blender are emulated there; a 16-bit variant measured 1.9 ms but was
//   40 % slower on AVX-512, so the tuned build's choice was kept).
// - objdump of the tuned build: the column and row loops are zmm code with no calls (no libm,
//   no allocation: the scratch buffers are InlineArrays on the stack (WaveScratch.swift); the
//   benchmark's LD_PRELOAD malloc counter shows 0 allocations per frame). The only
//   calls left are per op (setup) and in the robust stroke path (scalar Double, libm sqrt).

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
/// ~6 % of its frame doing so.
@inlinable
func fillWaveBand(
    _ surface: PixelSurface, _ shape: Wave, amplitude: Double, _ source: SourceColor, columns: Range<Int>,
    rows: Range<Int>, origin: Int, virtualColors: UnsafePointer<UInt32>? = nil
) {
    let angular = 2 * Double.pi / shape.wavelength
    let k = WaveSampler.subColumns(curvatureBound: abs(amplitude) * angular * angular, tolerance: 0.1)
    let sampler = WaveSampler(wavelength: shape.wavelength, phase: shape.phase)
    let blender = WaveBlender(source)
    // Row coordinates relative to `origin` keep Float values small; rows [firstRow, endRow).
    let baseline = LaneFloats(repeating: Float(shape.baseline - Double(origin)))
    let scaledAmplitude = LaneFloats(repeating: Float(amplitude))
    let firstRow = rows.lowerBound - origin
    let endRow = rows.upperBound - origin
    @inline(__always) func height(_ groupX: Int, _ offset: Double) -> LaneFloats {
        baseline + scaledAmplitude * sineOfTurns(sampler.turns(groupX: groupX, offset: offset))
    }
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
                    fillColumnSamples(samples, chunkStart: chunkStart, chunkEnd: chunkEnd) { height($0, 0) }
                    fillChunkRowByRow(
                        surface, blender, samples: samples, scratch: scratch, chunk: chunkStart..<chunkEnd,
                        columns: columns, rows: firstRow..<endRow, origin: origin, virtualColors: virtualColors)
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

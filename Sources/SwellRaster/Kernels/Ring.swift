// Ring and disc kernels (tiny-skia style: exact-area coverage per edge pixel, constant-alpha
// spans inside, nothing outside).
//
// Design
// - Rows: for 8 rows at once (SIMD8<Double>, RowSpans.swift) the half-chords of both circles at
//   each row's nearest and farthest y give the pixel ranges the ring touches and leaves empty
//   (the hole); the wholly covered ranges are computed only for blocks of the general path.
//   Blocks start at multiples of 8 frame rows; the next block's spans are computed before the
//   current block is painted, so their latency overlaps the painting.
// - Steep and medium blocks (SteepRows.swift, ~90 % of the blocks of ripples-1000): where every
//   row of the block meets the ring in short runs (≤ 4, ≤ 8 or ≤ 16 px) left and right of the
//   hole, or in one such run with the other crossing beyond the frame, the rows are painted with
//   fixed windows and no per-run bookkeeping. The ≤ 4 and ≤ 8 px blocks compute one lane per row
//   side and one vector per pixel offset and transpose the results into windows; blends are
//   whole 512-bit vectors copied out through a stack buffer (SteepRows.swift says why).
// - General path, for the other rows (a ring's very top and bottom, crossings cut by the frame):
//   inside runs of >= 16 px are one `blendSpan`; the hole is skipped; everything else is an edge
//   pixel: runs of >= 8 px are painted as contiguous 16-pixel vectors (`paintLongRun`), shorter
//   ones through a queue of 4-pixel windows, four windows (from one row or several) a vector.
//   Only pixels the ring can touch are visited.
// - Coverage per lane: a disc's coverage is the exact area of the pixel cut by the tangent
//   half-plane at the nearest boundary point (box-filtered line: a trapezoid CDF in the signed
//   distance u, with the normal's components a >= b) minus the area between tangent and arc,
//   L^3/(24R) for a chord of length L (CircleLanes.swift). A ring at least sqrt(2) px wide never
//   has both circles in one pixel, so its coverage is that of the nearer circle alone; thinner
//   rings take the two-disc difference. From inner radius 48 the arc term is left out (at most
//   0.0025 of a pixel: `CircleLanes.straight`). Steep rows of rings with inner radius >= 24 use
//   the row model (RowNormal.swift): the normal where the row's centre line meets the middle
//   circle, shared by the row's pixels, so a pixel costs a square root and the CDF, no division.
//   Zero-coverage and out-of-run lanes are stored back unchanged; only pixels inside the clip are
//   loaded/stored. A pixel's offset from the centre is (whole pixels from an integer origin) +
//   (the centre's fraction) in Float (PixelCentres.swift); a row's coverage model depends only on
//   its 8-row block, which every banding forms alike: the output does not depend on band height
//   or thread count (FrameRendererTests, LazyRowsTests).
// - Circles with R < 12 use the exact disc∩pixel area in Double (ExactDiscArea.swift); circles
//   with R > 8192 the same half-plane model in scalar Double (Float loses ~R·6e-8 px in rho).
// - SIMD codegen: no `.replacing`, `pointwiseMin` or mask casts (LaneMath.swift explains),
//   no float→int conversions from the standard library; sqrt sees an argument LLVM knows is not
//   negative (through `magnitude`), else it becomes a sqrtf call per lane. The standard library's
//   SIMD operators are per-lane loops that LLVM's SLP vectoriser rebuilds into vectors, seeded by
//   stores and lane-by-lane vector builds, so the width of the machine code follows the widths
//   of the stores and shuffles around a computation: check `objdump -d` (zmm) after any change.
//
// Measured (2-core shared AMD EPYC (Zen 5, AVX-512, ~4.3 GHz), one core, medians; A/B runs
// interleaved because the shared machine drifts by ±10–30 % over minutes):
// - ripples-1000 (1920x1080, 1000 rings 2 px wide), banded FrameRenderer:
//     scripts/build; .build/tuned-native/release/swell render bench-data/ripples-1000.json \
//       --repeat 40 --threads 1
//   8.2–8.7 ms tuned (11.1–12.3 at the start of 2026-11-30 in a quieter hour; 15.0–15.8 before the
//   steep blocks, 20.7 before the window queue), 25.9 ms portable (was 33–41). Steps of
//   2026-11-30, each interleaved A/B on a slower hour (old binary 16.3 ms): 1 MiB bands for
//   ring-heavy frames (FrameRenderer) 13.3 → 11.0 at a quiet moment; row model with transposed
//   windows 16.3 → 12.1; PixelSurface's owner reference out of the painters' arguments
//   (a retain/release per call) −1.5 %; no arc term from R 100 12.0 → 11.1 (row model) and
//   11.0 → 10.7 (every path), from R 48 −1.5 %; whole-vector blends through a stack buffer
//   10.5 → 9.9; eligibility as one lane min instead of per-row bit masks (their lane extracts)
//   9.7 → 9.2; medium blocks 9.2 → 8.8; next block's spans first −3 %; a wide block's eight
//   results copied out by one call −2 %.
// - Where the time goes now (perf record -e cpu-clock): steep and medium painters ~50 % (their
//   coverage ~11 %: with it replaced by a constant, 9.3 → 8.2 ms), the general path ~27 %
//   (long-run coverage ~8 %), RowSpans ~9 %, clearing rows ~4 %; the blends' arithmetic ~10 %
//   (9.1 → 8.2 ms without it); with every row folded into 4 L1-resident rows, 9.3 → 8.8 ms.
//   So ~70 % is neither coverage nor blend arithmetic: loads and stores, transposes, run
//   bookkeeping, spans and path decisions.
// - Tried 2026-11-30, slower or no gain: the row model's coverage inlined into the painters
//   (SLP split it into 128/256-bit pieces and scalar sqrtf calls); results passed by value to an
//   out-of-line store function instead of the stack buffer (split again, +15 %); the window
//   queue's blend through the stack buffer (no change); the steep path decided one block ahead
//   as an enum with payload (+15 %: copies and spills); one copy-out call for the four-vector
//   painters too (+13 %: the buffer's closure became an out-of-line function).
// - Tried 2026-12-01 on a 2.6 GHz Zen 4 EPYC, where this kernel takes 15.6–15.9 ms (a throwaway
//   prototype, not kept): every row's ring crossings binned into ordered lists per 8-pixel group,
//   each group's rings blended in Float registers so a pixel is loaded and stored once. 1.15 M
//   ring-groups a frame; the blend phase alone 11 ms with a normal per pixel (a square root and a
//   division a lane), 7 ms with one normal per entry (bound by the serial colour chain, a
//   subtract and an FMA a ring, and the lists' pointer chase); scalar binning 14.5 ms. With the
//   binning vectorised it would still be ~9–14 ms, against 5.6 ms for 40× Cairo there.
// - Tried before (2026-11-29): the exact area between the two circles' chords in each row
//   instead of the tangent-plane model (per-row lane vectors built from per-block ones compiled
//   to scalar inserts, 16.4–18.5 ms); four coverages in one basic block without the ring-kind
//   branches (256-bit pieces, 14.2 ms); a 64-byte stack buffer for loads as well (store-forwarding
//   stalls: +5 %); `-Xllvm -slp-max-reg-size=512` (no effect); a fixed-point blend (−3 %, 30 % of
//   pixels 1–2 levels off the exact blend); lockstep coverages (rescheduled by LLVM);
//   SIMD64 lanes (scalar sqrtf); the 0x5F3759DF inverse square root (+10 %); window slots
//   through memory (+5 to +13 %); min/max as integer selects (+40 %); wrapping arithmetic in the
//   window loop (+40 %).
// - Accuracy against the sub-row reference (RingAccuracyTests, DiscAccuracyTests): coverage
//   error <= 0.008 on any pixel (8-bit quantisation included) and <= 0.0016 mean over edge
//   pixels in every random case (bounds 0.05 and 0.005); the steep sides of large rings
//   (row model): worst max 0.0045, worst edge mean 0.0011.

/// Composites an anti-aliased ring: points whose distance from the centre lies within
/// radius ± width/2 (inner radius clamped at 0, so radius < width/2 gives a disc).
/// Width ≤ 0, NaN or infinite fields draw nothing.
@inlinable
public func fillRing(_ surface: PixelSurface, _ shape: Ring, _ source: SourceColor, clip: ClipRect) {
    guard shape.width > 0, shape.width.isFinite, shape.radius.isFinite else { return }
    let outer = shape.radius + shape.width / 2
    let inner = max(shape.radius - shape.width / 2, 0)
    fillAnnulus(surface, centerX: shape.centerX, centerY: shape.centerY, outer: outer, inner: inner, source, clip: clip)
}

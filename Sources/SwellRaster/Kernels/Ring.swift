// Ring and disc kernels (tiny-skia style: exact-area coverage per edge pixel, constant-alpha
// spans inside, nothing outside).
//
// Design
// - Rows: for 8 rows at once (SIMD8<Double>, RowSpans.swift) the half-chords of both circles at
//   each row's nearest and farthest y give the pixel ranges the ring touches, wholly covers and
//   leaves empty (the hole). Inside runs of >= 16 px are one `blendSpan`; the hole is skipped;
//   everything else is an edge pixel. Only pixels the ring can touch are visited.
// - Edge pixels: cut into 4-pixel windows; any four windows (from one row or several) are one
//   16-lane Float vector (runs average 3-5 px in ripple lists: one vector per run left ~70 %
//   of lanes idle), and 16 windows are queued and painted as four vectors together: their
//   coverage chains are independent, so the core overlaps them (one vector at a time ran at
//   about one instruction a cycle, bound by latency). Per lane, a disc's coverage is the exact
//   area of the pixel cut by the tangent half-plane at the nearest boundary point (box-filtered
//   line: a trapezoid CDF in the signed distance u, with the normal's components a >= b) minus
//   the area between tangent and arc, L^3/(24R) for a chord of length L (CircleLanes.swift).
//   A ring at least sqrt(2) px wide never has both circles in one pixel, so its coverage is
//   that of the nearer circle alone (u = w/2 - |rho - R_mid|, the arc term's sign by side): the
//   two-disc difference term for term at half the work; thinner rings take the difference.
//   Both circles share rho = sqrt(dx^2 + dy^2) and one division per vector. Zero-coverage and
//   out-of-run lanes are stored back unchanged; only pixels inside the clip are loaded/stored.
// - Circles with R < 12 use the exact disc∩pixel area in Double (ExactDiscArea.swift); circles
//   with R > 8192 the same half-plane model in scalar Double (Float loses ~R·6e-8 px in rho).
// - SIMD codegen: no `.replacing`, `pointwiseMin` or mask casts (LaneMath.swift explains),
//   no float→int conversions from the standard library; sqrt sees a non-negative argument.
//   The standard library's SIMD operators are per-lane loops that LLVM's SLP vectoriser
//   rebuilds into vectors, so the width of the machine code depends on the code's shape: check
//   `objdump -d` (zmm in the coverage block) after any change. Shapes that came out as 128-bit
//   pieces or scalars: symmetric pairs such as |v + 0.5| - |v - 0.5| (paired within one lane),
//   a splat constant whose sign is flipped per lane, the coverage kernel in one basic block with
//   the blend (the branch on the ring kind keeps it whole), and the blend itself (four 128-bit
//   loads and stores: it stays in 128-bit pieces, ~40 % of the vector block).
//
// Measured (2-core shared AMD EPYC (Zen 5, AVX-512), one core, medians of 40 frames, runs
// interleaved with the previous version; the machine is shared, figures vary by ±5 %):
// - ripples-1000 (1920x1080, 1000 rings 2 px wide), banded FrameRenderer:
//     scripts/build; .build/tuned-native/release/swell render bench-data/ripples-1000.json \
//       --repeat 40 --threads 1
//   15.0 ms tuned (was 20.7 ms), 44.5 ms in the portable build (scripts/build --portable; was
//   45.7 ms: the integer positivePart that gained 8 % tuned costs 8 % on SSE2, which has no
//   64-bit arithmetic shift or 32-bit integer max), identical pixels in both builds.
//   ripples-60: 0.93 ms tuned (was 1.32 ms). Instructions per frame on the AVX2 build under
//   valgrind --tool=callgrind: 304 M (was 332 M); most of the gain is overlap, not count.
// - Where the time goes now (perf record -e cpu-clock): painting the queued vectors ~43 %
//   (coverage in zmm ~2/3 of it, the blend in 128-bit pieces ~1/4), the row and window
//   bookkeeping in fillAnnulus ~39 %, RowSpans (four vsqrtpd per 8 rows) ~12 %. Short of the
//   8 ms goal.
// - Tried, slower or no gain: inverse square root by the 0x5F3759DF trick + Newton steps
//   instead of vsqrtps/vdivps (+10 %, longer dependent chain); window slots written through
//   memory or a dynamic SIMD16<Int> insert instead of a switch (+5 to +13 %); runs of <= 8 px
//   as two windows without a loop (no change); carrying the loaded pixels in the queue and
//   storing the result through a stack buffer to widen the blend (+20 %, blend still narrow);
//   min/max of non-negative floats as integer min/max by bitwise select (+40 %: SLP then
//   vectorised the kernel in pieces). Per-row bookkeeping, each byte-identical and within the
//   ±5 % noise (none faster in 4 of 5 interleaved runs): a thin-row path skipping the full-run
//   tests of EdgeRuns; the windows' dx converted 16 at a time (2^52 trick) instead of one
//   Double→Float per window; edge runs pushed/read at constant lanes by shifting instead of
//   dynamic SIMD4 lanes; wrapping instead of checked arithmetic in the window loop (+40 %:
//   the loop's codegen changed wholesale). The bookkeeping is ~8 cycles a window; what is left
//   is mostly the runs' unpredictable branches (1 or 2 windows a run).
// - Accuracy against the sub-row reference (RingAccuracyTests, DiscAccuracyTests): coverage
//   error <= 0.0035 on any pixel (8-bit quantisation included) and <= 0.002 mean over edge
//   pixels in every random case; the model alone errs by ~0.0015.

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

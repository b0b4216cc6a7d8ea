// Ring and disc kernels (tiny-skia style: exact-area coverage per edge pixel, constant-alpha
// spans inside, nothing outside).
//
// Design
// - Rows: for 8 rows at once (SIMD8<Double>, RowSpans.swift) the half-chords of both circles at
//   each row's nearest and farthest y give the pixel ranges the ring touches and leaves empty
//   (the hole); the wholly covered ranges are computed only for blocks of the general path.
// - Steep blocks (SteepRows.swift, ~90 % of the blocks of ripples-1000): where every row of the
//   block meets the ring in short runs (≤ 4 or ≤ 8 px) left and right of the hole, or in one such
//   run with the other crossing beyond the frame, the rows are painted with fixed windows and no
//   per-run bookkeeping: four 4-px windows or two 8-px windows a vector.
// - General path, for the other rows (near a ring's top and bottom, crossings cut by the frame):
//   inside runs of >= 16 px are one `blendSpan`; the hole is skipped; everything else is an edge
//   pixel: runs of >= 8 px are painted as contiguous 16-pixel vectors (`paintLongRun`, whole
//   512-bit loads, blends and stores), shorter ones through the window queue below. Only pixels
//   the ring can touch are visited.
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
//   A pixel's offset from the centre is (whole pixels from an integer origin) + (the centre's
//   fraction) in Float (PixelCentres.swift), so every path gives a pixel the same coverage and
//   the output does not depend on band height or thread count.
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
// Measured (2-core shared AMD EPYC (Zen 5, AVX-512, ~4.3 GHz), one core, medians; runs interleaved
// with the previous version because the shared machine drifts by ±10–30 % over minutes):
// - ripples-1000 (1920x1080, 1000 rings 2 px wide), banded FrameRenderer:
//     scripts/build; .build/tuned-native/release/swell render bench-data/ripples-1000.json \
//       --repeat 40 --threads 1
//   11.1–11.7 ms tuned (was 15.0–15.8 before the steep blocks, 20.7 before the window queue),
//   33–37 ms in the portable build (was 44.5), ripples-60 0.74 ms (was 0.93). Band height does
//   not matter (32–1080 rows: 11.1–11.4 ms): the frame is not memory-bound. Steps, each interleaved
//   A/B: steep two-crossing blocks with 8-px windows 15.6 → 12.7 ms (4 coverages computed
//   together: one row at a time was 14.1), 4-px windows where the runs fit 12.2, one crossing
//   beyond the frame 11.9, full/inner ranges only for general blocks 12.5 → 12.0 (−4 %), one
//   crossing of ≤ 4 px four rows a vector −2 to −3 %, long edge runs as whole vectors −3 to
//   −4 % (threshold 8 px; 5 and 12 px measured the same or worse).
// - Where the time goes now (perf record -e cpu-clock): the steep blocks' vectors ~50 %, the
//   general path (window queue and its vectors) ~30 %, RowSpans ~8 %. A vector costs 22–30 ns
//   (~100–130 cycles) in the frame and 16 ns in a loop over L1-resident windows; the coverage
//   alone is a chain of ~100 cycles' latency (sqrt, division, ~30 dependent steps), and the core
//   overlaps only about two such chains (4 coverages plus blends are ~450 instructions, the
//   size of its reorder window), so the kernel is latency-bound, not throughput-bound: fewer
//   instructions per vector or shorter chains are what would help.
// - Tried today, slower or no gain: the exact area between the two circles' chords in each row
//   instead of the tangent-plane model (no square root or division per pixel; accurate to
//   ≤ 0.002 mean for R ≥ 48), but building per-row lane vectors from per-block ones compiled to
//   scalar inserts and 256-bit pieces (16.4–18.5 ms); the wide ring's coverage without its
//   branches on the ring kind, so four computations form one basic block (SLP then built the
//   whole kernel in 256-bit pieces: 14.2 ms); a branch skipping the arc term for R ≥ 118 (same
//   effect: 15.4 ms); the blend through a 64-byte stack buffer so it runs on whole 512-bit
//   vectors (it did, but store-forwarding stalls ate the gain: +5 %); a separate out-of-line
//   blend (no change); `-Xllvm -slp-max-reg-size=512` (no effect); painting the steep half of a
//   mixed block (no change); a fixed-point blend (8.8, red and blue in one 32-bit lane, ~20
//   instead of ~28 operations) for every circle path: −3 %, within the noise, for 30 % of the
//   pixels 1–2 levels away from the exact blend; four coverages written step by step in
//   lockstep (LLVM's scheduler put the chains back one after another; −enable-misched=false
//   too); SIMD64 lanes (square roots became scalar sqrtf calls).
// - Before (kept for the record): inverse square root by the 0x5F3759DF trick + Newton steps
//   instead of vsqrtps/vdivps (+10 %, longer dependent chain); window slots written through
//   memory or a dynamic SIMD16<Int> insert instead of a switch (+5 to +13 %); runs of <= 8 px
//   as two windows without a loop (no change); carrying the loaded pixels in the queue and
//   storing the result through a stack buffer to widen the blend (+20 %, blend still narrow);
//   min/max of non-negative floats as integer min/max by bitwise select (+40 %: SLP then
//   vectorised the kernel in pieces). Per-row bookkeeping of the general path, each
//   byte-identical and within the ±5 % noise: a thin-row path skipping the full-run tests of
//   EdgeRuns; the windows' dx converted 16 at a time; edge runs pushed/read at constant lanes by
//   shifting; wrapping instead of checked arithmetic in the window loop (+40 %: the loop's
//   codegen changed wholesale).
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

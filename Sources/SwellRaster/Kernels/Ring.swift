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
//   of lanes idle). Per lane, ring coverage = disc(R_outer) - disc(R_inner), each the exact
//   area of the pixel cut by the tangent half-plane at the nearest boundary point (box-filtered
//   line: a trapezoid CDF in the signed distance u, with the normal's components a >= b) minus
//   the area between tangent and arc, L^3/(24R) for a chord of length L (CircleLanes.swift).
//   Both circles share rho = sqrt(dx^2 + dy^2) and one division per vector. Zero-coverage and
//   out-of-run lanes are stored back unchanged; only pixels inside the clip are loaded/stored.
// - Circles with R < 12 use the exact disc∩pixel area in Double (ExactDiscArea.swift); circles
//   with R > 8192 the same half-plane model in scalar Double (Float loses ~R·6e-8 px in rho).
// - SIMD codegen: no `.replacing`, `pointwiseMin` or mask casts (LaneMath.swift explains),
//   no float→int conversions from the standard library; sqrt sees a non-negative argument.
//
// Measured (2-core shared AMD EPYC with AVX-512, one core, thread CPU time, medians over 40
// frames; the machine was loaded by other builds, so figures vary by ±30 % between runs):
// - ripples-1000 (1920x1080, 1000 rings 2 px wide): 24–41 ms a frame tuned
//   (`swift build -c release -Xswiftc -target-cpu -Xswiftc native`), 65–72 ms in the portable
//   default build, identical pixels. Drawing every op twice in a row costs ~22 ms more, so about
//   a third of a frame is waiting for frame memory: rendering the list in 64-row bands (each op
//   clipped to the band) took 26 ms when the plain render took 39–41 ms.
// - ripples-60: 1.6–1.9 ms tuned, ~4.4 ms portable.
// - Short of the 8 ms goal; the vector block is ~130 zmm instructions for 16 pixels, and each
//   row costs its span arithmetic and bookkeeping (457k rows, 285k vectors in ripples-1000).
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

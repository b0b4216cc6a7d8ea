// Ring and disc kernels (tiny-skia style: exact-area coverage per edge pixel, constant-alpha
// spans inside, nothing outside). Each part's file explains its design:
// - RowSpans.swift: for 8 rows at once, the pixel ranges the ring touches, covers and leaves
//   empty (the hole); blocks start at multiples of 8 frame rows.
// - SteepRows.swift: blocks whose rows meet the ring in short runs (~90 % of ripples-1000's)
//   are painted with fixed windows and no per-run bookkeeping.
// - AnnulusPainter.swift: the other rows: long inside runs as one span, edge pixels in 16-pixel
//   vectors or a queue of 4-pixel windows; the hole is skipped.
// - CircleLanes.swift (per-pixel normal), RowNormal.swift (one normal per row of a steep side):
//   coverage as the pixel's area cut by the tangent half-plane minus the arc term; a ring at
//   least √2 px wide meets one circle per pixel. ExactDiscArea.swift below R = 12,
//   ScalarCircleCoverage.swift above R = 8192 (CircleTuning.swift has the thresholds).
// - LaneMath.swift `blendCovered`: the blend, in 16-bit lanes on the interleaved XRGB words
//   (tiny-skia's lowp, Blend2D): coverage → one alpha byte a pixel, then red/blue and green/X in
//   the two halves of each word, d·(255 − a) + s·a and an exact /255 — no channel unpacking to
//   32-bit or `Float`, no transposes; the same instructions at 128 (SSE2, NEON), 256 or 512 bits.
//   Inside runs and the scalar pixels use the same arithmetic (`BlendPrecision.lowp`).
// Rules that every part keeps:
// - The output depends on nothing but the shape and the pixel: a row's model depends only on its
//   8-row block and the frame's columns, never the clip's (a block the clip cuts is painted in a
//   copy), and a pixel's offset from the centre is formed one way (PixelCentres.swift), so band
//   height, thread count and clip change no byte (FrameRendererTests, LazyRowsTests).
// - Only pixels inside the clip are loaded or stored; zero-coverage lanes are stored back unchanged.
// - SIMD codegen: no `.replacing`, `pointwiseMin` or mask casts (LaneMath.swift), no float→int
//   conversions from the standard library, square roots of arguments LLVM knows are not negative.
//   The width of the machine code follows the stores and shuffles around a computation: check
//   `objdump -d` (zmm) after any change of structure.
// - Accuracy (RingAccuracyTests, DiscAccuracyTests): coverage error ≤ 0.008 on any pixel and
//   ≤ 0.0016 mean over edge pixels (bounds 0.05 and 0.005).
// Now: ripples-1000 23× Cairo on one core of a 2.6 GHz Zen 4 EPYC in the x86-64-v4 flavour,
// 16× in x86-64-v3, 9.1× in the baseline (`scripts/bench --flavours`; docs/speed.md). What each
// change bought and what was tried: docs/speed-log.md.

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

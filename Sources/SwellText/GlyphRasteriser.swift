import CFreeType
import SwellRaster

/// Turns a glyph's outline into a coverage mask with Swell's own exact-area path filler
/// (Kernels/Path/PathFill.swift: signed-area accumulation, quadratics flattened to 0.003 px).
///
/// Why not FreeType's smooth rasterizer: it flattens curves to about 1/16 px, up to 0.075
/// coverage from the exact area on text-page.json, above the 0.05 bound per pixel
/// (docs/speed.md has both measured); the path filler meets it with margin and costs about the same.
///
/// The outline is loaded unscaled (font units, FT_LOAD_NO_SCALE: no hinting) and scaled in
/// `Double`, so fractional sizes are exact; y is negated (FreeType's y grows upward).
final class GlyphRasteriser {
    private var path = Path()
    private var scale = 1.0
    private var offsetX = 0.0
    private var offsetY = 0.0
    /// A surface for the filler's row pointers; the mask painter writes only the mask.
    private var scratch = PixelBuffer(width: 64, height: 64)

    /// The mask of `glyph` with its pen origin at (fx, fy) inside pixel (0, 0), and the offset of
    /// the mask's top-left pixel from that pixel.
    func rasterise(_ font: Font, glyph: UInt32, size: Double, fx: Double, fy: Double) -> CachedGlyph {
        let empty = CachedGlyph(mask: CoverageMask(width: 0, height: 0), left: 0, top: 0)
        let face = font.face
        let flags = Int32(FT_LOAD_NO_SCALE) | Int32(FT_LOAD_NO_BITMAP) | Int32(FT_LOAD_IGNORE_TRANSFORM)
        guard FT_Load_Glyph(face, glyph, flags) == 0, let slot = face.pointee.glyph,
            slot.pointee.format == FT_GLYPH_FORMAT_OUTLINE, slot.pointee.outline.n_points > 0
        else { return empty }
        var box = FT_BBox()
        FT_Outline_Get_CBox(&slot.pointee.outline, &box)
        scale = size / font.unitsPerEm
        let left = (fx + Double(box.xMin) * scale).rounded(.down)
        let right = (fx + Double(box.xMax) * scale).rounded(.up)
        let top = (fy - Double(box.yMax) * scale).rounded(.down)
        let bottom = (fy - Double(box.yMin) * scale).rounded(.up)
        guard left.isFinite, right.isFinite, top.isFinite, bottom.isFinite, right > left, bottom > top,
            right - left < 16384, bottom - top < 16384
        else { return empty }
        offsetX = fx - left
        offsetY = fy - top
        path.removeAll()
        guard decompose(&slot.pointee.outline) else { return empty }
        let width = Int(right - left)
        let height = Int(bottom - top)
        let mask = CoverageMask(width: width, height: height)
        if scratch.width < width || scratch.height < height {
            scratch = PixelBuffer(width: max(width, scratch.width), height: max(height, scratch.height))
        }
        fillPath(
            scratch.surface, path, painter: MaskPainter(mask: mask.bytes, stride: mask.stride),
            clip: ClipRect(x0: 0, y0: 0, x1: width, y1: height))
        return CachedGlyph(mask: mask, left: Int32(left), top: Int32(top))
    }

    private func point(_ v: UnsafePointer<FT_Vector>?) -> (Double, Double) {
        guard let v else { return (0, 0) }
        return (offsetX + Double(v.pointee.x) * scale, offsetY - Double(v.pointee.y) * scale)
    }

    private func decompose(_ outline: UnsafeMutablePointer<FT_Outline>) -> Bool {
        var funcs = FT_Outline_Funcs(
            move_to: { to, user in
                let r = Unmanaged<GlyphRasteriser>.fromOpaque(user!).takeUnretainedValue()
                let p = r.point(to)
                r.path.move(to: p.0, p.1)
                return 0
            },
            line_to: { to, user in
                let r = Unmanaged<GlyphRasteriser>.fromOpaque(user!).takeUnretainedValue()
                let p = r.point(to)
                r.path.line(to: p.0, p.1)
                return 0
            },
            conic_to: { control, to, user in
                let r = Unmanaged<GlyphRasteriser>.fromOpaque(user!).takeUnretainedValue()
                let c = r.point(control)
                let p = r.point(to)
                r.path.quad(control: c.0, c.1, to: p.0, p.1)
                return 0
            },
            cubic_to: { c1, c2, to, user in
                let r = Unmanaged<GlyphRasteriser>.fromOpaque(user!).takeUnretainedValue()
                r.cubic(r.point(c1), r.point(c2), r.point(to))
                return 0
            },
            shift: 0, delta: 0)
        return FT_Outline_Decompose(outline, &funcs, Unmanaged.passUnretained(self).toOpaque()) == 0
    }

    /// A cubic (CFF fonts) as lines, enough of them that no chord strays 0.003 px: the deviation
    /// of n chords is at most (3/4)·max second difference / n².
    private func cubic(_ c1: (Double, Double), _ c2: (Double, Double), _ p3: (Double, Double)) {
        let p0: (Double, Double)
        switch path.elements.last {
        case .move(let x, let y), .line(let x, let y), .quad(_, _, let x, let y): p0 = (x, y)
        default: p0 = (0, 0)
        }
        let ddx = max(abs(p0.0 - 2 * c1.0 + c2.0), abs(c1.0 - 2 * c2.0 + p3.0))
        let ddy = max(abs(p0.1 - 2 * c1.1 + c2.1), abs(c1.1 - 2 * c2.1 + p3.1))
        let deviation = 0.75 * (ddx * ddx + ddy * ddy).squareRoot()
        let n = max(1, min(4096, Int((deviation / pathFlatteningTolerance).squareRoot().rounded(.up))))
        for i in 1...n {
            let t = Double(i) / Double(n)
            let u = 1 - t
            let a = u * u * u
            let b = 3 * u * u * t
            let c = 3 * u * t * t
            let d = t * t * t
            path.line(to: a * p0.0 + b * c1.0 + c * c2.0 + d * p3.0, a * p0.1 + b * c1.1 + c * c2.1 + d * p3.1)
        }
    }
}

/// Writes round(coverage · 255) into a mask instead of blending into pixels.
struct MaskPainter: CoveragePainter {
    let mask: UnsafeMutablePointer<UInt8>
    let stride: Int

    @inline(__always)
    func paint(_ row: UnsafeMutablePointer<UInt32>, y: Int, x: Int, count: Int, coverage: LaneFloats) {
        let bytes = roundedLowBits(coverage * 255)
        let out = mask + y * stride + x
        for i in 0..<count { out[i] = UInt8(truncatingIfNeeded: bytes[i]) }
    }

    @inline(__always)
    func paintSpan(_ row: UnsafeMutablePointer<UInt32>, y: Int, from x0: Int, to x1: Int, coverage: Float) {
        guard x1 > x0 else { return }
        (mask + y * stride + x0).update(repeating: UInt8((coverage * 255).rounded()), count: x1 - x0)
    }
}

import CFreeType
import SwellRaster

/// Turns a glyph's outline into a coverage mask: the outline loaded unscaled (font units,
/// FT_LOAD_NO_SCALE: no hinting), scaled in `Double` so fractional sizes are exact, y negated
/// (FreeType's y grows upward), and filled by `MaskAccumulator` (exact area, one pass).
///
/// Why not FreeType's smooth rasterizer: it flattens curves to about 1/16 px, up to 0.075
/// coverage from the exact area on text-page.json, above the 0.05 bound per pixel. Swell's path
/// filler (Kernels/Path/PathFill.swift) meets the bounds but walks the outline once per 16-row
/// tile at 0.003 px, too slow for a cold frame; the one-pass accumulator is the same method at
/// mask size. Now: a cold text-page frame (shaped lines and masks dropped, fonts open) is drawn
/// 1.09x as fast as Cairo's cold frame (median, one core, tuned build; docs/speed.md, "Text").
/// What the path filler cost and what else was tried: docs/speed-log.md.
final class GlyphRasteriser {
    private let state = UnsafeMutablePointer<OutlineState>.allocate(capacity: 1)

    struct OutlineState {
        var fill = MaskAccumulator()
        var scale = 1.0
        var offsetX = 0.0
        var offsetY = 0.0

        @inline(__always)
        func point(_ v: UnsafePointer<FT_Vector>?) -> (Double, Double) {
            guard let v else { return (0, 0) }
            return (offsetX + Double(v.pointee.x) * scale, offsetY - Double(v.pointee.y) * scale)
        }
    }

    init() { state.initialize(to: OutlineState()) }

    deinit {
        state.pointee.fill.free()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// The mask of `glyph` with its pen origin at (fx, fy) inside pixel (0, 0), and the offset of
    /// the mask's top-left pixel from that pixel.
    func rasterise(_ font: Font, glyph: UInt32, size: Double, fx: Double, fy: Double) -> CachedGlyph {
        let face = font.face
        let flags = Int32(FT_LOAD_NO_SCALE) | Int32(FT_LOAD_NO_BITMAP) | Int32(FT_LOAD_IGNORE_TRANSFORM)
        guard FT_Load_Glyph(face, glyph, flags) == 0, let slot = face.pointee.glyph,
            slot.pointee.format == FT_GLYPH_FORMAT_OUTLINE, slot.pointee.outline.n_points > 0
        else { return CachedGlyph(mask: emptyGlyphMask, left: 0, top: 0) }
        var box = FT_BBox()
        FT_Outline_Get_CBox(&slot.pointee.outline, &box)
        let scale = size / font.unitsPerEm
        let left = (fx + Double(box.xMin) * scale).rounded(.down)
        let right = (fx + Double(box.xMax) * scale).rounded(.up)
        let top = (fy - Double(box.yMax) * scale).rounded(.down)
        let bottom = (fy - Double(box.yMin) * scale).rounded(.up)
        guard left.isFinite, right.isFinite, top.isFinite, bottom.isFinite, right > left, bottom > top,
            right - left < 16384, bottom - top < 16384
        else { return CachedGlyph(mask: emptyGlyphMask, left: 0, top: 0) }
        let width = Int(right - left)
        let height = Int(bottom - top)
        state.pointee.scale = scale
        state.pointee.offsetX = fx - left
        state.pointee.offsetY = fy - top
        state.pointee.fill.reset(width: width, height: height)
        guard decompose(&slot.pointee.outline) else { return CachedGlyph(mask: emptyGlyphMask, left: 0, top: 0) }
        state.pointee.fill.close()
        let mask = CoverageMask(width: width, height: height)
        state.pointee.fill.write(into: mask.bytes, stride: mask.stride)
        return CachedGlyph(mask: mask, left: Int32(left), top: Int32(top))
    }

    private func decompose(_ outline: UnsafeMutablePointer<FT_Outline>) -> Bool {
        var funcs = FT_Outline_Funcs(
            move_to: { to, user in
                let s = user!.assumingMemoryBound(to: OutlineState.self)
                let p = s.pointee.point(to)
                s.pointee.fill.move(p.0, p.1)
                return 0
            },
            line_to: { to, user in
                let s = user!.assumingMemoryBound(to: OutlineState.self)
                let p = s.pointee.point(to)
                s.pointee.fill.line(p.0, p.1)
                return 0
            },
            conic_to: { control, to, user in
                let s = user!.assumingMemoryBound(to: OutlineState.self)
                let c = s.pointee.point(control)
                let p = s.pointee.point(to)
                s.pointee.fill.quad(c.0, c.1, p.0, p.1)
                return 0
            },
            cubic_to: { c1, c2, to, user in
                let s = user!.assumingMemoryBound(to: OutlineState.self)
                let a = s.pointee.point(c1)
                let b = s.pointee.point(c2)
                let p = s.pointee.point(to)
                s.pointee.fill.cubic(a.0, a.1, b.0, b.1, p.0, p.1)
                return 0
            },
            shift: 0, delta: 0)
        return FT_Outline_Decompose(outline, &funcs, UnsafeMutableRawPointer(state)) == 0
    }
}

/// The mask of a glyph with no outline (a space).
let emptyGlyphMask = CoverageMask(width: 0, height: 0)

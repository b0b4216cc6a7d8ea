/// A glyph run whose glyphs are copied into one mask for the whole line, so a frame composites
/// each line's pixels in full 16-lane vectors instead of a glyph's 9–16 px at a time.
///
/// Why: at signage sizes a glyph is narrower than a vector, so a run composited glyph by glyph
/// blends ~40 % empty lanes and pays a glyph's set-up 3 000 times a frame. Text that stays put
/// (a draw list's, a menu's) is merged once when it is laid out; every frame then composites the
/// merged mask with its colour, clip and blend as before (the coverage is cached, never pixels).
///
/// Same bytes: a glyph goes into the merged mask only if none of its inked pixels (coverage > 0)
/// is inked by an earlier glyph. Such glyphs' inks are disjoint, so copying them into one mask
/// loses nothing, and a pixel's blend depends only on its own coverage (a lane of 0 keeps its
/// pixel). Every other glyph stays a glyph of its own, after the merged mask and in its order.
/// A pixel's blends then come in the run's order: its first inking glyph is merged or not, and
/// every later one overlaps an earlier ink there, so is not merged and follows in order.
///
/// The merged mask spans the run's bounds. A run is left as it is when that mask would take
/// more than `maximumBytes` or more than `maximumSparseness` times the merged glyphs' own mask
/// area (a few glyphs far apart would composite mostly empty vectors).
extension GlyphRun {
    public static let mergeLimitBytes = 4 << 20
    public static let maximumSparseness = 4

    /// This run with its glyphs of disjoint ink merged into one mask (see above), or this run
    /// when fewer than two glyphs would merge or the mask would be too large or too sparse.
    public func mergingInk(maximumBytes: Int = mergeLimitBytes) -> GlyphRun {
        guard glyphs.count > 1 else { return self }
        let width = bounds.x1 - bounds.x0
        let height = bounds.y1 - bounds.y0
        guard ((width + 15) & ~15) * height <= maximumBytes else { return self }
        // First every glyph's ink ORed into one mask (nonzero where inked), noting the glyphs
        // that meet an earlier one's ink. Usually none does, and that mask is the merged one.
        let ink = CoverageMask(width: width, height: height)
        var overlapping: [Int] = []
        var mergedArea = 0
        glyphs.withUnsafeBufferPointer { placed in
            for (index, glyph) in placed.enumerated() {
                if glyph.orInk(into: ink, at: bounds) {
                    overlapping.append(index)
                } else {
                    mergedArea += Int(glyph.width) * Int(glyph.height)
                }
            }
        }
        guard glyphs.count - overlapping.count > 1, width * height <= mergedArea * Self.maximumSparseness else {
            return self
        }
        return merged(ink: overlapping.isEmpty ? ink : mergedInk(leaving: overlapping), leaving: overlapping)
    }

    /// The merged mask of a run `mergingInk` merged (its first mask, holding two or more of its
    /// glyphs), or nil for a run composited glyph by glyph.
    public var lineMask: CoverageMask? { glyphs.count < placedGlyphs ? masks.first : nil }

    /// A mask of the ink of every glyph but those `overlapping` lists (ascending indices).
    private func mergedInk(leaving overlapping: [Int]) -> CoverageMask {
        let mask = CoverageMask(width: bounds.x1 - bounds.x0, height: bounds.y1 - bounds.y0)
        var next = 0
        for (index, glyph) in glyphs.enumerated() {
            if next < overlapping.count && overlapping[next] == index {
                next += 1
            } else {
                _ = glyph.orInk(into: mask, at: bounds)
            }
        }
        return mask
    }

    /// The run of `mask` at the run's bounds, then the glyphs `overlapping` lists, in order.
    private func merged(ink mask: CoverageMask, leaving overlapping: [Int]) -> GlyphRun {
        var run = GlyphRun()
        run.append(mask, x: bounds.x0, y: bounds.y0)
        for index in overlapping { run.append(masks[index], x: Int(glyphs[index].x), y: Int(glyphs[index].y)) }
        run.placedGlyphs = placedGlyphs
        return run
    }
}

extension PlacedGlyph {
    /// ORs this glyph's coverage into `mask`, whose top-left pixel is at `origin`'s, 16 columns
    /// at a time, and says whether any pixel it inks was inked there already. A mask row's
    /// padding is zero, so whole vectors are exact; a vector past the mask's right edge ORs
    /// zeros into the next row's first bytes (or the mask's 16 spare bytes), changing nothing.
    func orInk(into mask: CoverageMask, at origin: ClipRect) -> Bool {
        let target = mask.bytes + (Int(y) - origin.y0) * mask.stride + Int(x) - origin.x0
        var met = SIMD16<UInt8>()
        for row in 0..<Int(height) {
            let source = coverage + row * Int(stride)
            let destination = target + row * mask.stride
            var column = 0
            while column < Int(width) {
                let mine = UnsafeRawPointer(source + column).loadUnaligned(as: SIMD16<UInt8>.self)
                let there = UnsafeRawPointer(destination + column).loadUnaligned(as: SIMD16<UInt8>.self)
                met |= inked(mine) & inked(there)
                UnsafeMutableRawPointer(destination + column).storeBytes(of: mine | there, as: SIMD16<UInt8>.self)
                column += 16
            }
        }
        return met & SIMD16(repeating: 0x80) != SIMD16()
    }
}

/// Bit 7 set in each lane whose byte is not zero: b | −b (for b in 1...127, −b is 129...255).
@inline(__always)
private func inked(_ bytes: SIMD16<UInt8>) -> SIMD16<UInt8> {
    bytes | (SIMD16() &- bytes)
}

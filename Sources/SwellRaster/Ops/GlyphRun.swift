/// Text as the raster module sees it: 8-bit coverage masks placed at whole pixels. Nothing of
/// fonts lives here; SwellText rasterises each glyph once (at a quantised sub-pixel origin) and
/// places the cached mask wherever the glyph appears.

/// An 8-bit coverage mask, round(coverage · 255) per pixel. Rows are `stride` bytes (the width
/// rounded up to 16) and the storage has 16 spare bytes at its end, all zero, so the compositor
/// loads whole 16-lane vectors anywhere inside a row without reading past the allocation.
/// Immutable once its maker has filled it, so it is shared freely between threads.
public final class CoverageMask: @unchecked Sendable {
    public let width: Int
    public let height: Int
    public let stride: Int
    public let bytes: UnsafeMutablePointer<UInt8>

    /// A zeroed mask; width and height ≥ 0.
    public init(width: Int, height: Int) {
        precondition(width >= 0 && height >= 0, "a mask needs a size ≥ 0")
        self.width = width
        self.height = height
        stride = (width + 15) & ~15
        bytes = .allocate(capacity: stride * height + 16)
        bytes.initialize(repeating: 0, count: stride * height + 16)
    }

    deinit { bytes.deallocate() }

    /// The heap bytes this mask holds (what a cache's budget counts).
    public var byteCount: Int { stride * height + 16 }
}

/// One mask placed with its top-left pixel at (x, y): plain values, so a band's loop over the
/// glyphs does no reference counting (the run's `masks` keep the memory alive).
@frozen
public struct PlacedGlyph: Equatable, @unchecked Sendable {
    public let coverage: UnsafePointer<UInt8>
    public let x: Int32
    public let y: Int32
    public let width: Int32
    public let height: Int32
    public let stride: Int32
}

/// Glyph masks composited in order, glyph by glyph (where two glyphs' inked pixels overlap the
/// second is blended over the first, as Cairo does), with the 2-D box of every placed mask. A run
/// of text that stays put is better merged once (`mergingInk()`, InkMerge.swift): one mask for
/// the line, composited in whole vectors, with the same bytes.
public struct GlyphRun: Equatable, Sendable {
    public private(set) var glyphs: [PlacedGlyph] = []
    /// The masks, kept alive for as long as the run (the glyphs point into them).
    public private(set) var masks: [CoverageMask] = []
    /// The pixels the run can touch (empty when it has no glyph).
    public private(set) var bounds = ClipRect(x0: 0, y0: 0, x1: 0, y1: 0)
    /// The glyphs laid out into the run, however many masks hold them (`mergingInk()` puts many
    /// in one).
    public internal(set) var placedGlyphs = 0

    public init() {}

    /// Places `mask` with its top-left pixel at (x, y). Masks of zero area (a space) and
    /// positions beyond ±2^30 are dropped: they draw nothing on any frame.
    public mutating func append(_ mask: CoverageMask, x: Int, y: Int) {
        guard mask.width > 0, mask.height > 0, abs(x) < 1 << 30, abs(y) < 1 << 30 else { return }
        let box = ClipRect(x0: x, y0: y, x1: x + mask.width, y1: y + mask.height)
        bounds =
            glyphs.isEmpty
            ? box
            : ClipRect(
                x0: min(bounds.x0, box.x0), y0: min(bounds.y0, box.y0), x1: max(bounds.x1, box.x1),
                y1: max(bounds.y1, box.y1))
        glyphs.append(
            PlacedGlyph(
                coverage: UnsafePointer(mask.bytes), x: Int32(x), y: Int32(y), width: Int32(mask.width),
                height: Int32(mask.height), stride: Int32(mask.stride)))
        masks.append(mask)
        placedGlyphs += 1
    }

    /// Empties the run but keeps its storage, so text laid out again each frame allocates nothing.
    public mutating func removeAll() {
        glyphs.removeAll(keepingCapacity: true)
        masks.removeAll(keepingCapacity: true)
        placedGlyphs = 0
        bounds = ClipRect(x0: 0, y0: 0, x1: 0, y1: 0)
    }

    public static func == (a: GlyphRun, b: GlyphRun) -> Bool { a.glyphs == b.glyphs }
}

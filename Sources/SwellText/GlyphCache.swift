import SwellRaster

/// A glyph's mask and where its top-left pixel lies from the whole pixel of the pen origin.
struct CachedGlyph {
    let mask: CoverageMask
    let left: Int32
    let top: Int32
}

/// Which mask: the font, glyph, size (its bits) and the origin's quarter-pixel phase in x and y.
struct GlyphKey: Hashable {
    let font: Int32
    let glyph: UInt32
    let size: UInt64
    /// 4 · (x phase) + (y phase), each in 0...3 quarters of a pixel.
    let phase: UInt8
}

/// Glyph masks, least recently used evicted first once their bytes pass `budget`.
///
/// The pen origin is quantised to a quarter pixel in x and in y (round to nearest), so a glyph
/// has at most 16 masks per size; the text op's exact position differs from the drawn one by at
/// most 1/8 px in each axis. A hit moves the entry to the front of an intrusive list (indices,
/// no allocation); a miss rasterises the outline (GlyphRasteriser) and evicts from the back.
/// Masks still placed in a frame's glyph run stay alive after eviction until that run is gone.
public final class GlyphCache {
    /// The cache's limit on mask bytes.
    public let budget: Int
    /// Mask bytes held now.
    public private(set) var bytes = 0
    /// Hits and misses since the cache was made or cleared.
    public private(set) var hits = 0
    public private(set) var misses = 0

    private struct Entry {
        var key: GlyphKey
        var glyph: CachedGlyph
        var newer: Int32
        var older: Int32
    }
    private var entries: [Entry] = []
    private var index: [GlyphKey: Int32] = [:]
    private var free: [Int32] = []
    private var newest: Int32 = -1
    private var oldest: Int32 = -1
    private let rasteriser = GlyphRasteriser()

    /// 32 MiB by default: text-page.json's ~1300 distinct masks take about 1.3 MiB.
    public init(budget: Int = 32 << 20) {
        precondition(budget > 0)
        self.budget = budget
    }

    public var count: Int { index.count }

    /// Drops every mask (a cold start).
    public func removeAll() {
        entries.removeAll()
        index.removeAll()
        free.removeAll()
        newest = -1
        oldest = -1
        bytes = 0
        hits = 0
        misses = 0
    }

    func glyph(_ font: Font, _ glyph: UInt32, size: Double, phaseX: Int, phaseY: Int) -> CachedGlyph {
        let key = GlyphKey(font: font.id, glyph: glyph, size: size.bitPattern, phase: UInt8(phaseX * 4 + phaseY))
        if let slot = index[key] {
            hits += 1
            touch(slot)
            return entries[Int(slot)].glyph
        }
        misses += 1
        let made = rasteriser.rasterise(
            font, glyph: glyph, size: size, fx: Double(phaseX) / 4, fy: Double(phaseY) / 4)
        insert(key, made)
        return made
    }

    private func insert(_ key: GlyphKey, _ glyph: CachedGlyph) {
        let cost = glyph.mask.byteCount + 64
        while bytes + cost > budget && oldest >= 0 { evict(oldest) }
        let entry = Entry(key: key, glyph: glyph, newer: -1, older: newest)
        let slot: Int32
        if let reused = free.popLast() {
            slot = reused
            entries[Int(slot)] = entry
        } else {
            slot = Int32(entries.count)
            entries.append(entry)
        }
        if newest >= 0 { entries[Int(newest)].newer = slot }
        newest = slot
        if oldest < 0 { oldest = slot }
        index[key] = slot
        bytes += cost
    }

    private func unlink(_ slot: Int32) {
        let e = entries[Int(slot)]
        if e.newer >= 0 { entries[Int(e.newer)].older = e.older } else { newest = e.older }
        if e.older >= 0 { entries[Int(e.older)].newer = e.newer } else { oldest = e.newer }
    }

    private func touch(_ slot: Int32) {
        guard slot != newest else { return }
        unlink(slot)
        entries[Int(slot)].older = newest
        entries[Int(slot)].newer = -1
        if newest >= 0 { entries[Int(newest)].newer = slot }
        newest = slot
        if oldest < 0 { oldest = slot }
    }

    private func evict(_ slot: Int32) {
        unlink(slot)
        let e = entries[Int(slot)]
        index[e.key] = nil
        bytes -= e.glyph.mask.byteCount + 64
        entries[Int(slot)].glyph = CachedGlyph(mask: emptyMask, left: 0, top: 0)
        free.append(slot)
    }
}

private let emptyMask = CoverageMask(width: 0, height: 0)

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

    /// One word into the hasher instead of four (the synthesised hash fed each field: 3 % of
    /// a cold frame); equality still compares every field.
    func hash(into hasher: inout Hasher) {
        hasher.combine(size &+ UInt64(glyph) << 20 &+ UInt64(UInt32(bitPattern: font)) << 44 &+ UInt64(phase) << 60)
    }
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
    public var bytes: Int { state.pointee.bytes }
    /// Hits and misses since the cache was made or cleared.
    public var hits: Int { state.pointee.hits }
    public var misses: Int { state.pointee.misses }

    private struct Entry {
        var key: GlyphKey
        var glyph: CachedGlyph
        var newer: Int32
        var older: Int32
    }
    /// Everything that changes, behind a pointer: every access to a class's stored `var` pays a
    /// dynamic exclusivity check (swift_beginAccess, a thread-local access set), about 5 % of a
    /// cold text-page frame in `touch` and `unlink` (docs/speed.md); memory behind a `let`
    /// pointer is not checked.
    private struct State {
        var entries: [Entry] = []
        var index: [GlyphKey: Int32] = [:]
        var free: [Int32] = []
        var newest: Int32 = -1
        var oldest: Int32 = -1
        var bytes = 0
        var hits = 0
        var misses = 0
    }
    private let state = UnsafeMutablePointer<State>.allocate(capacity: 1)
    private let rasteriser = GlyphRasteriser()

    /// 32 MiB by default: text-page.json's ~1300 distinct masks take about 1.3 MiB.
    public init(budget: Int = 32 << 20) {
        precondition(budget > 0)
        self.budget = budget
        state.initialize(to: State())
    }

    deinit {
        state.deinitialize(count: 1)
        state.deallocate()
    }

    public var count: Int { state.pointee.index.count }

    /// Drops every mask (a cold start). The index and entry storage keep their capacity, as a
    /// cache that has served a page has: refilling it then rehashes nothing (a fresh dictionary
    /// grew and rehashed nine times on text-page.json's 486 masks, about 1 % of a cold frame).
    public func removeAll() {
        let s = state
        s.pointee.entries.removeAll(keepingCapacity: true)
        s.pointee.index.removeAll(keepingCapacity: true)
        s.pointee.free.removeAll(keepingCapacity: true)
        s.pointee.newest = -1
        s.pointee.oldest = -1
        s.pointee.bytes = 0
        s.pointee.hits = 0
        s.pointee.misses = 0
    }

    func glyph(_ font: Font, _ glyph: UInt32, size: Double, phaseX: Int, phaseY: Int) -> CachedGlyph {
        let key = GlyphKey(font: font.id, glyph: glyph, size: size.bitPattern, phase: UInt8(phaseX * 4 + phaseY))
        if let slot = state.pointee.index[key] {
            state.pointee.hits += 1
            touch(slot)
            return state.pointee.entries[Int(slot)].glyph
        }
        state.pointee.misses += 1
        let made = rasteriser.rasterise(
            font, glyph: glyph, size: size, fx: Double(phaseX) / 4, fy: Double(phaseY) / 4)
        insert(key, made)
        return made
    }

    private func insert(_ key: GlyphKey, _ glyph: CachedGlyph) {
        let cost = glyph.mask.byteCount + 64
        while state.pointee.bytes + cost > budget && state.pointee.oldest >= 0 { evict(state.pointee.oldest) }
        let s = state
        let entry = Entry(key: key, glyph: glyph, newer: -1, older: s.pointee.newest)
        let slot: Int32
        if let reused = s.pointee.free.popLast() {
            slot = reused
            s.pointee.entries[Int(slot)] = entry
        } else {
            slot = Int32(s.pointee.entries.count)
            s.pointee.entries.append(entry)
        }
        if s.pointee.newest >= 0 { s.pointee.entries[Int(s.pointee.newest)].newer = slot }
        s.pointee.newest = slot
        if s.pointee.oldest < 0 { s.pointee.oldest = slot }
        s.pointee.index[key] = slot
        s.pointee.bytes += cost
    }

    private func unlink(_ slot: Int32) {
        let s = state
        let newer = s.pointee.entries[Int(slot)].newer
        let older = s.pointee.entries[Int(slot)].older
        if newer >= 0 { s.pointee.entries[Int(newer)].older = older } else { s.pointee.newest = older }
        if older >= 0 { s.pointee.entries[Int(older)].newer = newer } else { s.pointee.oldest = newer }
    }

    private func touch(_ slot: Int32) {
        let s = state
        guard slot != s.pointee.newest else { return }
        unlink(slot)
        s.pointee.entries[Int(slot)].older = s.pointee.newest
        s.pointee.entries[Int(slot)].newer = -1
        if s.pointee.newest >= 0 { s.pointee.entries[Int(s.pointee.newest)].newer = slot }
        s.pointee.newest = slot
        if s.pointee.oldest < 0 { s.pointee.oldest = slot }
    }

    private func evict(_ slot: Int32) {
        unlink(slot)
        let s = state
        let key = s.pointee.entries[Int(slot)].key
        s.pointee.index[key] = nil
        s.pointee.bytes -= s.pointee.entries[Int(slot)].glyph.mask.byteCount + 64
        s.pointee.entries[Int(slot)].glyph = CachedGlyph(mask: emptyMask, left: 0, top: 0)
        s.pointee.free.append(slot)
    }
}

private let emptyMask = CoverageMask(width: 0, height: 0)

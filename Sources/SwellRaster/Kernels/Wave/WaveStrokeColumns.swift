/// A wave stroke's columns computed once per frame and read by every band that draws it.
///
/// Why: a stroke of the smooth paths (fast or exact offsets, one sub-column per column) computes
/// per 16-column group its cross-sections (sines), at the ends 35 of them cut at the normals, and
/// the group's chords — whatever rows the band holds. The waveform's ten strokes each cross both
/// bands of a two-thread frame, so every group was computed twice, and in the band that held
/// none of its rows, for nothing (two bands drawn in sequence on one thread cost ~11 % more CPU
/// than one band, the waveform at 1080p).
///
/// What is shared, per stroke: lo and hi at every whole column (the cross-section samples the
/// bands load their chords' edges from), each cap group's 35 edges after the end cut, and each
/// group's chord bounds, so a band skips the groups none of whose rows it holds without
/// computing anything. A band rebuilds the chords of the groups it draws from those edges with
/// the same code as `strokeSmoothBand` (cheap: a few vector operations), so the pixels are the
/// same bytes. The table is filled before the bands, in items of `itemColumns` taken by every
/// thread from a counter; its memory is kept from frame to frame.
final class StrokeColumnTable {
    /// Columns per fill item: a few items per stroke, so two threads finish the phase together.
    static let itemColumns = 512

    private var strokes = GrowingBuffer<SharedStroke>()
    private var items = GrowingBuffer<StrokeColumnItem>()
    /// Per command of the frame: its index in `strokes`, or -1.
    private var byCommand = GrowingBuffer<Int32>()
    private var floats = GrowingBuffer<Float>()
    private var slots = GrowingBuffer<Int32>()
    private var vectors = GrowingBuffer<LaneFloats>()

    deinit {
        strokes.free()
        items.free()
        byCommand.free()
        floats.free()
        slots.free()
        vectors.free()
    }

    /// Chooses the strokes to share: those drawn where they are (no origin shift), on a smooth
    /// path with one sub-column, whose rectangle meets two bands or more. Returns how many, and
    /// how many fill items they make.
    func plan(
        _ commands: UnsafeBufferPointer<FrameCommand>, rects: UnsafeBufferPointer<ClipRect>,
        bands: UnsafeBufferPointer<ClipRect>, surface: PixelSurface
    ) -> (strokes: Int, items: Int) {
        var strokeCount = 0
        var itemCount = 0
        var floatCount = 0
        var slotCount = 0
        var vectorCount = 0
        byCommand.reserve(commands.count)
        for index in 0..<commands.count {
            byCommand[index] = -1
            guard case .draw(let command) = commands[index], case .waveStroke(let stroke) = command.shape,
                command.origin == .zero, command.color.a > 0, meetsSeveral(rects[index], bands)
            else { continue }
            var clip = surface.bounds
            if let own = command.clip { clip = clip.intersection(own) }
            guard let extent = StrokeExtent(stroke, surface: surface, clip: clip),
                let exact = extent.geometry.sharedPath
            else { continue }
            let firstGroup = extent.columns.lowerBound - extent.columns.lowerBound % laneCount
            let groups = (extent.columns.upperBound - firstGroup + laneCount - 1) / laneCount
            var caps = 0
            for group in 0..<groups where extent.geometry.isNearEnd(groupX: firstGroup + group * laneCount) {
                caps += 1
            }
            let shared = SharedStroke(
                extent: extent, exact: exact, firstGroup: firstGroup, groups: groups, samples: floatCount,
                bounds: floatCount + 2 * (groups + 2) * laneCount, slots: slotCount, capEdges: vectorCount)
            strokes.reserve(strokeCount + 1)
            strokes[strokeCount] = shared
            byCommand[index] = Int32(strokeCount)
            var start = firstGroup
            while start < extent.columns.upperBound {
                let end = min(extent.columns.upperBound, start + StrokeColumnTable.itemColumns)
                items.reserve(itemCount + 1)
                items[itemCount] = StrokeColumnItem(stroke: strokeCount, columns: start..<end)
                itemCount += 1
                start = end
            }
            strokeCount += 1
            floatCount = shared.bounds + 4 * groups
            slotCount += groups
            vectorCount += caps * 2 * capEdgeCount
        }
        floats.reserve(floatCount)
        slots.reserve(slotCount)
        vectors.reserve(vectorCount)
        return (strokeCount, itemCount)
    }

    /// The table for the threads, valid until the next `plan`.
    var view: View {
        View(
            strokes: strokes.base, items: items.base, byCommand: byCommand.base, floats: floats.base,
            slots: slots.base, vectors: vectors.base)
    }

    /// Edges per boundary of a cap group: k + 3 at the ends' k.
    static let capEdges = WaveSampler.maximumSubColumns + 3
    private var capEdgeCount: Int { StrokeColumnTable.capEdges }

    private func meetsSeveral(_ rect: ClipRect, _ bands: UnsafeBufferPointer<ClipRect>) -> Bool {
        var met = 0
        for band in bands where !band.intersection(rect).isEmpty {
            met += 1
            if met > 1 { return true }
        }
        return false
    }

    struct View: @unchecked Sendable {
        let strokes: UnsafeMutablePointer<SharedStroke>
        let items: UnsafeMutablePointer<StrokeColumnItem>
        let byCommand: UnsafeMutablePointer<Int32>
        let floats: UnsafeMutablePointer<Float>
        let slots: UnsafeMutablePointer<Int32>
        let vectors: UnsafeMutablePointer<LaneFloats>

        /// The shared columns of command `index` (nil: none this frame).
        func stroke(_ index: Int) -> SharedStrokeColumns? {
            let entry = byCommand[index]
            return entry >= 0 ? columns(of: Int(entry)) : nil
        }

        /// Computes item `index`'s columns (any thread; items write disjoint memory).
        func fill(item index: Int, surface: PixelSurface) {
            let item = items[index]
            columns(of: item.stroke).fill(item.columns, surface: surface)
        }

        private func columns(of entry: Int) -> SharedStrokeColumns {
            let shared = strokes[entry]
            return SharedStrokeColumns(
                shared: shared, samples: floats + shared.samples, bounds: floats + shared.bounds,
                slots: slots + shared.slots, capEdges: vectors + shared.capEdges)
        }
    }
}

/// Where one stroke's columns sit in the table (offsets in its float, slot and vector memory).
struct SharedStroke {
    let extent: StrokeExtent
    let exact: Bool
    /// The first group's x (a multiple of 16) and the number of groups.
    let firstGroup: Int
    let groups: Int
    /// lo at x = firstGroup − 16 … (groups + 2 groups of 16 floats), then hi the same.
    let samples: Int
    /// Per group: the lowest and highest point of lo's chords, then of hi's.
    let bounds: Int
    /// Per group: its cap slot, or -1 for a group away from the ends.
    let slots: Int
    /// Cap slots: `StrokeColumnTable.capEdges` vectors of lo, then as many of hi.
    let capEdges: Int
}

/// Columns `columns` (from a multiple of 16) of stroke `stroke`: one fill item.
struct StrokeColumnItem {
    let stroke: Int
    let columns: Range<Int>
}

/// One stroke's shared columns, addressed.
struct SharedStrokeColumns {
    let shared: SharedStroke
    let samples: UnsafeMutablePointer<Float>
    let bounds: UnsafeMutablePointer<Float>
    let slots: UnsafeMutablePointer<Int32>
    let capEdges: UnsafeMutablePointer<LaneFloats>

    private var sampleCount: Int { (shared.groups + 2) * laneCount }

    /// Fills the samples, cap edges and bounds of the groups in `columns` (the samples of the
    /// stroke's outer neighbour groups too, by the first and last item), as `strokeSmoothBand`
    /// computes them for a chunk.
    func fill(_ columns: Range<Int>, surface: PixelSurface) {
        let extent = shared.extent
        let band = StrokeBand(
            surface, extent.geometry, SourceColor(Color(r: 0, g: 0, b: 0, a: 1)), columns: columns, rows: extent.rows,
            origin: extent.origin)
        let sampler = band.sampler
        let exact = shared.exact
        let k = WaveSampler.maximumSubColumns
        withWaveScratch { lanes, local in
            let scratch = StrokeChordScratch(lanes)
            let localHigh = local + waveChunkSamples
            var sampleX = columns.lowerBound - laneCount
            var index = 0
            while sampleX < columns.upperBound + laneCount {
                let (lo, hi) = sampler.crossSection(groupX: sampleX, offset: 0, exact: exact)
                UnsafeMutableRawPointer(local + index).storeBytes(of: lo, as: LaneFloats.self)
                UnsafeMutableRawPointer(localHigh + index).storeBytes(of: hi, as: LaneFloats.self)
                sampleX += laneCount
                index += laneCount
            }
            copySamples(local, localHigh, columns)
            var groupX = columns.lowerBound
            while groupX < columns.upperBound {
                let group = (groupX - shared.firstGroup) / laneCount
                let nearEnd = band.isNearEnd(groupX: groupX)
                var low = scratch.lowEdges
                var high = scratch.highEdges
                if nearEnd {
                    let slot = capSlot(before: group)
                    slots[group] = Int32(slot)
                    low = capEdges + slot * 2 * StrokeColumnTable.capEdges
                    high = low + StrokeColumnTable.capEdges
                    for edge in -1...(k + 1) {
                        let offset = Double(edge) / Double(k)
                        var (lo, hi) = sampler.crossSection(groupX: groupX, offset: offset, exact: exact)
                        band.ends.apply(x: laneOffsets + Float(Double(groupX) + offset), low: &lo, high: &hi)
                        low[edge + 1] = lo
                        high[edge + 1] = hi
                    }
                } else {
                    slots[group] = -1
                    loadColumnEdges(local, groupX: groupX, chunkStart: columns.lowerBound, into: low)
                    loadColumnEdges(localHigh, groupX: groupX, chunkStart: columns.lowerBound, into: high)
                }
                let subColumns = nearEnd ? k : 1
                let (lowBounds, highBounds) = laneBounds(
                    buildChordLanes(
                        edges: low, subColumns: subColumns, corrected: !nearEnd, starts: scratch.lowStarts,
                        slopes: scratch.lowSlopes),
                    buildChordLanes(
                        edges: high, subColumns: subColumns, corrected: !nearEnd, starts: scratch.highStarts,
                        slopes: scratch.highSlopes))
                let out = bounds + 4 * group
                out[0] = lowBounds.low
                out[1] = lowBounds.high
                out[2] = highBounds.low
                out[3] = highBounds.high
                groupX += laneCount
            }
        }
    }

    /// The cap slot of group `group`: how many groups before it are near an end (computed from
    /// the geometry, so items filled in any order agree).
    private func capSlot(before group: Int) -> Int {
        let geometry = shared.extent.geometry
        var slot = 0
        for earlier in 0..<group where geometry.isNearEnd(groupX: shared.firstGroup + earlier * laneCount) {
            slot += 1
        }
        return slot
    }

    /// Copies this item's groups' samples (and the outer neighbour groups' at the stroke's
    /// ends) from the item's chunk scratch, which starts at x = columns.lowerBound − 16.
    private func copySamples(
        _ low: UnsafeMutablePointer<Float>, _ high: UnsafeMutablePointer<Float>, _ columns: Range<Int>
    ) {
        let isFirst = columns.lowerBound == shared.firstGroup
        let isLast = columns.upperBound == shared.extent.columns.upperBound
        let endGroup = (columns.upperBound + laneCount - 1) / laneCount * laneCount
        let from = isFirst ? columns.lowerBound - laneCount : columns.lowerBound
        let to = isLast ? endGroup + laneCount : endGroup
        let source = from - (columns.lowerBound - laneCount)
        let target = from - (shared.firstGroup - laneCount)
        (samples + target).update(from: low + source, count: to - from)
        (samples + sampleCount + target).update(from: high + source, count: to - from)
    }

    /// Draws the stroke's pixels in `band` (its clip's columns within the shared ones): only the
    /// groups whose chords reach the band's rows, from the shared edges.
    func draw(_ band: StrokeBand) {
        let k = WaveSampler.maximumSubColumns
        withWaveScratch { lanes, _ in
            let scratch = StrokeChordScratch(lanes)
            var groupX = band.firstGroup
            while groupX < band.columns.upperBound {
                let group = (groupX - shared.firstGroup) / laneCount
                let out = bounds + 4 * group
                let (top, bottom) = strokeGroupRows(
                    ChordBounds(low: out[0], high: out[1]), ChordBounds(low: out[2], high: out[3]),
                    firstRow: band.firstRow, endRow: band.endRow)
                if top < bottom {
                    let slot = Int(slots[group])
                    if slot >= 0 {
                        // drawStrokeGroup overwrites its edges: copy the shared ones.
                        let low = capEdges + slot * 2 * StrokeColumnTable.capEdges
                        scratch.lowEdges.update(from: low, count: k + 3)
                        scratch.highEdges.update(from: low + StrokeColumnTable.capEdges, count: k + 3)
                    } else {
                        loadColumnEdges(samples, groupX: groupX, chunkStart: shared.firstGroup, into: scratch.lowEdges)
                        loadColumnEdges(
                            samples + sampleCount, groupX: groupX, chunkStart: shared.firstGroup,
                            into: scratch.highEdges)
                    }
                    drawStrokeGroup(band, scratch, groupX: groupX, subColumns: slot >= 0 ? k : 1, corrected: slot < 0)
                }
                groupX += laneCount
            }
        }
    }
}

/// Strokes `shape` within `clip` as `strokeWave` does, from columns shared by the frame's bands.
func strokeWave(
    _ surface: PixelSurface, _ shape: WaveStroke, _ source: SourceColor, clip: ClipRect, shared: SharedStrokeColumns
) {
    guard source.alpha > 0, let extent = StrokeExtent(shape, surface: surface, clip: clip) else { return }
    let band = StrokeBand(
        surface, extent.geometry, source, columns: extent.columns, rows: extent.rows, origin: extent.origin)
    shared.draw(band)
}

extension WaveStrokeGeometry {
    /// Whether a frame can share this stroke's columns (`StrokeColumnTable`), and if so whether
    /// its cross-sections are the exact offsets: the fast and exact-offset paths with one
    /// sub-column per column away from the ends (nil otherwise).
    var sharedPath: Bool? {
        switch methodAndDiscAngles.method {
        case .fast: return stretchedSubColumns == 1 ? false : nil
        case .exactOffsets: return offsetSubColumns == 1 ? true : nil
        default: return nil
        }
    }
}

/// Memory that grows to the most asked for and is kept (no allocation once a frame's needs
/// have been met).
struct GrowingBuffer<Element> {
    private(set) var base = UnsafeMutablePointer<Element>.allocate(capacity: 1)
    private var capacity = 1

    /// Makes room for `count` elements; the contents are lost when it grows.
    mutating func reserve(_ count: Int) {
        guard count > capacity else { return }
        let grown = max(count, 2 * capacity)
        let copy = UnsafeMutablePointer<Element>.allocate(capacity: grown)
        // Elements are plain values (no references): a bitwise copy keeps what was written.
        UnsafeMutableRawPointer(copy).copyMemory(
            from: UnsafeRawPointer(base), byteCount: capacity * MemoryLayout<Element>.stride)
        base.deallocate()
        base = copy
        capacity = grown
    }

    subscript(index: Int) -> Element {
        get { base[index] }
        nonmutating set { base[index] = newValue }
    }

    func free() { base.deallocate() }
}

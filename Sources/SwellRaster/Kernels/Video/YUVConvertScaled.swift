/// YUV 4:2:0 to XRGB8888 for a picture shown larger or smaller than its size, in one pass over the
/// output: each source row is filtered across once into a row of floats (kept while two output
/// rows need it), and each output row mixes two such rows per plane, converts and stores.

/// Converts the `crop` part of the picture (picture pixels) into the `place` rectangle of
/// `surface` (surface pixels), stretched to fill it, as opaque pixels 0xFF_RR_GG_BB.
///
/// Filter: bilinear on luma and on chroma, each plane sampled at the output pixel's centre, then
/// converted (YUVMatrix). Along each axis output pixel i of `place` (0-based) samples luma at
/// p = crop.x0 + (i + 0.5)·(crop width / place width) − 0.5 in pixel-centre coordinates, and chroma
/// at (p − 0.5)/2 in chroma-sample coordinates (each chroma sample sited at the centre of its 2×2
/// luma block, libswscale's default for yuv420p); a position is clamped to the samples under the
/// crop (nothing outside it bleeds in) and mixes its two neighbours by distance. Shrinking below
/// half size skips source pixels (no area averaging). Pixels of `place` outside the surface are
/// not written, but still count in the mapping.
///
/// The per-column taps and six rows of floats need ~40 bytes per output column: in `scratch`,
/// kept by the caller from frame to frame, nothing is allocated; without it they are a
/// `withUnsafeTemporaryAllocation`, which on Linux is on the heap beyond 1 KiB (seen in gdb).
public func convertYUV420Scaled(
    _ planes: YUVPlanes, _ matrix: YUVMatrix, crop: ClipRect, into surface: PixelSurface, place: ClipRect,
    scratch: YUVScaleScratch? = nil
) {
    let source = crop.intersection(planes.bounds)
    let visible = place.intersection(surface.bounds)
    guard !source.isEmpty, !place.isEmpty, !visible.isEmpty else { return }
    let columns = visible.x1 - visible.x0
    // Row buffers and tap tables are padded to whole vectors; the padding repeats the last column.
    let padded = (columns + laneCount - 1) & ~(laneCount - 1)
    let scaleX = Double(source.x1 - source.x0) / Double(place.x1 - place.x0)
    let scaleY = Double(source.y1 - source.y0) / Double(place.y1 - place.y0)
    let lumaAxisX = SampleAxis(luma: source.x0, source.x1, scale: scaleX)
    let chromaAxisX = SampleAxis(chroma: source.x0, source.x1, scale: scaleX)
    let lumaAxisY = SampleAxis(luma: source.y0, source.y1, scale: scaleY)
    let chromaAxisY = SampleAxis(chroma: source.y0, source.y1, scale: scaleY)

    let byteCount = padded * 10 * 4
    if let scratch {
        convert(scratch.memory(byteCount))
    } else {
        withUnsafeTemporaryAllocation(byteCount: byteCount, alignment: 64) { convert($0.baseAddress!) }
    }

    func convert(_ memory: UnsafeMutableRawPointer) {
        let floats = memory.bindMemory(to: Float.self, capacity: padded * 10)
        let lumaRows = (floats, floats + padded)
        let uRows = (floats + 2 * padded, floats + 3 * padded)
        let vRows = (floats + 4 * padded, floats + 5 * padded)
        let lumaTaps = ColumnTaps(
            first: (memory + padded * 6 * 4).bindMemory(to: Int32.self, capacity: padded),
            weight: floats + 7 * padded, count: padded)
        let chromaTaps = ColumnTaps(
            first: (memory + padded * 8 * 4).bindMemory(to: Int32.self, capacity: padded),
            weight: floats + 9 * padded, count: padded)
        let skipped = visible.x0 - place.x0
        lumaTaps.fill(lumaAxisX, outputs: skipped..<skipped + columns)
        chromaTaps.fill(chromaAxisX, outputs: skipped..<skipped + columns)

        var lumaSlots = ParitySlots()
        var chromaSlots = ParitySlots()
        for y in visible.y0..<visible.y1 {
            let lumaTap = lumaAxisY.tap(y - place.y0)
            let chromaTap = chromaAxisY.tap(y - place.y0)
            // A source row goes into the slot of its parity: the two rows an output row mixes are
            // always one even and one odd (or the same row), and rows only move down.
            for row in lumaTap.first...lumaTap.first + lumaTap.step where lumaSlots.claim(row) {
                lumaTaps.filter(
                    planes.y + row * planes.yStride, lumaAxisX, into: row & 1 == 0 ? lumaRows.0 : lumaRows.1)
            }
            for row in chromaTap.first...chromaTap.first + chromaTap.step where chromaSlots.claim(row) {
                let even = row & 1 == 0
                chromaTaps.filter(planes.u + row * planes.uStride, chromaAxisX, into: even ? uRows.0 : uRows.1)
                chromaTaps.filter(planes.v + row * planes.vStride, chromaAxisX, into: even ? vRows.0 : vRows.1)
            }
            @inline(__always) func pick(
                _ rows: (UnsafeMutablePointer<Float>, UnsafeMutablePointer<Float>), _ row: Int
            ) -> UnsafeMutablePointer<Float> { row & 1 == 0 ? rows.0 : rows.1 }
            mixRowsAndConvert(
                luma: pick(lumaRows, lumaTap.first), pick(lumaRows, lumaTap.first + lumaTap.step),
                LaneFloats(repeating: lumaTap.weight),
                u: pick(uRows, chromaTap.first), pick(uRows, chromaTap.first + chromaTap.step),
                v: pick(vRows, chromaTap.first), pick(vRows, chromaTap.first + chromaTap.step),
                LaneFloats(repeating: chromaTap.weight), matrix,
                into: surface.row(y) + visible.x0, count: columns)
        }
    }
}

/// Memory for `convertYUV420Scaled`, kept by the caller (one per video element and thread) so a
/// frame allocates nothing; it grows to the widest placement it has served.
public final class YUVScaleScratch {
    private var base: UnsafeMutableRawPointer?
    private var capacity = 0

    public init() {}

    deinit { base?.deallocate() }

    func memory(_ byteCount: Int) -> UnsafeMutableRawPointer {
        if let base, byteCount <= capacity { return base }
        base?.deallocate()
        let grown = UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: 64)
        base = grown
        capacity = byteCount
        return grown
    }
}

/// Where the outputs along one axis sample one plane: output i at origin + (i + 0.5)·step, clamped
/// to samples low...high.
struct SampleAxis {
    let origin: Double
    let step: Double
    let low: Int
    let high: Int

    /// Luma: p = start + (i + 0.5)·scale − 0.5, over the crop's pixels start..<end.
    init(luma start: Int, _ end: Int, scale: Double) {
        origin = Double(start) - 0.5
        step = scale
        low = start
        high = end - 1
    }

    /// Chroma: (p − 0.5)/2 for the luma position p, over the chroma samples under start..<end.
    init(chroma start: Int, _ end: Int, scale: Double) {
        origin = (Double(start) - 1) / 2
        step = scale / 2
        low = start / 2
        high = (end - 1) / 2
    }

    /// Output i's two samples, `first` and `first + step` (step 0 where the axis has one sample),
    /// and the second one's weight.
    @inline(__always)
    func tap(_ i: Int) -> (first: Int, step: Int, weight: Float) {
        guard high > low else { return (low, 0, 0) }
        let position = min(max(origin + (Double(i) + 0.5) * step, Double(low)), Double(high))
        // position ≥ low ≥ 0, so truncation is floor; at the last sample mix towards it fully.
        let first = min(Int(position), high - 1)
        return (first, 1, Float(position - Double(first)))
    }
}

/// One plane's taps for each output column: samples `first` and `first + 1` of a source row
/// mixed by `weight` (the second sample's share). Padded to `count`, a multiple of `laneCount`.
struct ColumnTaps {
    let first: UnsafeMutablePointer<Int32>
    let weight: UnsafeMutablePointer<Float>
    let count: Int

    func fill(_ axis: SampleAxis, outputs: Range<Int>) {
        for i in 0..<count {
            let tap = axis.tap(outputs.lowerBound + min(i, outputs.count - 1))
            first[i] = Int32(tap.first)
            weight[i] = tap.weight
        }
    }

    /// One source row filtered across into `count` floats (byte values, not yet converted). The
    /// two samples of a tap are adjacent, so one 16-bit load fetches both; the sixteen loads of a
    /// vector are scalar (there is no gather to ask the compiler for), the mixing is not.
    @inline(__always)
    func filter(_ row: UnsafePointer<UInt8>, _ axis: SampleAxis, into out: UnsafeMutablePointer<Float>) {
        guard axis.high > axis.low else {
            // One sample across: a 16-bit load would read past it.
            out.update(repeating: Float(row[axis.low]), count: count)
            return
        }
        let bytes = UnsafeRawPointer(row)
        var i = 0
        while i < count {
            var pairs = PixelVector()
            for lane in 0..<laneCount {
                pairs[lane] = UInt32(bytes.loadUnaligned(fromByteOffset: Int(first[i &+ lane]), as: UInt16.self))
            }
            let left = byteAsFloat(pairs & PixelVector(repeating: 0xFF))
            let right = byteAsFloat(pairs &>> 8)
            let share = UnsafeRawPointer(weight + i).loadUnaligned(as: LaneFloats.self)
            UnsafeMutableRawPointer(out + i).storeBytes(of: left + (right - left) * share, as: LaneFloats.self)
            i &+= laneCount
        }
    }
}

/// Which source row each of two row buffers holds: rows of even index in one, odd in the other.
struct ParitySlots {
    var even = -1
    var odd = -1

    /// True when `row` is not in its slot yet (the caller fills the slot), and notes it is now.
    @inline(__always)
    mutating func claim(_ row: Int) -> Bool {
        if row & 1 == 0 {
            defer { even = row }
            return even != row
        }
        defer { odd = row }
        return odd != row
    }
}

/// Mixes two filtered rows of each plane down (bilinear's vertical half), converts and stores
/// `count` pixels; the last partial vector is stored lane by lane.
/// Not inlined into the row loop: there, its conversion was left out of line.
@inline(never)
private func mixRowsAndConvert(
    luma upper: UnsafeMutablePointer<Float>, _ lower: UnsafeMutablePointer<Float>, _ lumaShare: LaneFloats,
    u uUpper: UnsafeMutablePointer<Float>, _ uLower: UnsafeMutablePointer<Float>,
    v vUpper: UnsafeMutablePointer<Float>, _ vLower: UnsafeMutablePointer<Float>, _ chromaShare: LaneFloats,
    _ m: YUVMatrix, into out: UnsafeMutablePointer<UInt32>, count: Int
) {
    @inline(__always) func mixed(
        _ a: UnsafeMutablePointer<Float>, _ b: UnsafeMutablePointer<Float>, _ i: Int, _ share: LaneFloats
    ) -> LaneFloats {
        let top = UnsafeRawPointer(a + i).loadUnaligned(as: LaneFloats.self)
        let bottom = UnsafeRawPointer(b + i).loadUnaligned(as: LaneFloats.self)
        return top + (bottom - top) * share
    }
    var i = 0
    while i < count {
        let pixels = convertedLanes(
            luma: mixed(upper, lower, i, lumaShare), u: mixed(uUpper, uLower, i, chromaShare),
            v: mixed(vUpper, vLower, i, chromaShare), m)
        if i &+ laneCount <= count {
            UnsafeMutableRawPointer(out + i).storeBytes(of: pixels, as: PixelVector.self)
        } else {
            for lane in 0..<count - i { out[i + lane] = pixels[lane] }
        }
        i &+= laneCount
    }
}

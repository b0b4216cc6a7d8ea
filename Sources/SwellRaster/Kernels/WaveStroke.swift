// Anti-aliased wave stroke: the points within width/2 of the curve
// y = g(x) = baseline + e(x)·amplitude·sin(2π·x/wavelength + phase), 0 ≤ x ≤ length, where
// e = 1 (`none`) or 1 − ((x − L/2)/(L/2))² (`parabola`).
//
// - The width is measured along the curve's normals, so the ends are butt caps cut by the
//   normals at x = 0 and x = length (`WaveStrokeEnds`), as bench-data/README.md defines it,
//   except where the stroke folds within its width of an end (zig-zags shorter than the
//   width: `WaveStrokeGeometry.hasButtEnds`), whose ends stay round.
// - Every vertical line meets the stroke in one interval [lo(x), hi(x)], so a pixel's coverage
//   is fill(below lo) − fill(below hi), computed with the same chord integrals as `fillWave`,
//   per group of 16 columns (`drawStrokeGroup`). The methods differ only in how they find lo and
//   hi at the sub-column edges; each has its own function, the cheapest accurate one is chosen
//   per stroke (`WaveStrokeGeometry.methodAndDiscAngles`, never by the clip):
//   * fast (`strokeFastBand`; half width · curvature · (1 + slope²) ≤ 0.02, the bench lists'
//     strokes by a margin of ~3x): the exact cross-section of a straight line plus its
//     second-order curvature term, in SIMD; ends by `WaveStrokeEnds` with 32 sub-columns,
//     since the cut at the normals leaves kinks in lo/hi that chords follow poorly;
//   * exact offsets (`strokeExactOffsetBand`; half width · curvature ≤ ½, slope ≤ 8): the offset
//     curves solved by Newton's method in SIMD (`WaveStrokeOffset`); caps as in the fast path,
//     with 32 sub-columns;
//   * sampled discs (`strokeSampledDiscBand`; offset curves that fold): the discs' highest and
//     lowest points sampled over the disc angle and refined in SIMD (`WaveStrokeDiscs`), caps
//     included; ≥ 4 sub-columns, 32 at the caps;
//   * robust (`strokeRobustBand`; zig-zags needing > 128 disc samples): the capsule envelope of
//     a fine polyline (`WaveStrokeEnvelope`, scalar Double), ≥ 8 sub-columns, 32 at the caps.
// - Degenerate input draws nothing: any non-finite parameter, |wavelength| < 1e-6 px (zero
//   included), width ≤ 0 or length ≤ 0. |amplitude| is limited to 1e6 px, width to 2e6 px.
// - Accuracy (WaveStrokeAccuracyTests, against 256 sub-rows of exact capsule-union intervals
//   cut at the end normals):
//   ≤ 0.017 on any pixel and ≤ 0.0014 mean over edge pixels, on every path.
// Now: the waveform scene at lineWidth 20 (exact offsets) 0.67 ms a frame; the bench lists'
// strokes are timed with the fills (WaveFill.swift). Each path's history: docs/speed.md.

/// Strokes the wave `shape` with `source`, touching only pixels inside `clip`: the points within
/// width/2 of the curve 0 ≤ x ≤ length measured along its normals (so the ends are butt caps),
/// composited with alpha = source alpha × the pixel's covered area.
@inlinable
public func strokeWave(_ surface: PixelSurface, _ shape: WaveStroke, _ source: SourceColor, clip: ClipRect) {
    guard source.alpha > 0, let extent = StrokeExtent(shape, surface: surface, clip: clip) else { return }
    strokeWaveBand(surface, extent.geometry, source, columns: extent.columns, rows: extent.rows, origin: extent.origin)
}

/// The pixels a stroke can touch within a clip, and the origin of its Float rows.
@usableFromInline
struct StrokeExtent {
    @usableFromInline let geometry: WaveStrokeGeometry
    @usableFromInline let columns: Range<Int>
    @usableFromInline let rows: Range<Int>
    /// The op's own top row, not the clip's, so every pixel is computed the same way however
    /// the clip cuts the frame (and shared columns are the same in every band).
    @usableFromInline let origin: Int

    /// Nil when the stroke draws nothing within `clip`.
    @inlinable
    init?(_ shape: WaveStroke, surface: PixelSurface, clip: ClipRect) {
        let area = clip.intersection(surface.bounds)
        guard !area.isEmpty, let geometry = WaveStrokeGeometry(drawable: shape) else { return nil }
        let wave = shape.wave
        let r = geometry.radius
        let reach = abs(geometry.amplitude) + r + 2
        columns = clampedRange((-r).rounded(.down), (shape.length + r).rounded(.up), area.x0, area.x1)
        rows = clampedRange(
            (wave.baseline - reach).rounded(.down), (wave.baseline + reach).rounded(.up), area.y0, area.y1)
        guard !columns.isEmpty, !rows.isEmpty else { return nil }
        self.geometry = geometry
        origin = Int(max((wave.baseline - reach).rounded(.down), -4e15))
    }
}

/// [low, high) in Double, rounded outwards, clamped to [minimum, maximum] as Ints.
@inlinable
func clampedRange(_ low: Double, _ high: Double, _ minimum: Int, _ maximum: Int) -> Range<Int> {
    let l = low <= Double(minimum) ? minimum : (low >= Double(maximum) ? maximum : Int(low))
    let h = high <= Double(minimum) ? minimum : (high >= Double(maximum) ? maximum : Int(high))
    return l..<max(l, h)
}

/// Draws the stroke's rows `rows` and columns `columns` with the cheapest accurate method
/// (`WaveStrokeGeometry.methodAndDiscAngles`), one function per method.
@inlinable
func strokeWaveBand(
    _ surface: PixelSurface, _ geometry: WaveStrokeGeometry, _ source: SourceColor, columns: Range<Int>,
    rows: Range<Int>, origin: Int
) {
    // The disc angles are set up only for the sampled-disc path (nil otherwise): the angle's
    // bisection costs ~1 µs, 7 % of waves.json's ten fast strokes when it ran for every stroke.
    let (method, discAngles) = geometry.methodAndDiscAngles
    let band = StrokeBand(surface, geometry, source, columns: columns, rows: rows, origin: origin)
    switch method {
    case .fast: strokeFastBand(band)
    case .exactOffsets: strokeExactOffsetBand(band)
    case .sampledDiscs: if let discAngles { strokeSampledDiscBand(band, discAngles) }
    case .robust: strokeRobustBand(band)
    case .none: return
    }
}

/// Fast path: the second-order cross-section (`StrokeBandSampler.crossSection`); lo and hi
/// bend like g″ stretched by the slope.
@inlinable
func strokeFastBand(_ band: StrokeBand) {
    // The ends' cuts along the normals leave kinks in lo and hi (steep ones where the end's
    // slope is small) that chords follow poorly: the most sub-columns there.
    strokeSmoothBand(
        band, exact: false, subColumns: band.geometry.stretchedSubColumns, capColumns: WaveSampler.maximumSubColumns)
}

/// Exact-offset path (`StrokeBandSampler.offsetCrossSection`): lo and hi bend like g″/(1 − r·κ).
@inlinable
func strokeExactOffsetBand(_ band: StrokeBand) {
    // The error at a cap's tip grows like √r, so these wide strokes take the most sub-columns there.
    strokeSmoothBand(
        band, exact: true, subColumns: band.geometry.offsetSubColumns, capColumns: WaveSampler.maximumSubColumns)
}

/// The fast and exact-offset paths: lo and hi are smooth curves computed in SIMD, not the
/// envelope of discs or capsules (which has kinks where the highest point jumps from disc to
/// disc), so away from the ends the chords take the curvature correction. With one sub-column
/// per column, each chunk's column edges are sampled once up front and shared by neighbouring
/// groups.
@inlinable
func strokeSmoothBand(_ band: StrokeBand, exact: Bool, subColumns: Int, capColumns: Int) {
    let sampledColumns = subColumns == 1
    let sampler = band.sampler
    withWaveScratch { lanes, samples in
        let scratch = StrokeChordScratch(lanes)
        let lowSamples = samples
        let highSamples = lowSamples + waveChunkSamples
        var chunkStart = band.firstGroup
        while chunkStart < band.columns.upperBound {
            let chunkEnd = min(band.columns.upperBound, chunkStart + waveChunkColumns)
            if sampledColumns {
                var groupX = chunkStart - laneCount
                var index = 0
                while groupX < chunkEnd + laneCount {
                    let (lo, hi) = sampler.crossSection(groupX: groupX, offset: 0, exact: exact)
                    UnsafeMutableRawPointer(lowSamples + index).storeBytes(of: lo, as: LaneFloats.self)
                    UnsafeMutableRawPointer(highSamples + index).storeBytes(of: hi, as: LaneFloats.self)
                    groupX += laneCount
                    index += laneCount
                }
            }
            var groupX = chunkStart
            while groupX < chunkEnd {
                let nearEnd = band.isNearEnd(groupX: groupX)
                let k: Int
                if nearEnd || !sampledColumns {
                    k = nearEnd ? capColumns : subColumns
                    for edge in -1...(k + 1) {
                        let offset = Double(edge) / Double(k)
                        var (lo, hi) = sampler.crossSection(groupX: groupX, offset: offset, exact: exact)
                        if nearEnd {
                            band.ends.apply(x: laneOffsets + Float(Double(groupX) + offset), low: &lo, high: &hi)
                        }
                        scratch.lowEdges[edge + 1] = lo
                        scratch.highEdges[edge + 1] = hi
                    }
                } else {
                    k = 1
                    loadColumnEdges(lowSamples, groupX: groupX, chunkStart: chunkStart, into: scratch.lowEdges)
                    loadColumnEdges(highSamples, groupX: groupX, chunkStart: chunkStart, into: scratch.highEdges)
                }
                // The chord correction assumes a smooth boundary; the caps have kinks.
                drawStrokeGroup(band, scratch, groupX: groupX, subColumns: k, corrected: !nearEnd)
                groupX += laneCount
            }
            chunkStart = chunkEnd
        }
    }
}

/// Sampled-disc path (`StrokeBandSampler.discCrossSection`, caps included). Disc envelopes have
/// kinks (where the highest point jumps between crests) but are exact between them: half the
/// robust path's sub-columns kept the random tests' worst pixel at 0.017 (0.009 with them).
@inlinable
func strokeSampledDiscBand(_ band: StrokeBand, _ angles: DiscAngles) {
    let discColumns = max(4, band.geometry.stretchedSubColumns)
    let sampler = band.sampler
    withWaveScratch { lanes, _ in
        let scratch = StrokeChordScratch(lanes)
        var groupX = band.firstGroup
        while groupX < band.columns.upperBound {
            let nearEnd = band.isNearEnd(groupX: groupX)
            let k = nearEnd ? WaveSampler.maximumSubColumns : discColumns
            for edge in -1...(k + 1) {
                let offset = Double(edge) / Double(k)
                var (lo, hi) = sampler.discCrossSection(groupX: groupX, offset: offset, angles: angles, ends: band.ends)
                if nearEnd {
                    band.ends.cutAtNormals(x: laneOffsets + Float(Double(groupX) + offset), low: &lo, high: &hi)
                }
                scratch.lowEdges[edge + 1] = lo
                scratch.highEdges[edge + 1] = hi
            }
            drawStrokeGroup(band, scratch, groupX: groupX, subColumns: k, corrected: false)
            groupX += laneCount
        }
    }
}

/// Robust path: the capsule envelope of a fine polyline (`WaveStrokeEnvelope`, scalar Double),
/// at least 8 sub-columns per column and 32 at the caps.
@inlinable
func strokeRobustBand(_ band: StrokeBand) {
    let geometry = band.geometry
    let stretch = 1 + geometry.slopeBound * geometry.slopeBound
    let robustColumns = max(
        8, WaveSampler.subColumns(curvatureBound: geometry.curvatureBound * stretch, tolerance: 0.05))
    let envelope = WaveStrokeEnvelope(geometry)
    withWaveScratch { lanes, _ in
        let scratch = StrokeChordScratch(lanes)
        var groupX = band.firstGroup
        while groupX < band.columns.upperBound {
            let nearEnd = band.isNearEnd(groupX: groupX)
            let k = nearEnd ? WaveSampler.maximumSubColumns : robustColumns
            sampleStrokeEnvelope(
                envelope, groupX: groupX, subColumns: k, origin: band.origin, low: scratch.lowEdges,
                high: scratch.highEdges)
            if nearEnd {
                for edge in -1...(k + 1) {
                    let x = laneOffsets + Float(Double(groupX) + Double(edge) / Double(k))
                    band.ends.cutAtNormals(x: x, low: &scratch.lowEdges[edge + 1], high: &scratch.highEdges[edge + 1])
                }
            }
            drawStrokeGroup(band, scratch, groupX: groupX, subColumns: k, corrected: false)
            groupX += laneCount
        }
    }
}

/// What every stroke method shares for one op and band: the pixels, the colour, the curve and
/// its ends, and the columns and rows to draw (rows relative to `origin`: [firstRow, endRow)).
@usableFromInline
struct StrokeBand {
    @usableFromInline let surface: PixelSurface
    @usableFromInline let geometry: WaveStrokeGeometry
    @usableFromInline let blender: WaveBlender
    @usableFromInline let sampler: StrokeBandSampler
    @usableFromInline let ends: WaveStrokeEnds
    @usableFromInline let columns: Range<Int>
    @usableFromInline let origin: Int
    @usableFromInline let firstRow: Int
    @usableFromInline let endRow: Int

    @inlinable
    init(
        _ surface: PixelSurface, _ geometry: WaveStrokeGeometry, _ source: SourceColor, columns: Range<Int>,
        rows: Range<Int>, origin: Int
    ) {
        self.surface = surface
        self.geometry = geometry
        blender = WaveBlender(source)
        let waveSampler = WaveSampler(wavelength: 2 * Double.pi / geometry.angular, phase: geometry.phase)
        sampler = StrokeBandSampler(geometry, waveSampler, origin: origin)
        ends = WaveStrokeEnds(geometry, origin: origin)
        self.columns = columns
        self.origin = origin
        firstRow = rows.lowerBound - origin
        endRow = rows.upperBound - origin
    }

    /// Groups sit at multiples of 16 in absolute x (the same lanes and the same path for any
    /// clip); lanes outside the clip are computed but not written.
    @inlinable var firstGroup: Int { columns.lowerBound - columns.lowerBound % laneCount }

    /// Whether the group's columns (widened by one) reach within r + 1 of an end: it draws a cap.
    @inlinable
    func isNearEnd(groupX: Int) -> Bool { geometry.isNearEnd(groupX: groupX) }

}

extension WaveStrokeGeometry {
    /// Whether the group's columns (widened by one) reach within r + 1 of an end: it draws a cap.
    @inlinable
    func isNearEnd(groupX: Int) -> Bool {
        let left = Double(groupX) - 1
        let right = Double(groupX + laneCount) + 1
        return (right >= -radius - 1 && left <= radius + 1)
            || (right >= length - radius - 1 && left <= length + radius + 1)
    }

    /// Sub-columns for curves that bend like g″ stretched by the slope, 1 + g′² (tolerance 0.1).
    @inlinable var stretchedSubColumns: Int {
        let stretch = 1 + slopeBound * slopeBound
        return WaveSampler.subColumns(curvatureBound: curvatureBound * stretch, tolerance: 0.1)
    }

    /// Sub-columns of the exact-offset path: lo and hi bend like g″/(1 − r·κ) (tolerance 0.1).
    @inlinable var offsetSubColumns: Int {
        WaveSampler.subColumns(curvatureBound: curvatureBound / (1 - radius * curvatureBound), tolerance: 0.1)
    }
}

/// A group's sub-column edges (k + 3 vectors each for lo and hi) and its chords, in scratch lanes.
@usableFromInline
struct StrokeChordScratch {
    @usableFromInline let lowEdges: UnsafeMutablePointer<LaneFloats>
    @usableFromInline let highEdges: UnsafeMutablePointer<LaneFloats>
    @usableFromInline let lowStarts: UnsafeMutablePointer<LaneFloats>
    @usableFromInline let lowSlopes: UnsafeMutablePointer<LaneFloats>
    @usableFromInline let highStarts: UnsafeMutablePointer<LaneFloats>
    @usableFromInline let highSlopes: UnsafeMutablePointer<LaneFloats>

    @inlinable
    init(_ lanes: UnsafeMutablePointer<LaneFloats>) {
        let capacity = WaveSampler.maximumSubColumns
        lowEdges = lanes
        highEdges = lowEdges + (capacity + 3)
        lowStarts = highEdges + (capacity + 3)
        lowSlopes = lowStarts + capacity
        highStarts = lowSlopes + capacity
        highSlopes = highStarts + capacity
    }
}

/// Blends one group of sixteen columns from its sub-column edges (in `scratch`): chords of lo
/// and hi, then each row's coverage fill(below lo) − fill(below hi); rows between every lane's
/// lo and hi are constant spans.
@inlinable @inline(__always)
func drawStrokeGroup(
    _ band: StrokeBand, _ scratch: StrokeChordScratch, groupX: Int, subColumns k: Int, corrected: Bool
) {
    let lanes = max(band.columns.lowerBound, groupX)..<min(band.columns.upperBound, groupX + laneCount)
    let firstRow = band.firstRow
    let endRow = band.endRow
    let (lowBounds, highBounds) = laneBounds(
        buildChordLanes(
            edges: scratch.lowEdges, subColumns: k, corrected: corrected, starts: scratch.lowStarts,
            slopes: scratch.lowSlopes),
        buildChordLanes(
            edges: scratch.highEdges, subColumns: k, corrected: corrected, starts: scratch.highStarts,
            slopes: scratch.highSlopes))
    // The edges are dead once the chords are built: their slots hold the runs' reciprocals.
    let lowReciprocals = scratch.lowEdges
    let highReciprocals = scratch.highEdges
    chordRunReciprocals(slopes: scratch.lowSlopes, subColumns: k, into: lowReciprocals)
    chordRunReciprocals(slopes: scratch.highSlopes, subColumns: k, into: highReciprocals)
    let (top, bottom) = strokeGroupRows(lowBounds, highBounds, firstRow: firstRow, endRow: endRow)
    // Rows between every lane's lo and hi are fully covered: constant spans.
    let fullTop = clampedRow(lowBounds.high.rounded(.up), low: firstRow, high: endRow)
    let fullBottom = clampedRow(highBounds.low.rounded(.down), low: firstRow, high: endRow)
    for y in top..<bottom {
        let row = band.surface.row(band.origin + y)
        if y >= fullTop && y < fullBottom {
            band.blender.fullSpan(row, from: lanes.lowerBound, to: lanes.upperBound)
            continue
        }
        // Above every lane's lo the row is wholly below lo (1); above every hi, the row's part
        // below hi is empty (0): only the other integral is needed.
        let rowBottom = Float(y + 1)
        var belowLow = LaneFloats(repeating: 1)
        if y < fullTop {
            belowLow = coverageBelowChordsScaled(
                rowBottom: rowBottom, starts: scratch.lowStarts, reciprocals: lowReciprocals,
                slopes: scratch.lowSlopes, subColumns: k)
        }
        var belowHigh = LaneFloats(repeating: 0)
        if y >= fullBottom {
            belowHigh = coverageBelowChordsScaled(
                rowBottom: rowBottom, starts: scratch.highStarts, reciprocals: highReciprocals,
                slopes: scratch.highSlopes, subColumns: k)
        }
        let coverage = laneClamp01(belowLow - belowHigh)
        band.blender.coverageLanes(row, group: groupX, lanes: lanes, coverage: coverage)
    }
}

/// The rows [top, bottom) of [firstRow, endRow) that a group whose chords of lo reach `low` and
/// of hi reach `high` touches (empty: none).
@inlinable @inline(__always)
func strokeGroupRows(_ low: ChordBounds, _ high: ChordBounds, firstRow: Int, endRow: Int) -> (top: Int, bottom: Int) {
    let top = clampedRow(low.low.rounded(.down), low: firstRow, high: endRow)
    return (top, max(top, clampedRow(high.high.rounded(.up), low: firstRow, high: endRow)))
}

/// Fast path: the vertical cross-section [lo, hi] of the stroke of a gently bent curve,
/// g ∓ r·√(1 + g'²) + ½r²·g''·g'²/(1 + g'²) (exact for a line, plus the curvature term), for
/// the sixteen lanes x = groupX + lane + offset, in SIMD.
@usableFromInline
struct StrokeBandSampler {
    @usableFromInline let sampler: WaveSampler
    @usableFromInline let baseline: Float
    @usableFromInline let amplitude: Float
    @usableFromInline let omega: Float
    @usableFromInline let radius: Float
    @usableFromInline let scale: Float
    @usableFromInline let halfLength: Double
    @usableFromInline let parabola: Bool
    /// Turns of phase per pixel of x, 1/λ.
    @usableFromInline let turnsPerPixel: Float

    @inlinable
    init(_ geometry: WaveStrokeGeometry, _ sampler: WaveSampler, origin: Int) {
        self.sampler = sampler
        baseline = Float(geometry.baseline - Double(origin))
        amplitude = Float(geometry.amplitude)
        omega = Float(geometry.angular)
        radius = Float(geometry.radius)
        scale = Float(2 / geometry.length)
        halfLength = geometry.length / 2
        parabola = geometry.parabola
        turnsPerPixel = Float(sampler.inverseWavelength)
    }

    @inlinable @inline(never)
    func crossSection(groupX: Int, offset: Double) -> (LaneFloats, LaneFloats) {
        let turns = sampler.turns(groupX: groupX, offset: offset)
        let sine = outlinedSineOfTurns(turns)
        let cosine = outlinedSineOfTurns(turns + 0.25)
        var g = LaneFloats(repeating: baseline)
        var g1: LaneFloats
        var g2: LaneFloats
        if parabola {
            let u = (laneOffsets + Float(Double(groupX) + offset - halfLength)) * scale
            let e = 1 - u * u
            let e1 = -2 * scale * u
            let e2 = -2 * scale * scale
            g += amplitude * e * sine
            g1 = amplitude * (e1 * sine + omega * e * cosine)
            g2 = amplitude * (e2 * sine + 2 * omega * e1 * cosine - omega * omega * e * sine)
        } else {
            g += amplitude * sine
            g1 = (amplitude * omega) * cosine
            g2 = (-amplitude * omega * omega) * sine
        }
        let slopeSquared = g1 * g1
        let stretchSquared = 1 + slopeSquared
        let stretch = stretchSquared.squareRoot()
        let bend = (0.5 * radius * radius) * g2 * slopeSquared / stretchSquared
        return (g - radius * stretch + bend, g + radius * stretch + bend)
    }
}

/// Robust path: lo/hi from the polyline capsules (scalar), at every sub-column edge. The
/// polyline around the group is computed once into a 32 KiB stack cache when it fits (1024 vertices).
@inlinable
func sampleStrokeEnvelope(
    _ envelope: WaveStrokeEnvelope, groupX: Int, subColumns k: Int, origin: Int,
    low: UnsafeMutablePointer<LaneFloats>, high: UnsafeMutablePointer<LaneFloats>
) {
    // The samples run from x = groupX − 1/k to groupX + 15 + (k + 1)/k.
    let left = envelope.vertexRange(at: Double(groupX) - 1 / Double(k))
    let right = envelope.vertexRange(at: Double(groupX + laneCount - 1) + Double(k + 1) / Double(k))
    // A range is empty beyond a cap; the samples between still reach the first or last vertex.
    let first = left.first <= left.last ? left.first : 0
    let last = right.first <= right.last ? right.last : envelope.lastVertex
    var storage = InlineArray<4096, Double>(repeating: 0)
    let capacity = CachedVertices.capacity(doubles: storage.count)
    guard first <= last, last - first < capacity else {
        sampleStrokeEnvelope(
            envelope, groupX: groupX, subColumns: k, origin: origin, vertices: nil, low: low, high: high)
        return
    }
    withUnsafeMutablePointer(to: &storage) { pointer in
        let cache = CachedVertices(
            envelope, first: first, last: last,
            storage: UnsafeMutableRawPointer(pointer).assumingMemoryBound(to: Double.self), capacity: capacity)
        sampleStrokeEnvelope(
            envelope, groupX: groupX, subColumns: k, origin: origin, vertices: cache, low: low, high: high)
    }
}

/// `sampleStrokeEnvelope` with the polyline from `vertices` (computed per sample if nil).
@inlinable
func sampleStrokeEnvelope(
    _ envelope: WaveStrokeEnvelope, groupX: Int, subColumns k: Int, origin: Int, vertices: CachedVertices?,
    low: UnsafeMutablePointer<LaneFloats>, high: UnsafeMutablePointer<LaneFloats>
) {
    for edge in -1...(k + 1) {
        var lo = LaneFloats(repeating: 0)
        var hi = LaneFloats(repeating: 0)
        for lane in 0..<laneCount {
            let x = Double(groupX + lane) + Double(edge) / Double(k)
            let interval =
                if let vertices {
                    envelope.interval(at: x, vertices: vertices)
                } else {
                    envelope.interval(at: x)
                }
            lo[lane] = Float(interval.low - Double(origin))
            hi[lane] = Float(interval.high - Double(origin))
        }
        low[edge + 1] = lo
        high[edge + 1] = hi
    }
}

// Anti-aliased wave stroke: the points within width/2 (Euclidean distance) of the curve
// y = g(x) = baseline + e(x)·amplitude·sin(2π·x/wavelength + phase), 0 ≤ x ≤ length, where
// e = 1 (`none`) or 1 − ((x − L/2)/(L/2))² (`parabola`).
//
// - The distance is to the curve *segment* 0 ≤ x ≤ length, so the ends are round caps
//   (half discs of radius width/2 around the end points).
// - Every vertical line meets the stroke in one interval [lo(x), hi(x)] (see
//   `WaveStrokeEnvelope`), so a pixel's coverage is fill(below lo) − fill(below hi), computed
//   with the same chord integrals as `fillWave`, per group of 16 columns.
// - Fast path (gentle curves: half width · curvature · (1 + slope²) ≤ 0.02, which holds for the
//   bench lists with a margin of ~3x): lo/hi = g ∓ r·√(1 + g'²) + ½r²·g''·g'²/(1 + g'²), the
//   exact cross-section of a straight line plus its second-order curvature term, evaluated in
//   SIMD with `sineOfTurns` (sin and cos per column edge).
//   Near the ends (groups within width/2 + 1) the caps are added in SIMD too (`WaveStrokeEnds`:
//   band cut at the end normal plus the end disc), with ≥ 16 sub-columns because lo/hi have
//   vertical tangents at the cap tips that chords follow poorly.
// - Exact-offset path (too bent for the fast formula, but half width · curvature ≤ ½ and
//   slope ≤ 8: wide strokes of gentle waves, e.g. the waveform scene at lineWidth 20): lo/hi are
//   the offset curves solved by Newton's method in SIMD (`WaveStrokeOffset`), exact because the
//   height of the discs reaching x has a single maximum there; caps as in the fast path, with
//   32 sub-columns. The waveform scene at lineWidth 20: 0.67 ms a frame (robust path: 187 ms).
// - Sampled-disc path (offset curves that fold, r·κ > ½, e.g. the waveform scene at frequency
//   120 or lineWidth 20 at frequency 60): the highest and lowest points of the discs over x,
//   sampled over the disc angle and refined by a Newton step in SIMD (`WaveStrokeDiscs`), caps
//   included; ≥ 4 sub-columns, 32 at the caps. The waveform scene at frequency 120: 5.2 ms a
//   frame (robust path: 155 ms); at lineWidth 20 and frequency 60: 5.1 ms (was 179 ms).
// - Robust path (sharp zig-zags needing more than 128 disc samples, e.g. a 4 px wavelength at
//   amplitude 30): lo/hi from the capsules around a fine polyline refined on the exact curve
//   (`WaveStrokeEnvelope`, scalar Double), at least 8 sub-columns per column and 32 at the caps.
// - Degenerate input draws nothing: any non-finite parameter, |wavelength| < 1e-6 px (zero
//   included), width ≤ 0 or length ≤ 0. |amplitude| is limited to 1e6 px, width to 2e6 px.
// - Accuracy and limits: see WaveStrokeAccuracyTests and the notes in WaveFill.swift.

/// Strokes the wave `shape` with `source`, touching only pixels inside `clip`: the points within
/// width/2 of the curve segment 0 ≤ x ≤ length (so the ends are round caps), composited with
/// alpha = source alpha × the pixel's covered area.
@inlinable
public func strokeWave(_ surface: PixelSurface, _ shape: WaveStroke, _ source: SourceColor, clip: ClipRect) {
    let area = clip.intersection(surface.bounds)
    guard !area.isEmpty, source.alpha > 0 else { return }
    guard let geometry = WaveStrokeGeometry(drawable: shape) else { return }
    let wave = shape.wave
    let amplitude = geometry.amplitude
    let r = geometry.radius
    let reach = abs(amplitude) + r + 2
    let columns = clampedRange((-r).rounded(.down), (shape.length + r).rounded(.up), area.x0, area.x1)
    let rows = clampedRange(
        (wave.baseline - reach).rounded(.down), (wave.baseline + reach).rounded(.up), area.y0, area.y1)
    guard !columns.isEmpty, !rows.isEmpty else { return }
    // The origin of the Float row coordinates is the op's own top row, not the clip's, so every
    // pixel is computed the same way however the clip cuts the frame.
    let origin = Int(max((wave.baseline - reach).rounded(.down), -4e15))
    strokeWaveBand(surface, geometry, source, columns: columns, rows: rows, origin: origin)
}

/// [low, high) in Double, rounded outwards, clamped to [minimum, maximum] as Ints.
@inlinable
func clampedRange(_ low: Double, _ high: Double, _ minimum: Int, _ maximum: Int) -> Range<Int> {
    let l = low <= Double(minimum) ? minimum : (low >= Double(maximum) ? maximum : Int(low))
    let h = high <= Double(minimum) ? minimum : (high >= Double(maximum) ? maximum : Int(high))
    return l..<max(l, h)
}

@inlinable
func strokeWaveBand(
    _ surface: PixelSurface, _ geometry: WaveStrokeGeometry, _ source: SourceColor, columns: Range<Int>,
    rows: Range<Int>, origin: Int
) {
    let r = geometry.radius
    // The disc angles are set up only for the sampled-disc path (nil otherwise): the angle's
    // bisection costs ~1 µs, 7 % of waves.json's ten fast strokes when it ran for every stroke.
    let (method, discAngles) = geometry.methodAndDiscAngles
    // lo and hi are smooth curves computed in SIMD (fast or exact path), not the envelope of
    // discs or capsules (which has kinks where the highest point jumps from disc to disc).
    let smooth = method == .fast || method == .exactOffsets
    // Too bent for the fast formula but with smooth offset curves: the exact SIMD cross-section.
    let exact = method == .exactOffsets
    let stretch = 1 + geometry.slopeBound * geometry.slopeBound
    // lo and hi bend like g″ stretched by the slope (fast path) or g″/(1 − r·κ) (exact path).
    let stretchedColumns = WaveSampler.subColumns(curvatureBound: geometry.curvatureBound * stretch, tolerance: 0.1)
    let fastColumns =
        exact
        ? WaveSampler.subColumns(
            curvatureBound: geometry.curvatureBound / (1 - r * geometry.curvatureBound), tolerance: 0.1)
        : stretchedColumns
    // The caps' tips have vertical tangents that chords follow poorly; the error at a tip grows
    // like √r, so the wide strokes of the exact path take the most sub-columns there.
    let capColumns = exact ? WaveSampler.maximumSubColumns : max(fastColumns, 16)
    let robustColumns = max(
        8, WaveSampler.subColumns(curvatureBound: geometry.curvatureBound * stretch, tolerance: 0.05))
    // Disc envelopes have kinks (where the highest point jumps between crests) but are exact
    // between them: half the robust path's sub-columns kept the random tests' worst pixel at
    // 0.017 (0.009 with them); with disc samples for 0.02 px instead of 0.01 px, the waveform
    // scene at frequency 120 went from 10.4 to 6.4 ms a frame.
    let discColumns = max(4, stretchedColumns)
    let sampler = WaveSampler(wavelength: 2 * Double.pi / geometry.angular, phase: geometry.phase)
    let blender = WaveBlender(source)
    let ends = WaveStrokeEnds(geometry, origin: origin)
    // Rows relative to origin: [firstRow, endRow).
    let firstRow = rows.lowerBound - origin
    let endRow = rows.upperBound - origin
    // Groups whose columns reach within r + 1 of an end draw the caps.
    let capStart = -r - 1
    let capEnd = r + 1
    let tailStart = geometry.length - r - 1
    let tailEnd = geometry.length + r + 1
    let capacity = WaveSampler.maximumSubColumns
    let band = StrokeBandSampler(geometry, sampler, origin: origin)
    let envelope = WaveStrokeEnvelope(geometry)
    let sampledColumns = smooth && fastColumns == 1
    withWaveScratch { scratch, sampleScratch in
        do {
            let lowEdges = scratch
            let highEdges = lowEdges + (capacity + 3)
            let lowStarts = highEdges + (capacity + 3)
            let lowSlopes = lowStarts + capacity
            let highStarts = lowSlopes + capacity
            let highSlopes = highStarts + capacity
            let lowSamples = sampleScratch
            let highSamples = lowSamples + waveChunkSamples
            // Groups sit at multiples of 16 in absolute x (the same lanes and the same path for
            // any clip); lanes outside the clip are computed but not written.
            var chunkStart = columns.lowerBound - columns.lowerBound % laneCount
            while chunkStart < columns.upperBound {
                let chunkEnd = min(columns.upperBound, chunkStart + waveChunkColumns)
                if sampledColumns {
                    var groupX = chunkStart - laneCount
                    var index = 0
                    while groupX < chunkEnd + laneCount {
                        let (lo, hi) = band.crossSection(groupX: groupX, offset: 0, exact: exact)
                        UnsafeMutableRawPointer(lowSamples + index).storeBytes(of: lo, as: LaneFloats.self)
                        UnsafeMutableRawPointer(highSamples + index).storeBytes(of: hi, as: LaneFloats.self)
                        groupX += laneCount
                        index += laneCount
                    }
                }
                var groupX = chunkStart
                while groupX < chunkEnd {
                    let lanes = max(columns.lowerBound, groupX)..<min(columns.upperBound, groupX + laneCount)
                    let left = Double(groupX) - 1
                    let right = Double(groupX + laneCount) + 1
                    let nearEnd = (right >= capStart && left <= capEnd) || (right >= tailStart && left <= tailEnd)
                    let k: Int
                    if let discAngles {
                        k = nearEnd ? capacity : discColumns
                        for edge in -1...(k + 1) {
                            (lowEdges[edge + 1], highEdges[edge + 1]) = band.discCrossSection(
                                groupX: groupX, offset: Double(edge) / Double(k), angles: discAngles, ends: ends)
                        }
                    } else if !smooth {
                        k = nearEnd ? capacity : robustColumns
                        sampleStrokeEnvelope(
                            envelope, groupX: groupX, subColumns: k, origin: origin, low: lowEdges, high: highEdges)
                    } else if nearEnd || !sampledColumns {
                        k = nearEnd ? capColumns : fastColumns
                        for edge in -1...(k + 1) {
                            let offset = Double(edge) / Double(k)
                            var (lo, hi) = band.crossSection(groupX: groupX, offset: offset, exact: exact)
                            if nearEnd {
                                ends.apply(x: laneOffsets + Float(Double(groupX) + offset), low: &lo, high: &hi)
                            }
                            lowEdges[edge + 1] = lo
                            highEdges[edge + 1] = hi
                        }
                    } else {
                        k = 1
                        loadColumnEdges(lowSamples, groupX: groupX, chunkStart: chunkStart, into: lowEdges)
                        loadColumnEdges(highSamples, groupX: groupX, chunkStart: chunkStart, into: highEdges)
                    }
                    // The chord correction assumes a smooth boundary; caps and envelopes have kinks.
                    let corrected = smooth && !nearEnd
                    let (lowBounds, highBounds) = laneBounds(
                        buildChordLanes(
                            edges: lowEdges, subColumns: k, corrected: corrected, starts: lowStarts, slopes: lowSlopes),
                        buildChordLanes(
                            edges: highEdges, subColumns: k, corrected: corrected, starts: highStarts,
                            slopes: highSlopes))
                    // The edges are dead once the chords are built: their slots hold the runs' reciprocals.
                    let lowReciprocals = lowEdges
                    let highReciprocals = highEdges
                    chordRunReciprocals(slopes: lowSlopes, subColumns: k, into: lowReciprocals)
                    chordRunReciprocals(slopes: highSlopes, subColumns: k, into: highReciprocals)
                    let top = clampedRow(lowBounds.low.rounded(.down), low: firstRow, high: endRow)
                    let bottom = max(top, clampedRow(highBounds.high.rounded(.up), low: firstRow, high: endRow))
                    // Rows between every lane's lo and hi are fully covered: constant spans.
                    let fullTop = clampedRow(lowBounds.high.rounded(.up), low: firstRow, high: endRow)
                    let fullBottom = clampedRow(highBounds.low.rounded(.down), low: firstRow, high: endRow)
                    for y in top..<bottom {
                        if y >= fullTop && y < fullBottom {
                            blender.fullSpan(surface.row(origin + y), from: lanes.lowerBound, to: lanes.upperBound)
                            continue
                        }
                        // Above every lane's lo the row is wholly below lo (1); above every hi, the
                        // row's part below hi is empty (0): only the other integral is needed.
                        let rowBottom = Float(y + 1)
                        var belowLow = LaneFloats(repeating: 1)
                        if y < fullTop {
                            belowLow = coverageBelowChordsScaled(
                                rowBottom: rowBottom, starts: lowStarts, reciprocals: lowReciprocals,
                                slopes: lowSlopes, subColumns: k)
                        }
                        var belowHigh = LaneFloats(repeating: 0)
                        if y >= fullBottom {
                            belowHigh = coverageBelowChordsScaled(
                                rowBottom: rowBottom, starts: highStarts, reciprocals: highReciprocals,
                                slopes: highSlopes, subColumns: k)
                        }
                        let coverage = laneClamp01(belowLow - belowHigh)
                        blender.coverageLanes(surface.row(origin + y), group: groupX, lanes: lanes, coverage: coverage)
                    }
                    groupX += laneCount
                }
                chunkStart = chunkEnd
            }
        }
    }
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

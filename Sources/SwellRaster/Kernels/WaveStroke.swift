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
// - Robust path (the 16-column groups within width/2 + 1 of either end, and every group of
//   strongly bent or steep strokes): lo/hi from the capsules around a fine polyline
//   (`WaveStrokeEnvelope`, scalar Double), at least 8 sub-columns per column and 32 at the
//   caps, where lo/hi have vertical tangents that chords follow poorly.
// - Degenerate input draws nothing: any non-finite parameter, wavelength 0, width ≤ 0 or
//   length ≤ 0. Amplitude and width are limited to 1e6 px.
// - Accuracy and limits: see WaveStrokeAccuracyTests and the notes in WaveFill.swift.

/// Strokes the wave `shape` with `source`, touching only pixels inside `clip`.
@inlinable
public func strokeWave(_ surface: PixelSurface, _ shape: WaveStroke, _ source: SourceColor, clip: ClipRect) {
    let area = clip.intersection(surface.bounds)
    guard !area.isEmpty, source.alpha > 0 else { return }
    let wave = shape.wave
    guard wave.baseline.isFinite, wave.amplitude.isFinite, wave.wavelength.isFinite, wave.phase.isFinite,
        wave.wavelength != 0, shape.width.isFinite, shape.width > 0, shape.length.isFinite, shape.length > 0
    else { return }
    var clamped = shape
    clamped.width = min(shape.width, 2e6)
    let amplitude = min(max(wave.amplitude, -1e6), 1e6)
    let geometry = WaveStrokeGeometry(clamped, amplitude: amplitude)
    let r = geometry.radius
    let reach = abs(amplitude) + r + 2
    let columns = clampedRange((-r).rounded(.down), (shape.length + r).rounded(.up), area.x0, area.x1)
    let rows = clampedRange((wave.baseline - reach).rounded(.down), (wave.baseline + reach).rounded(.up), area.y0, area.y1)
    guard !columns.isEmpty, !rows.isEmpty else { return }
    strokeWaveBand(surface, geometry, source, columns: columns, rows: rows)
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
    _ surface: PixelSurface, _ geometry: WaveStrokeGeometry, _ source: SourceColor, columns: Range<Int>, rows: Range<Int>
) {
    let r = geometry.radius
    let gentle = geometry.isGentle
    let stretch = 1 + geometry.slopeBound * geometry.slopeBound
    let fastColumns = WaveSampler.subColumns(curvatureBound: geometry.curvatureBound * stretch, tolerance: 0.1)
    let robustColumns = max(8, WaveSampler.subColumns(curvatureBound: geometry.curvatureBound * stretch, tolerance: 0.05))
    let envelope = WaveStrokeEnvelope(geometry)
    let origin = rows.lowerBound
    let bandRows = rows.count
    // Groups whose columns reach within r + 1 of an end take the robust path.
    let capStart = -r - 1
    let capEnd = r + 1
    let tailStart = geometry.length - r - 1
    let tailEnd = geometry.length + r + 1
    let capacity = WaveSampler.maximumSubColumns
    withUnsafeTemporaryAllocation(of: LaneFloats.self, capacity: 6 * capacity + 6) { scratch in
        let lowEdges = scratch.baseAddress!
        let highEdges = lowEdges + (capacity + 3)
        let lowStarts = highEdges + (capacity + 3)
        let lowSlopes = lowStarts + capacity
        let highStarts = lowSlopes + capacity
        let highSlopes = highStarts + capacity
        var groupX = columns.lowerBound
        while groupX < columns.upperBound {
            let lanes = min(laneCount, columns.upperBound - groupX)
            let left = Double(groupX) - 1
            let right = Double(groupX + laneCount) + 1
            let nearEnd = (right >= capStart && left <= capEnd) || (right >= tailStart && left <= tailEnd)
            let fast = gentle && !nearEnd
            let k = fast ? fastColumns : (nearEnd ? WaveSampler.maximumSubColumns : robustColumns)
            if fast {
                sampleStrokeEdges(geometry, groupX: groupX, subColumns: k, origin: origin, low: lowEdges, high: highEdges)
            } else {
                for edge in -1...(k + 1) {
                    var low = LaneFloats(repeating: 0)
                    var high = LaneFloats(repeating: 0)
                    for lane in 0..<laneCount {
                        let x = Double(groupX + lane) + Double(edge) / Double(k)
                        let interval = envelope.interval(at: x)
                        low[lane] = Float(interval.low - Double(origin))
                        high[lane] = Float(interval.high - Double(origin))
                    }
                    lowEdges[edge + 1] = low
                    highEdges[edge + 1] = high
                }
            }
            let lowBounds = buildChords(edges: lowEdges, subColumns: k, corrected: fast, starts: lowStarts, slopes: lowSlopes)
            let highBounds = buildChords(
                edges: highEdges, subColumns: k, corrected: fast, starts: highStarts, slopes: highSlopes)
            let top = clampedRow(lowBounds.low.rounded(.down), low: 0, high: bandRows)
            let bottom = max(top, clampedRow(highBounds.high.rounded(.up), low: 0, high: bandRows))
            for y in top..<bottom {
                let rowBottom = Float(y + 1)
                let belowLow = coverageBelowChords(rowBottom: rowBottom, starts: lowStarts, slopes: lowSlopes, subColumns: k)
                let belowHigh = coverageBelowChords(
                    rowBottom: rowBottom, starts: highStarts, slopes: highSlopes, subColumns: k)
                let coverage = laneMax(belowLow - belowHigh, LaneFloats(repeating: 0))
                blendLanes(surface.row(origin + y), at: groupX, count: lanes, source, alpha: coverage * source.alpha)
            }
            groupX += laneCount
        }
    }
}

/// Fast path: lo/hi of the vertical cross-section at every sub-column edge of a group, in SIMD.
@inlinable @inline(__always)
func sampleStrokeEdges(
    _ geometry: WaveStrokeGeometry, groupX: Int, subColumns k: Int, origin: Int,
    low: UnsafeMutablePointer<LaneFloats>, high: UnsafeMutablePointer<LaneFloats>
) {
    let sampler = WaveSampler(wavelength: 2 * Double.pi / geometry.angular, phase: geometry.phase, subColumns: k)
    let baseline = LaneFloats(repeating: Float(geometry.baseline - Double(origin)))
    let amplitude = Float(geometry.amplitude)
    let omega = Float(geometry.angular)
    let r = Float(geometry.radius)
    let halfRSquared = 0.5 * r * r
    let scale = Float(2 / geometry.length)
    for edge in -1...(k + 1) {
        let turns = sampler.turns(groupX: groupX, edge: edge)
        let sine = sineOfTurns(turns)
        let cosine = sineOfTurns(turns + 0.25)
        var g = baseline
        var g1: LaneFloats
        var g2: LaneFloats
        if geometry.parabola {
            let offset = Float(Double(groupX) + Double(edge) / Double(k) - geometry.length / 2)
            let u = (laneOffsets + offset) * scale
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
        let bend = halfRSquared * g2 * slopeSquared / stretchSquared
        low[edge + 1] = g - r * stretch + bend
        high[edge + 1] = g + r * stretch + bend
    }
}

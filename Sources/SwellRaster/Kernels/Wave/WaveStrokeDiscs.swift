/// The sampled-disc path of the stroke kernel: the vertical cross-section of a stroke too bent
/// for exact offsets (r·κ > ½, where the offset curves fold and a column's top can come from
/// either of two crests), in SIMD.
///
/// The stroke is the union of the discs of radius r around the centre line's points (t, g(t)),
/// 0 ≤ t ≤ L. Its top at x is the highest point of those discs over x: with t = x + r·sin θ,
/// hi(x) = max over θ in [−π/2, π/2] of f(θ) = g(x + r·sin θ) + r·cos θ, and its bottom the
/// minimum of g(x + r·sin θ) − r·cos θ. Over t the same search has infinite slopes at the ends
/// of the window (the discs' sides); over θ, f is smooth, with |f''| ≤ r²·|g''| + r·|g'| + r = F.
///
/// A column's extreme lies where the disc's boundary is parallel to the curve, tan θ = g'(t)
/// (or at an end point: a cap), so only |θ| ≤ atan(|g'|max) is searched.
/// f is sampled at N angles h apart over that range (top and bottom share the N heights), the best
/// sample is refined by one Newton step confined to ±h, and the better of the two is kept.
/// Every candidate is a point of one of the discs, so hi is never overestimated (nor lo
/// underestimated); the true extreme lies within h/2 of a sample, so the best sample is short
/// of it by at most F·h²/8, which N makes ≤ 0.02 px (`WaveStrokeGeometry.discSamples`), and the
/// Newton step removes even that where the best sample sits on the true crest. Points whose t
/// falls beyond 0…L are pushed out of the search, and the two end points' discs (the round
/// stroke's ends) are candidates of their own, so the round stroke is exact here too; near the
/// ends the kernel then cuts it at the end normals (`WaveStrokeEnds.cutAtNormals`).
///
/// Cost: N + 6 sines per sub-column edge (N = 23 for the waveform scene at frequency 120),
/// against the scalar robust path's polyline search, which this path replaces for every
/// stroke with N ≤ `WaveStrokeGeometry.maximumDiscSamples`. Only the sample loop's sine is
/// inlined (the Newton step's stay calls), and the angles' sines are set up once per stroke
/// (`DiscAngles`). Now: that scene 5.2 ms a frame (155 ms on the robust path); docs/speed.md.
extension StrokeBandSampler {
    /// [lo, hi] of the stroke for the sixteen lanes x = groupX + lane + offset, from the disc
    /// angles `angles`; `ends` gives the end points (the caps) and the length.
    @inlinable @inline(never)
    func discCrossSection(groupX: Int, offset: Double, angles: DiscAngles, ends: WaveStrokeEnds) -> (
        LaneFloats, LaneFloats
    ) {
        let r = radius
        let turns = sampler.turns(groupX: groupX, offset: offset)
        let centred = laneOffsets + Float(Double(groupX) + offset - halfLength)
        let x = laneOffsets + Float(Double(groupX) + offset)
        let length = ends.endX
        // The angles θ_i = −angle + i·h, stepped by a rotation in Double (exact to ~1e-15 a step).
        let stepSine = angles.stepSine
        let stepCosine = angles.stepCosine
        var sine = -angles.startSine
        var cosine = angles.startCosine
        var top = LaneFloats(repeating: -.infinity)
        var bottom = LaneFloats(repeating: .infinity)
        // (sin θ, cos θ) of the best sample so far, per lane, for each side.
        var topSine = LaneFloats(repeating: 0)
        var topCosine = LaneFloats(repeating: 0)
        var bottomSine = LaneFloats(repeating: 0)
        var bottomCosine = LaneFloats(repeating: 0)
        for _ in 0..<angles.samples {
            let s = LaneFloats(repeating: Float(sine))
            let c = LaneFloats(repeating: Float(cosine))
            let delta = r * s
            // The sine inlined here (the loop's only one), unlike the Newton step's calls.
            let g = height(sine: sineOfTurns(turns + delta * turnsPerPixel), centred: centred + delta)
            let away = discPointOutside(x + delta, length: length)
            let up = g + r * c - away
            let down = g - r * c + away
            // Where this sample is higher (lower), its angle replaces the side's best.
            let higher = top - up
            topSine = laneSelectNegative(higher, s, topSine)
            topCosine = laneSelectNegative(higher, c, topCosine)
            top = laneMax(top, up)
            let lower = down - bottom
            bottomSine = laneSelectNegative(lower, s, bottomSine)
            bottomCosine = laneSelectNegative(lower, c, bottomCosine)
            bottom = laneMin(bottom, down)
            (sine, cosine) = (sine * stepCosine + cosine * stepSine, cosine * stepCosine - sine * stepSine)
        }
        let h = angles.step
        let refinedTop = refinedDiscPoint(
            turns: turns, centred: centred, x: x, s: topSine, c: topCosine, side: 1, limit: h, length: length)
        let refinedBottom = refinedDiscPoint(
            turns: turns, centred: centred, x: x, s: bottomSine, c: bottomCosine, side: -1, limit: h, length: length)
        top = laneMax(top, refinedTop)
        bottom = laneMin(bottom, refinedBottom)
        // The end points' discs, the round stroke's ends (beyond r from an end point they reach
        // nothing); the kernel cuts them at the end normals afterwards.
        let rr = r * r
        let fromEnd = x - length
        let startReach = rr - x * x
        let endReach = rr - fromEnd * fromEnd
        let startHalf = positivePart(startReach).squareRoot()
        let endHalf = positivePart(endReach).squareRoot()
        let startAway = positivePart(0 - startReach) * 1e7
        let endAway = positivePart(0 - endReach) * 1e7
        top = laneMax(laneMax(top, ends.startY + startHalf - startAway), ends.endY + endHalf - endAway)
        bottom = laneMin(laneMin(bottom, ends.startY - startHalf + startAway), ends.endY - endHalf + endAway)
        // Beyond the caps no point reaches x: an empty cross-section at the nearer end point.
        let empty = laneSelectNegative(
            x - length * 0.5, LaneFloats(repeating: ends.startY), LaneFloats(repeating: ends.endY))
        let none = top - bottom
        return (laneSelectNegative(none, empty, bottom), laneSelectNegative(none, empty, top))
    }

    /// The disc point one Newton step from the sample at (s, c) = (sin θ, cos θ) towards the
    /// top's maximum (side +1) or the bottom's minimum (side −1) of g(x + r·sin θ) ± r·cos θ,
    /// the step confined to ±`limit`; pushed out of the search where its t leaves 0…L.
    @inlinable @inline(__always)
    func refinedDiscPoint(
        turns: LaneFloats, centred: LaneFloats, x: LaneFloats, s: LaneFloats, c: LaneFloats, side: Float,
        limit: Float, length: Float
    ) -> LaneFloats {
        let r = radius
        let delta = r * s
        let curve = curve(turns: turns + delta * turnsPerPixel, centred: centred + delta)
        // With φ(θ) = side·(g(x + r·sin θ) ± r·cos θ) (to be maximised): φ'/r and φ''/r.
        let first = side * curve.g1 * c - s
        let second = side * (curve.g2 * r * c * c - curve.g1 * s) - c
        // Newton where φ is concave; elsewhere (φ'' ≥ 0) a full step uphill, both within ±limit.
        let bound = LaneFloats(repeating: limit)
        let newton = first / laneMin(second, LaneFloats(repeating: -1e-3))
        let turn = laneMin(laneMax(0 - newton, 0 - bound), bound)
        // Rotate (s, c) by the step: short series, |step| ≤ π/8 (error < 1e-6).
        let turnSquared = turn * turn
        // The series' inner terms are named (same order of evaluation): Swift 6.2 times out on
        // the nested form.
        let sineTail = 1.0 / 6 - turnSquared * (1.0 / 120)
        let stepSine = turn * (1 - turnSquared * sineTail)
        let cosineTail = 1.0 / 24 - turnSquared * (1.0 / 720)
        let cosineMiddle = 0.5 - turnSquared * cosineTail
        let stepCosine = 1 - turnSquared * cosineMiddle
        let newSine = s * stepCosine + c * stepSine
        let newCosine = c * stepCosine - s * stepSine
        let newDelta = r * newSine
        let g = height(turns: turns + newDelta * turnsPerPixel, centred: centred + newDelta)
        let t = x + newDelta
        let away = discPointOutside(t, length: length)
        return g + side * (r * newCosine - away)
    }
}

/// How far a disc point whose centre is at t is pushed out of the search: 0 for 0 ≤ t ≤ L,
/// else 10 px for every µpx beyond the stroke's end (its disc is not part of the stroke).
@inlinable @inline(__always)
func discPointOutside(_ t: LaneFloats, length: Float) -> LaneFloats {
    (positivePart(0 - t) + positivePart(t - length)) * 1e7
}

/// The disc angles of the sampled-disc path, set up once per stroke: `samples` angles from
/// −`angle` to `angle`, `step` apart, as the sine and cosine of the first and of the step.
@usableFromInline
struct DiscAngles {
    @usableFromInline let samples: Int
    @usableFromInline let step: Float
    @usableFromInline let startSine: Double
    @usableFromInline let startCosine: Double
    @usableFromInline let stepSine: Double
    @usableFromInline let stepCosine: Double

    /// The angles for `geometry` (a stroke on the sampled-disc path).
    @inlinable
    init(_ geometry: WaveStrokeGeometry) {
        let angle = geometry.discAngle
        samples = geometry.discSamples(angle: angle)
        let step = 2 * angle / Double(samples - 1)
        self.step = Float(step)
        startSine = doubleSine(angle)
        startCosine = doubleSine(angle + Double.pi / 2)
        stepSine = doubleSine(step)
        stepCosine = doubleSine(step + Double.pi / 2)
    }
}

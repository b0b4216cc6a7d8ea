/// The middle path of the stroke kernel: the exact vertical cross-section of a stroke that is
/// too bent for the second-order formula of the fast path but whose offset curves are smooth.
///
/// The top of the stroke at x is hi(x) = max over t of f(t) = g(t) + √(r² − (t − x)²) (the
/// highest point of the discs around the centre line that reach x). At a stationary point
/// g'(t) = (t − x)/√(r² − (t − x)²), i.e. t − x = r·g'/s with s = √(1 + g'²), and there
/// f'' = g'' − s³/r, which is negative wherever r·κ < 1 (κ = g''/s³ the curvature). Every
/// stationary point is then a strict maximum, so there is exactly one: the point where the
/// offset curve (t − r·g'/s, g + r/s) passes above x. Newton's method finds δ = t − x from
/// δ₀ = r·g'(x)/s(x) (F(δ) = δ − r·g'/s, F' = 1 − r·g''/s³ ≥ ½ when r·κ ≤ ½); two steps leave
/// an error far below 1e-4 px for the strokes this path takes, and since f is stationary at the
/// solution, f(x + δ) is wrong only by ½·(s³/r)·(error of δ)². The bottom is the same with −r.
///
/// Near the ends `WaveStrokeEnds` adds the caps, which is exact here too: f is unimodal, so when
/// the solution t falls outside [0, L] the maximum over the stroke's own points is at the end.
///
/// Cost: 12 sines per sub-column edge instead of the fast path's 2, but SIMD: the waveform
/// scene at lineWidth 20 renders in 0.67 ms a frame; on the scalar robust path it took 187 ms.
extension StrokeBandSampler {
    /// [lo, hi] for the lanes x = groupX + lane + offset: exact offsets or the fast formula.
    @inlinable @inline(__always)
    func crossSection(groupX: Int, offset: Double, exact: Bool) -> (LaneFloats, LaneFloats) {
        exact ? offsetCrossSection(groupX: groupX, offset: offset) : crossSection(groupX: groupX, offset: offset)
    }

    /// g, g′ and g″ at the lanes whose phase is `turns` and whose x − L/2 is `centred`.
    @inlinable @inline(__always)
    func curve(turns: LaneFloats, centred: LaneFloats) -> (g: LaneFloats, g1: LaneFloats, g2: LaneFloats) {
        let sine = outlinedSineOfTurns(turns)
        let cosine = outlinedSineOfTurns(turns + 0.25)
        guard parabola else {
            return (baseline + amplitude * sine, (amplitude * omega) * cosine, (-amplitude * omega * omega) * sine)
        }
        let u = centred * scale
        let e = 1 - u * u
        let e1 = -2 * scale * u
        let e2 = -2 * scale * scale
        return (
            baseline + amplitude * e * sine, amplitude * (e1 * sine + omega * e * cosine),
            amplitude * (e2 * sine + 2 * omega * e1 * cosine - omega * omega * e * sine)
        )
    }

    /// g alone (one sine) at the lanes whose phase is `turns` and whose x − L/2 is `centred`.
    @inlinable @inline(__always)
    func height(turns: LaneFloats, centred: LaneFloats) -> LaneFloats {
        height(sine: outlinedSineOfTurns(turns), centred: centred)
    }

    /// g at the lanes whose sin(ωx + φ) is `sine` and whose x − L/2 is `centred`.
    @inlinable @inline(__always)
    func height(sine: LaneFloats, centred: LaneFloats) -> LaneFloats {
        guard parabola else { return baseline + amplitude * sine }
        let u = centred * scale
        return baseline + amplitude * (1 - u * u) * sine
    }

    /// The exact [lo, hi] of the stroke for the sixteen lanes x = groupX + lane + offset, for
    /// strokes with r·κ ≤ ½ (`WaveStrokeGeometry.hasSmoothOffsets`).
    @inlinable @inline(never)
    func offsetCrossSection(groupX: Int, offset: Double) -> (LaneFloats, LaneFloats) {
        let turns = sampler.turns(groupX: groupX, offset: offset)
        let centred = laneOffsets + Float(Double(groupX) + offset - halfLength)
        let slope = curve(turns: turns, centred: centred).g1
        let guess = radius * slope / (1 + slope * slope).squareRoot()
        let high = offsetEdge(turns: turns, centred: centred, start: guess, side: 1)
        let low = offsetEdge(turns: turns, centred: centred, start: -guess, side: -1)
        return (low, high)
    }

    /// The top (side +1) or bottom (side −1) of the stroke: Newton on δ = t − x, then f.
    @inlinable @inline(__always)
    func offsetEdge(turns: LaneFloats, centred: LaneFloats, start: LaneFloats, side: Float) -> LaneFloats {
        let r = radius
        var delta = start
        for _ in 0..<2 {
            let c = curve(turns: turns + delta * turnsPerPixel, centred: centred + delta)
            let stretchSquared = 1 + c.g1 * c.g1
            let stretch = stretchSquared.squareRoot()
            let residual = delta - (side * r) * c.g1 / stretch
            let derivative = 1 - (side * r) * c.g2 / (stretchSquared * stretch)
            delta -= residual / derivative
        }
        // |δ| < r at the solution (|g′/s| < 1); the clamp only guards the square root.
        delta = laneMin(laneMax(delta, LaneFloats(repeating: -r)), LaneFloats(repeating: r))
        let g = height(turns: turns + delta * turnsPerPixel, centred: centred + delta)
        return g + side * laneAbs(r * r - delta * delta).squareRoot()
    }
}

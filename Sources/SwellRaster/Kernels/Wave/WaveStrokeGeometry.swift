/// The centre line of a stroked wave, y = g(x) = baseline + e(x)·A·sin(ωx + φ) on 0 ≤ x ≤ L,
/// with the bounds the stroke kernel uses to pick its path and sub-columns.
@usableFromInline
struct WaveStrokeGeometry {
    @usableFromInline let baseline: Double
    @usableFromInline let amplitude: Double
    @usableFromInline let angular: Double
    @usableFromInline let phase: Double
    @usableFromInline let length: Double
    @usableFromInline let parabola: Bool
    /// Half the stroke width.
    @usableFromInline let radius: Double
    /// Upper bounds of |g'| and |g''| over 0...L.
    @usableFromInline let slopeBound: Double
    @usableFromInline let curvatureBound: Double

    @inlinable
    init(_ stroke: WaveStroke, amplitude: Double) {
        baseline = stroke.wave.baseline
        self.amplitude = amplitude
        angular = 2 * Double.pi / stroke.wave.wavelength
        phase = stroke.wave.phase
        length = stroke.length
        parabola = stroke.envelope == .parabola
        radius = stroke.width / 2
        let a = abs(amplitude)
        let w = abs(angular)
        if parabola {
            // e ≤ 1, |e'| ≤ 4/L, |e''| = 8/L².
            let e1 = 4 / length
            let e2 = 8 / (length * length)
            slopeBound = a * (e1 + w)
            curvatureBound = a * (e2 + 2 * e1 * w + w * w)
        } else {
            slopeBound = a * w
            curvatureBound = a * w * w
        }
    }

    /// The geometry `strokeWave` draws, or nil for a stroke that draws nothing: any non-finite
    /// parameter, |wavelength| < 1e-6 px, width ≤ 0 or length ≤ 0. Amplitude is clamped to
    /// ±1e6 px and width to 2e6 px.
    @inlinable
    init?(drawable stroke: WaveStroke) {
        let wave = stroke.wave
        guard wave.baseline.isFinite, wave.amplitude.isFinite, wave.wavelength.isFinite, wave.phase.isFinite,
            abs(wave.wavelength) >= 1e-6, stroke.width.isFinite, stroke.width > 0, stroke.length.isFinite,
            stroke.length > 0
        else { return nil }
        var clamped = stroke
        clamped.width = min(stroke.width, 2e6)
        self.init(clamped, amplitude: min(max(wave.amplitude, -1e6), 1e6))
    }

    /// g at x (Double, libm sine: used only by the robust path, once per polyline vertex).
    @inlinable
    func centre(_ x: Double) -> Double {
        var e = 1.0
        if parabola {
            let u = (x - length / 2) * (2 / length)
            e = 1 - u * u
        }
        return baseline + e * amplitude * doubleSine(angular * x + phase)
    }

    /// g'(x) (Double, once per op for the caps).
    @inlinable
    func slope(_ x: Double) -> Double {
        let s = doubleSine(angular * x + phase)
        let c = doubleSine(angular * x + phase + Double.pi / 2)
        guard parabola else { return amplitude * angular * c }
        let u = (x - length / 2) * (2 / length)
        let e = 1 - u * u
        let e1 = -2 * u * (2 / length)
        return amplitude * (e1 * s + e * angular * c)
    }

    /// Whether the vertical cross-section g ± r·√(1 + g'²) plus its second-order correction is
    /// accurate: the curvature times the half width (scaled by the slope, which stretches the
    /// vertical cross-section) must be small.
    @inlinable
    var isGentle: Bool {
        let stretch = 1 + slopeBound * slopeBound
        return radius * curvatureBound * stretch <= 0.02 && slopeBound <= 8
    }

    /// Whether the offset curves are smooth enough for the exact SIMD cross-section
    /// (`WaveStrokeOffset`): half width times curvature at most ½ (the offsets cannot fold and
    /// Newton's derivative stays ≥ ½) and a bounded slope.
    @inlinable
    var hasSmoothOffsets: Bool {
        radius * curvatureBound <= 0.5 && slopeBound <= 8
    }

    /// Whether the ends are cut by the normals (butt caps): where the stroke does not fold within
    /// its width of an end, r·|g″| ≤ ½ there (the bound over the 2r + 2 px next to each end).
    /// Where it folds (zig-zags shorter than the width), the region beyond an end normal is
    /// not the end disc's half alone, its column no longer one interval, and the end stays
    /// round (the union of the discs around the curve's points).
    @inlinable
    var hasButtEnds: Bool {
        radius * endCurvatureBound <= 0.5
    }

    /// An upper bound of |g''| within 2r + 2 px of either end.
    @inlinable
    var endCurvatureBound: Double {
        guard parabola else { return curvatureBound }
        let a = abs(amplitude)
        let w = abs(angular)
        // e = 1 − u² with u = 2x/L − 1, so within d of an end e ≤ 1 − (1 − 2d/L)² ≤ 4d/L.
        let d = 2 * radius + 2
        let e = min(1, 4 * d / length)
        let e1 = 4 / length
        let e2 = 8 / (length * length)
        return a * (e2 + 2 * e1 * w + e * w * w)
    }

    /// Disc angles the sampled-disc path (`WaveStrokeDiscs`) takes per cross-section over
    /// [−angle, angle] (`discAngle`): with F = r²·|g''| + r·|g'| + r bounding the second
    /// derivative of a disc point's height over the angle, samples h = 2·angle/(N − 1) apart miss
    /// an extreme by at most F·h²/8 ≤ 0.02 px. At least 9 (its Newton step's rotation series
    /// needs h ≤ π/8).
    @inlinable
    func discSamples(angle: Double) -> Int {
        let bound = radius * radius * curvatureBound + radius * slopeBound + radius
        let intervals = (2 * angle * (bound / (8 * 0.02)).squareRoot()).rounded(.up)
        // NaN fails this test too: such a stroke is left to the robust path.
        guard intervals < Double(Self.maximumDiscSamples) else { return Self.maximumDiscSamples + 1 }
        return max(Int(intervals), 8) + 1
    }

    /// The disc angles that can hold a column's highest or lowest point, |θ| ≤ atan(|g'|max):
    /// there the disc's boundary is parallel to the curve (tan θ = g'). (Extremes at the
    /// stroke's ends are the caps' own candidates.) By bisection (the standard library has no
    /// arctangent): ~100 Double sines, so only strokes that are not gentle ask for it.
    @inlinable
    var discAngle: Double {
        guard slopeBound.isFinite else { return Double.pi / 2 }
        var low = 0.0
        var high = Double.pi / 2
        for _ in 0..<48 {
            let middle = (low + high) / 2
            // tan(middle) < slope ⇔ sin − slope·cos < 0 (cos > 0 on [0, π/2)).
            if doubleSine(middle) - slopeBound * doubleSine(middle + Double.pi / 2) < 0 {
                low = middle
            } else {
                high = middle
            }
        }
        return high
    }

    /// Strokes needing more disc samples than this take the robust envelope (sharp zig-zags of
    /// wavelengths of a few pixels, where the polyline search is no slower).
    @inlinable static var maximumDiscSamples: Int { 128 }

    /// The cheapest accurate method for this stroke: the fast formula when gentle, else the
    /// exact offsets when they are smooth, else sampled discs when few samples suffice, else the
    /// robust envelope.
    @inlinable
    var method: WaveStrokeMethod { methodAndDiscAngles.method }

    /// `method`, with the disc angles when it is the sampled-disc path: choosing that path needs
    /// the angles' count, so the kernel takes them from here rather than bisecting the angle again.
    @inlinable
    var methodAndDiscAngles: (method: WaveStrokeMethod, discAngles: DiscAngles?) {
        if isGentle { return (.fast, nil) }
        if hasSmoothOffsets { return (.exactOffsets, nil) }
        let angles = DiscAngles(self)
        return angles.samples <= Self.maximumDiscSamples ? (.sampledDiscs, angles) : (.robust, nil)
    }
}

/// sin in Double for the robust path. The Swift standard library has no sine without
/// Foundation, so the robust path reduces to [−π/2, π/2] and sums the Taylor series (error < 1e-13).
@inlinable
func doubleSine(_ angle: Double) -> Double {
    let turns = angle / (2 * Double.pi)
    var t = turns - turns.rounded()  // [−½, ½]
    if t > 0.25 { t = 0.5 - t } else if t < -0.25 { t = -0.5 - t }
    let x = t * 2 * Double.pi
    let x2 = x * x
    // Taylor to degree 17: truncation error (π/2)^19/19! < 1e-13.
    var p = 1.0 / 355_687_428_096_000.0
    p = p * x2 - 1.0 / 1_307_674_368_000.0
    p = p * x2 + 1.0 / 6_227_020_800.0
    p = p * x2 - 1.0 / 39_916_800.0
    p = p * x2 + 1.0 / 362_880.0
    p = p * x2 - 1.0 / 5_040.0
    p = p * x2 + 1.0 / 120.0
    p = p * x2 - 1.0 / 6.0
    return x + x * x2 * p
}

/// How the stroke kernel computes a stroke's vertical cross-sections (each has its own cost:
/// the fast formula 2 sines per sample, exact offsets 12, sampled discs N + 6 (N ≤ 128), the
/// robust envelope a scalar search).
@frozen
public enum WaveStrokeMethod: Hashable, Sendable {
    /// Gently bent: g ∓ r·√(1 + g′²) plus the second-order curvature term.
    case fast
    /// Offset curves solved exactly by Newton's method (r·κ ≤ ½, bounded slope).
    case exactOffsets
    /// Bent so far that the offset curves fold (r·κ > ½): the discs' highest and lowest points
    /// sampled over the disc angle in SIMD and refined by a Newton step.
    case sampledDiscs
    /// Sharp zig-zags (more than `maximumDiscSamples` disc samples needed): scalar capsule
    /// envelope of a fine polyline.
    case robust
    /// Draws nothing (non-finite parameters, zero width or length).
    case none
}

/// The method `strokeWave` uses for `stroke` (for tests and tools; the choice depends only on
/// the stroke, never on the clip or the frame).
public func waveStrokeMethod(_ stroke: WaveStroke) -> WaveStrokeMethod {
    WaveStrokeGeometry(drawable: stroke)?.method ?? .none
}

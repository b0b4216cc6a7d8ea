/// How a wave fill splits the rows of its clip: rows above the curve's analytic range are
/// untouched, `curveRows` (the range [baseline − |A| − 1, baseline + |A| + 1] in the clip) are
/// partly covered and drawn column group by column group, and `fullRows` (from there to the
/// bottom of the clip) are fully covered: every pixel of such a row gets the same constant-alpha
/// blend (`WaveBlender.fullSpan`). `fillWave` draws both; the frame renderer's lazy rows use the
/// split to keep full rows of full-width fills as one colour per row (BandDrawing.swift).
@frozen
public struct WaveFillRows {
    /// The clip inside the surface: the only pixels the fill touches.
    public let area: ClipRect
    /// Rows where the curve may lie (partly covered), inside `area`.
    public let curveRows: Range<Int>
    /// Fully covered rows: `curveRows.upperBound ..< area.y1`.
    public var fullRows: Range<Int> { curveRows.upperBound..<area.y1 }
    @usableFromInline let amplitude: Double
    /// The top row of the curve's range, unclipped: the origin of the kernel's Float rows.
    @usableFromInline let origin: Int

    /// Nil when the fill draws nothing: empty clip, zero alpha or degenerate wave parameters
    /// (non-finite, or |wavelength| < 1e-6 px).
    @inlinable
    public init?(_ shape: Wave, _ source: SourceColor, surface: PixelSurface, clip: ClipRect) {
        let area = clip.intersection(surface.bounds)
        guard !area.isEmpty, source.alpha > 0 else { return nil }
        guard shape.baseline.isFinite, shape.amplitude.isFinite, shape.wavelength.isFinite, shape.phase.isFinite,
            abs(shape.wavelength) >= 1e-6
        else { return nil }
        let amplitude = min(max(shape.amplitude, -1e6), 1e6)
        let reach = abs(amplitude) + 1
        let topValue = (shape.baseline - reach).rounded(.down)
        let bottomValue = (shape.baseline + reach).rounded(.up)
        @inline(__always) func clampedRow(_ value: Double) -> Int {
            value <= Double(area.y0) ? area.y0 : (value >= Double(area.y1) ? area.y1 : Int(value))
        }
        let top = clampedRow(topValue)
        self.area = area
        self.curveRows = top..<max(top, clampedRow(bottomValue))
        self.amplitude = amplitude
        // The origin of the Float row coordinates is the op's own range top, not the clip's, so
        // every pixel is computed the same way however the clip cuts the frame. (Clamped so a
        // far-away wave with no curve rows cannot trap; it is only used when curveRows is not empty.)
        self.origin = Int(min(max(topValue, -4e15), 4e15))
    }

    /// Draws the partly covered rows (`curveRows`) only. With `virtualColors` (a frame
    /// renderer's uniform row colours, indexed by absolute row) the still-virtual rows among
    /// them are blended from their colour without being read, and every pixel of `area` in
    /// `curveRows` is written (see `fillWaveBand`) but those `hidden` names.
    @inlinable
    public func drawCurve(
        _ surface: PixelSurface, _ shape: Wave, _ source: SourceColor, virtualColors: UnsafePointer<UInt32>? = nil,
        hidden: HiddenGroups? = nil
    ) {
        guard !curveRows.isEmpty else { return }
        fillWaveBand(
            surface, shape, amplitude: amplitude, source, columns: area.x0..<area.x1, rows: curveRows, origin: origin,
            virtualColors: virtualColors, hidden: hidden)
    }
}

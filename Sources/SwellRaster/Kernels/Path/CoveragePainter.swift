/// What a coverage-producing kernel (the path fill) composites with each pixel's coverage:
/// a solid colour, or an image through the coverage as a mask. Generic, so each painter
/// specialises into the kernel with no dynamic dispatch per pixel.
public protocol CoveragePainter {
    /// Composites lanes x..<x+count (count in 1...16) of row `y` with per-lane coverage in 0...1.
    func paint(_ row: UnsafeMutablePointer<UInt32>, y: Int, x: Int, count: Int, coverage: LaneFloats)
    /// Composites pixels x0..<x1 of row `y` at one coverage value.
    func paintSpan(_ row: UnsafeMutablePointer<UInt32>, y: Int, from x0: Int, to x1: Int, coverage: Float)
}

/// A solid colour: source-over with alpha = source alpha · coverage.
@frozen
public struct SolidPainter: CoveragePainter {
    public let source: SourceColor

    @inlinable
    public init(_ source: SourceColor) { self.source = source }

    @inlinable @inline(__always)
    public func paint(_ row: UnsafeMutablePointer<UInt32>, y: Int, x: Int, count: Int, coverage: LaneFloats) {
        blendLanes(row, at: x, count: count, source, alpha: coverage * source.alpha)
    }

    @inlinable @inline(__always)
    public func paintSpan(_ row: UnsafeMutablePointer<UInt32>, y: Int, from x0: Int, to x1: Int, coverage: Float) {
        blendSpan(row, from: x0, to: x1, source, alpha: coverage * source.alpha)
    }
}

/// A half-open rectangle of whole pixels, [x0, x1) x [y0, y1): the region an op may touch.
@frozen
public struct ClipRect: Equatable, Sendable {
    public var x0: Int
    public var y0: Int
    public var x1: Int
    public var y1: Int

    @inlinable
    public init(x0: Int, y0: Int, x1: Int, y1: Int) {
        self.x0 = x0
        self.y0 = y0
        self.x1 = x1
        self.y1 = y1
    }

    @inlinable public var isEmpty: Bool { x0 >= x1 || y0 >= y1 }

    /// The overlap of two rectangles (empty when they do not meet).
    @inlinable
    public func intersection(_ other: ClipRect) -> ClipRect {
        ClipRect(x0: max(x0, other.x0), y0: max(y0, other.y0), x1: min(x1, other.x1), y1: min(y1, other.y1))
    }

    /// The rectangle moved by (dx, dy).
    @inlinable
    public func offsetBy(_ dx: Int, _ dy: Int) -> ClipRect {
        ClipRect(x0: x0 &+ dx, y0: y0 &+ dy, x1: x1 &+ dx, y1: y1 &+ dy)
    }
}

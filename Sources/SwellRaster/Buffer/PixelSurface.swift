/// A non-owning view of XRGB8888 pixels: the one type every raster kernel draws into.
///
/// Memory layout: row `y` starts at `base + y * stride`; each pixel is a little-endian
/// `UInt32` 0xXXRRGGBB, i.e. bytes B, G, R, X in memory. `stride` is in bytes and may exceed
/// `width * 4` (padded dumb buffers and framebuffers), but must be a multiple of 4.
///
/// A plain struct of a pointer and three integers (plus the owner of the memory): kernels pass it
/// freely, with no reference counting or exclusivity checks in inner loops. A surface taken from
/// a `PixelBuffer` keeps that buffer's memory alive for as long as the surface exists, so
/// `PixelBuffer(...).surface` is safe even after the optimiser ends the buffer's own lifetime;
/// a surface made from a raw pointer relies on its maker to keep the memory alive.
/// It is `Sendable` so threads can render disjoint bands of one surface; writing the same
/// pixels from two threads is the caller's bug, as with any raw pointer.
@frozen
public struct PixelSurface: @unchecked Sendable {
    public let base: UnsafeMutableRawPointer
    public let width: Int
    public let height: Int
    public let stride: Int
    /// Whatever owns the memory (nil when the maker of the surface manages it).
    public let owner: AnyObject?

    @inlinable
    public init(base: UnsafeMutableRawPointer, width: Int, height: Int, stride: Int, owner: AnyObject? = nil) {
        precondition(width > 0 && height > 0, "a surface needs a positive size")
        precondition(stride >= width * 4 && stride % 4 == 0, "stride must be >= width*4 and a multiple of 4")
        self.base = base
        self.width = width
        self.height = height
        self.stride = stride
        self.owner = owner
    }

    /// The first pixel of row `y` (unchecked: callers clip first).
    @inlinable @inline(__always)
    public func row(_ y: Int) -> UnsafeMutablePointer<UInt32> {
        (base + y &* stride).assumingMemoryBound(to: UInt32.self)
    }

    /// The whole surface as a clip rectangle.
    @inlinable
    public var bounds: ClipRect { ClipRect(x0: 0, y0: 0, x1: width, y1: height) }

    /// Reads one pixel (bounds-checked; for tests and tools, not for kernels).
    public func pixel(x: Int, y: Int) -> UInt32 {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) is outside \(width)x\(height)")
        return row(y)[x]
    }

    /// The same pixels addressed from `origin`: its (0, 0) is this surface's `origin`, reaching
    /// this surface's right and bottom edges (rows above the surface when `origin.y < 0` lie
    /// outside the memory: callers clip to this surface's bounds first). Nil when `origin` lies
    /// left of, right of or below the surface.
    @inlinable
    public func placed(at origin: PixelOrigin) -> PixelSurface? {
        guard origin.x >= 0, origin.x < width, origin.y < height else { return nil }
        return PixelSurface(
            base: base + origin.y &* stride + origin.x &* 4, width: width - origin.x, height: height - origin.y,
            stride: stride, owner: owner)
    }
}

/// A straight-alpha (not premultiplied) sRGB colour, components in 0...1.
///
/// Compositing happens in sRGB space without linearisation, as Cairo, Skia and pixman do.
@frozen
public struct Color: Equatable, Sendable {
    public var r: Double
    public var g: Double
    public var b: Double
    public var a: Double

    @inlinable
    public init(r: Double, g: Double, b: Double, a: Double = 1) {
        self.r = r
        self.g = g
        self.b = b
        self.a = a
    }

    public static let white = Color(r: 1, g: 1, b: 1)
    public static let black = Color(r: 0, g: 0, b: 0)

    /// The colour as an opaque XRGB8888 pixel (alpha ignored), each channel rounded.
    @inlinable
    public var opaquePixel: UInt32 {
        func channel(_ v: Double) -> UInt32 { UInt32((min(max(v, 0), 1) * 255).rounded()) }
        return 0xFF00_0000 | channel(r) << 16 | channel(g) << 8 | channel(b)
    }
}

/// A colour prepared once per op for the blend kernels: channels scaled to 0...255 (not
/// rounded, so a blend is exact to the 8-bit output) and the op's alpha.
@frozen
public struct SourceColor {
    public let red: Float
    public let green: Float
    public let blue: Float
    public let alpha: Float
    /// The pixel written where the source is opaque and fully covers a pixel.
    public let opaquePixel: UInt32

    @inlinable
    public init(_ color: Color) {
        @inline(__always) func clamp01(_ v: Double) -> Double { v.isNaN ? 0 : min(max(v, 0), 1) }
        red = Float(clamp01(color.r) * 255)
        green = Float(clamp01(color.g) * 255)
        blue = Float(clamp01(color.b) * 255)
        alpha = Float(clamp01(color.a))
        opaquePixel = Color(r: clamp01(color.r), g: clamp01(color.g), b: clamp01(color.b)).opaquePixel
    }
}

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
    /// For the 16-bit ("lowp") edge blend of the ring kernel (`blendCovered`): the opaque
    /// pixel's red and blue bytes in the two 16-bit halves of a word (0x00RR_00BB), its green
    /// byte in the low half (0x0000_00GG), and the alpha scaled to 0...255.
    public let redBlueHalves: UInt32
    public let greenHalves: UInt32
    public let byteAlpha: Float

    @inlinable
    public init(_ color: Color) {
        @inline(__always) func clamp01(_ v: Double) -> Double { v.isNaN ? 0 : min(max(v, 0), 1) }
        red = Float(clamp01(color.r) * 255)
        green = Float(clamp01(color.g) * 255)
        blue = Float(clamp01(color.b) * 255)
        alpha = Float(clamp01(color.a))
        opaquePixel = Color(r: clamp01(color.r), g: clamp01(color.g), b: clamp01(color.b)).opaquePixel
        redBlueHalves = opaquePixel & 0x00FF_00FF
        greenHalves = (opaquePixel >> 8) & 0xFF
        byteAlpha = alpha * 255
    }
}

import SwellRaster

/// One step of a scene's frame, in drawing order.
public enum SceneOp {
    /// A raster shape in a colour (ring, disc, wave fill/stroke, path).
    case draw(DrawCommand)
    /// Starts a layer: what is on the surface now is remembered as "below" the layer.
    case beginLayer
    /// Ends the layer, keeping it only as much as the mask's alpha (SwiftUI's `.mask`).
    case endLayer(HorizontalGradientMask)
    /// An image already scaled to the frame, composited whole at `alpha`.
    case image(PixelBuffer, alpha: Float)
    /// An image already scaled to the frame, shown only inside `path` (anti-aliased edge).
    case maskedImage(PixelBuffer, Path)
}

/// The size of the frame a scene draws, in pixels.
public struct FrameSize: Equatable, Sendable {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}

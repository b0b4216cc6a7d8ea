import SwellRaster

/// Plays a stack of scenes onto a surface: input goes to every layer, frames are the layers'
/// ops composited bottom to top over one background. Reuses its op list and layer scratch
/// buffer, so after the first frame of a given size it allocates nothing itself (scenes that
/// rebuild paths keep their own storage).
public final class ScenePlayer {
    public private(set) var layers: [any Scene]
    public let background: Color
    private var ops: [SceneOp] = []
    private var below: PixelBuffer?

    public init(layers: [any Scene], background: Color? = nil) {
        precondition(!layers.isEmpty, "a player needs at least one scene")
        self.layers = layers
        self.background = background ?? layers[0].background
    }

    public func handle(_ event: TouchEvent) {
        for index in layers.indices { layers[index].handle(event) }
    }

    public func isIdle(at time: Double) -> Bool {
        layers.allSatisfy { $0.isIdle(at: time) }
    }

    /// Draws the frame at `time` into `surface` (every pixel is written).
    public func render(at time: Double, into surface: PixelSurface) {
        ops.removeAll(keepingCapacity: true)
        let size = FrameSize(width: surface.width, height: surface.height)
        for index in layers.indices { layers[index].render(at: time, size: size, into: &ops) }
        clear(surface, color: background, clip: surface.bounds)
        let bounds = surface.bounds
        for op in ops {
            switch op {
            case .draw(let command):
                draw(command, on: surface, within: bounds)
            case .beginLayer:
                if below == nil || below!.width != surface.width || below!.height != surface.height {
                    below = PixelBuffer(width: surface.width, height: surface.height)
                }
                compositeImage(below!.surface, surface, alpha: 1, clip: bounds)
            case .endLayer(let mask):
                if let below { applyLayerMask(surface, below: below.surface, mask, clip: bounds) }
            case .image(let image, let alpha):
                compositeImage(surface, image.surface, alpha: alpha, clip: bounds)
            case .maskedImage(let image, let path):
                fillPath(surface, path, painter: ImagePainter(image.surface), clip: bounds)
            }
        }
        // Release the references the ops hold (paths, images) so scenes can mutate their
        // storage in place next frame instead of copying it.
        ops.removeAll(keepingCapacity: true)
    }
}

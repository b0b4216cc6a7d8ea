import SwellRaster

/// Plays a stack of scenes onto a surface: input goes to every layer, frames are the layers'
/// ops composited bottom to top over one background. Reuses its op list, command list and
/// layer scratch buffer, so after the first frame of a given size it allocates nothing itself
/// (scenes that rebuild paths keep their own storage).
///
/// Frames made only of shapes (ripples, waves, the elastic panel) go through SwellRaster's
/// banded `FrameRenderer` (cache-friendly bands, optionally several threads; the output is the
/// same for any thread count); frames with layers or images are composited op by op.
public final class ScenePlayer {
    public private(set) var layers: [any Scene]
    public let background: Color
    private var ops: [SceneOp] = []
    private var shapes: Frame
    private let renderer: FrameRenderer
    private var below: PixelBuffer?

    /// `threads` > 1 renders shape-only frames in bands on that many threads.
    public init(layers: [any Scene], background: Color? = nil, threads: Int = 1) {
        precondition(!layers.isEmpty, "a player needs at least one scene")
        self.layers = layers
        self.background = background ?? layers[0].background
        shapes = Frame(width: 1, height: 1, background: self.background, commands: [])
        renderer = FrameRenderer(threads: threads)
        // Room for a full ripple pond (1000 rings) and an overlay, so the lists do not grow mid-show.
        ops.reserveCapacity(1024)
        shapes.commands.reserveCapacity(1024)
    }

    public func handle(_ event: TouchEvent) {
        for index in layers.indices { layers[index].handle(event) }
    }

    public func isIdle(at time: Double) -> Bool {
        layers.allSatisfy { $0.isIdle(at: time) }
    }

    /// The earliest time a layer's timer moves it again (nil: only input moves the layers).
    public func nextWake(after time: Double) -> Double? {
        layers.reduce(nil) { earliest, layer in
            guard let wake = layer.nextWake(after: time) else { return earliest }
            return min(earliest ?? wake, wake)
        }
    }

    /// Draws the frame at `time` into `surface` (every pixel is written).
    public func render(at time: Double, into surface: PixelSurface) {
        ops.removeAll(keepingCapacity: true)
        let size = FrameSize(width: surface.width, height: surface.height)
        for index in layers.indices { layers[index].render(at: time, size: size, into: &ops) }
        if renderShapesOnly(into: surface) { return }
        clear(surface, color: background, clip: surface.bounds)
        let bounds = surface.bounds
        var layerClip = bounds
        for (index, op) in ops.enumerated() {
            switch op {
            case .draw(let command):
                draw(command, on: surface, within: bounds)
            case .beginLayer:
                if below == nil || below!.width != surface.width || below!.height != surface.height {
                    below = PixelBuffer(width: surface.width, height: surface.height)
                }
                // Only the rows the layer's ops can touch are saved and masked: elsewhere the
                // layer left the pixels as they were, and mixing a pixel with itself gives it back
                // exactly, so the frame is the same bytes (a waveform bundle covers ~1/5 of the rows).
                let rows = layerRows(after: index, frameHeight: surface.height)
                layerClip = ClipRect(x0: bounds.x0, y0: rows.lowerBound, x1: bounds.x1, y1: rows.upperBound)
                compositeImage(below!.surface, surface, alpha: 1, clip: layerClip)
            case .endLayer(let mask):
                if let below { applyLayerMask(surface, below: below.surface, mask, clip: layerClip) }
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

    /// The rows the ops of the layer opened at `ops[begin]` can change: the union of their
    /// shapes' row extents (conservative), or every row if the layer holds an image.
    private func layerRows(after begin: Int, frameHeight: Int) -> Range<Int> {
        var top = frameHeight
        var bottom = 0
        for op in ops[(begin + 1)...] {
            switch op {
            case .draw(let command):
                let extent = rowExtent(of: command.shape, frameHeight: frameHeight)
                guard extent.top < extent.bottom else { continue }
                top = min(top, extent.top)
                bottom = max(bottom, extent.bottom)
            case .endLayer:
                return top < bottom ? top..<bottom : 0..<0
            case .beginLayer, .image, .maskedImage:
                return 0..<frameHeight
            }
        }
        return 0..<frameHeight
    }

    /// Renders through the banded renderer when every op is a plain shape.
    private func renderShapesOnly(into surface: PixelSurface) -> Bool {
        for op in ops {
            guard case .draw = op else { return false }
        }
        shapes.width = surface.width
        shapes.height = surface.height
        shapes.commands.removeAll(keepingCapacity: true)
        for op in ops {
            if case .draw(let command) = op { shapes.commands.append(command) }
        }
        ops.removeAll(keepingCapacity: true)
        renderer.render(shapes, into: surface)
        shapes.commands.removeAll(keepingCapacity: true)
        return true
    }
}

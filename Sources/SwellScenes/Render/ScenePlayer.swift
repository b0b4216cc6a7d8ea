import SwellRaster

/// Plays a stack of scenes onto a surface: input goes to every layer, and a frame is the layers'
/// ops, bottom to top over one background, collected into one display list that SwellRaster's
/// `FrameRenderer` renders in bands (on `threads` threads; the output is the same for any
/// thread count). The player composites nothing itself.
///
/// Damage: the renderer compares each frame's ops with the previous frame's into the same
/// surface and draws only the rectangles that can differ; `render(at:into:)` returns them, for a
/// presenter to copy only those. A frame with nothing changed draws nothing. Reuses its op list,
/// so after the first frame of a given size it allocates nothing itself (scenes that rebuild
/// paths keep their own storage).
public final class ScenePlayer {
    public private(set) var layers: [any Scene]
    public let background: Color
    private var list: DisplayList
    private let renderer: FrameRenderer
    /// Whether frames draw only what changed (false: every frame is drawn whole).
    public var tracksDamage = true

    /// `threads` > 1 renders frames in bands on that many threads.
    public init(layers: [any Scene], background: Color? = nil, threads: Int = 1) {
        precondition(!layers.isEmpty, "a player needs at least one scene")
        self.layers = layers
        self.background = background ?? layers[0].background
        list = DisplayList(width: 1, height: 1, background: self.background)
        renderer = FrameRenderer(threads: threads)
        // Room for a full ripple pond (1000 rings) and an overlay, so the list does not grow mid-show.
        list.commands.reserveCapacity(1024)
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

    /// Draws the frame at `time` into `surface` and returns the pixels that may differ from the
    /// previous frame drawn into the same surface (the whole frame for the first frame on a
    /// surface or size, after `redrawAll()`, or when `tracksDamage` is off); pixels outside it
    /// keep the previous frame's bytes. Empty: nothing changed, nothing was drawn. The damage is
    /// the renderer's storage: copy it (`Damage.formUnion`) to keep it past the next frame.
    @discardableResult
    public func render(at time: Double, into surface: PixelSurface) -> Damage {
        list.commands.removeAll(keepingCapacity: true)
        list.width = surface.width
        list.height = surface.height
        let size = FrameSize(width: surface.width, height: surface.height)
        for index in layers.indices { layers[index].render(at: time, size: size, into: &list.commands) }
        let damage = renderer.render(list, into: surface, tracksDamage: tracksDamage)
        // Release the references the ops hold (paths, images) so scenes can mutate their
        // storage in place next frame instead of copying it.
        list.commands.removeAll(keepingCapacity: true)
        return damage
    }

    /// Makes the next frame draw every pixel: for a surface whose contents were lost or written
    /// by someone else (a presenter's new back buffer). A new or resized surface is noticed on
    /// its own.
    public func redrawAll() { renderer.invalidate() }
}

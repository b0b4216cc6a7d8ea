import SwellRaster

/// Plays a stack of scenes onto a surface: input goes to every layer, and a frame is the layers'
/// ops, bottom to top over one background, collected into one display list that SwellRaster's
/// `FrameRenderer` renders in bands (on `threads` threads; the output is the same for any
/// thread count). The player composites nothing itself.
///
/// Placed elements (a layer with a `Placement` frame) render at their frame's size; their draw
/// commands get the frame's origin and a clip to the frame (grown by a button's bounce), so
/// placement is part of the one display list. Touches reach an element in its own coordinates;
/// a touch that begins on a button goes to the topmost such button only (not to what is under
/// it), and its end inside the button runs the button's action on its target.
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

    /// A layer's id and frame in a page (nil frame: the whole screen).
    public struct Placement {
        public var id: String?
        public var frame: ElementFrame?

        public init(id: String? = nil, frame: ElementFrame? = nil) {
            self.id = id
            self.frame = frame
        }
    }

    public let placements: [Placement]
    /// The screen's size: set by each frame, or before the first for touches that come first
    /// (touches are placed against it).
    public var screen = FrameSize(width: 1, height: 1)
    /// Fingers whose touch began on a button: the button's layer index.
    private var pressed: [Int: Int] = [:]

    /// `threads` > 1 renders frames in bands on that many threads.
    public init(layers: [any Scene], background: Color? = nil, threads: Int = 1, placements: [Placement] = []) {
        precondition(!layers.isEmpty, "a player needs at least one scene")
        self.layers = layers
        self.placements = layers.indices.map { $0 < placements.count ? placements[$0] : Placement() }
        self.background = background ?? layers[0].background
        list = DisplayList(width: 1, height: 1, background: self.background)
        renderer = FrameRenderer(threads: threads)
        // Room for a full ripple pond (1000 rings) and an overlay, so the list does not grow mid-show.
        list.commands.reserveCapacity(1024)
    }

    /// The pixels of layer `index` on the last frame's screen.
    public func frameRect(of index: Int) -> ClipRect {
        (placements[index].frame ?? .fullScreen).rect(width: screen.width, height: screen.height)
    }

    public func handle(_ event: TouchEvent) {
        if event.phase == .began, let button = topmostButton(at: event) { pressed[event.finger] = button }
        if let button = pressed[event.finger] {
            layers[button].handle(placed(event, in: frameRect(of: button)))
            if event.phase == .ended {
                pressed[event.finger] = nil
                if contains(frameRect(of: button), event) { runAction(of: button, at: event.time) }
            }
            return
        }
        for index in layers.indices {
            let rect = frameRect(of: index)
            if event.phase == .began && !contains(rect, event) { continue }
            layers[index].handle(placed(event, in: rect))
        }
    }

    private func topmostButton(at event: TouchEvent) -> Int? {
        layers.indices.reversed().first { layers[$0] is ButtonScene && contains(frameRect(of: $0), event) }
    }

    private func contains(_ rect: ClipRect, _ event: TouchEvent) -> Bool {
        event.x >= Double(rect.x0) && event.x < Double(rect.x1) && event.y >= Double(rect.y0)
            && event.y < Double(rect.y1)
    }

    private func placed(_ event: TouchEvent, in rect: ClipRect) -> TouchEvent {
        var moved = event
        moved.x -= Double(rect.x0)
        moved.y -= Double(rect.y0)
        return moved
    }

    private func runAction(of button: Int, at time: Double) {
        guard let action = (layers[button] as? ButtonScene)?.action, action.kind != "none" else { return }
        guard let target = placements.firstIndex(where: { $0.id == action.target }),
            var scene = layers[target] as? any ActionTarget & Scene
        else { return }
        if scene.perform(action.kind, at: time) { layers[target] = scene }
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
        screen = size
        for index in layers.indices { renderLayer(index, at: time, screen: size) }
        let damage = renderer.render(list, into: surface, tracksDamage: tracksDamage)
        // Release the references the ops hold (paths, images) so scenes can mutate their
        // storage in place next frame instead of copying it.
        list.commands.removeAll(keepingCapacity: true)
        return damage
    }

    /// Renders layer `index` at its frame's size and places its draw commands on the screen.
    private func renderLayer(_ index: Int, at time: Double, screen: FrameSize) {
        guard placements[index].frame != nil else {
            layers[index].render(at: time, size: screen, into: &list.commands)
            return
        }
        let rect = frameRect(of: index)
        guard !rect.isEmpty else { return }
        let start = list.commands.count
        layers[index].render(
            at: time, size: FrameSize(width: rect.x1 - rect.x0, height: rect.y1 - rect.y0), into: &list.commands)
        let grow = (layers[index] as? ButtonScene)?.overflow ?? 0
        let visible = ClipRect(x0: rect.x0 - grow, y0: rect.y0 - grow, x1: rect.x1 + grow, y1: rect.y1 + grow)
        let origin = PixelOrigin(x: rect.x0, y: rect.y0)
        for op in start..<list.commands.count { list.commands[op] = placed(list.commands[op], at: origin, in: visible) }
    }

    /// An element's op moved to its frame: drawn from the frame's origin and clipped to
    /// `visible` (the frame, or a bouncing button's room).
    private func placed(_ op: SceneOp, at origin: PixelOrigin, in visible: ClipRect) -> SceneOp {
        let placement = OpPlacement(origin: origin, clip: visible)
        switch op {
        case .draw(var command):
            command.origin = origin
            command.clip = command.clip.map { $0.offsetBy(origin.x, origin.y).intersection(visible) } ?? visible
            return .draw(command)
        case .beginLayer: return op
        case .endLayer(let mask, _): return .endLayer(mask, at: placement)
        case .image(let image, let alpha, _): return .image(image, alpha: alpha, at: placement)
        case .maskedImage(let image, let path, _): return .maskedImage(image, path, at: placement)
        }
    }

    /// Makes the next frame draw every pixel: for a surface whose contents were lost or written
    /// by someone else (a presenter's new back buffer). A new or resized surface is noticed on
    /// its own.
    public func redrawAll() { renderer.invalidate() }
}

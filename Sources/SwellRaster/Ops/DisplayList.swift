/// One frame's description: every kind of op a frame is made of, in drawing order, over an opaque
/// background. `FrameRenderer` renders it in bands on every thread; `render(_:into:)` below is
/// the plain op-by-op reference it is tested against (Blend2D's model: the fast pipeline checked
/// against a plain one).

/// One step of a frame, in drawing order.
public enum FrameCommand {
    /// A raster shape in a colour (ring, disc, wave fill/stroke, path, and whatever `Shape` gains).
    case draw(DrawCommand)
    /// Starts a layer: what is on the surface now is remembered as "below" the layer.
    case beginLayer
    /// Ends the layer, keeping it only as much as the mask's alpha (SwiftUI's `.mask`). A layer
    /// begun and never ended, or an end with no layer begun, does nothing. The mask's x is in
    /// the placement's coordinates.
    case endLayer(HorizontalGradientMask, at: OpPlacement = .none)
    /// An image already scaled to its frame, composited whole at `alpha`, its (0, 0) at the
    /// placement's origin.
    case image(PixelBuffer, alpha: Float, at: OpPlacement = .none)
    /// An image already scaled to its frame, shown only inside `path` (anti-aliased edge); both
    /// in the placement's coordinates.
    case maskedImage(PixelBuffer, Path, at: OpPlacement = .none)
}

/// Where an op lands: its (0, 0) at `origin` on the surface, drawn only inside `clip` (surface
/// coordinates; nil: anywhere). The one placement of every op that draws (a shape's is its
/// `DrawCommand`'s): a scene's ops are unplaced (`.none`) and the page moves those of a placed
/// element with `FrameCommand.place(_:)` (ScenePlayer).
public struct OpPlacement: Equatable, Sendable {
    public var origin: PixelOrigin
    public var clip: ClipRect?

    @inlinable
    public init(origin: PixelOrigin, clip: ClipRect?) {
        self.origin = origin
        self.clip = clip
    }

    public static let none = OpPlacement(origin: .zero, clip: nil)

    /// This placement inside `element`'s: moved by its origin and cut to its clip (an unplaced
    /// op's, `.none`, becomes `element`).
    @inlinable
    public func within(_ element: OpPlacement) -> OpPlacement {
        let moved = PixelOrigin(x: origin.x + element.origin.x, y: origin.y + element.origin.y)
        guard let clip else { return OpPlacement(origin: moved, clip: element.clip) }
        let shifted = clip.offsetBy(element.origin.x, element.origin.y)
        return OpPlacement(origin: moved, clip: element.clip.map { shifted.intersection($0) } ?? shifted)
    }

    /// `surface` addressed from the origin and `area` (surface coordinates) cut to the clip and
    /// moved into the op's coordinates; nil when nothing of the op can show.
    @inlinable
    public func target(_ surface: PixelSurface, within area: ClipRect) -> (surface: PixelSurface, clip: ClipRect)? {
        var area = area.intersection(surface.bounds)
        if let clip { area = area.intersection(clip) }
        guard !area.isEmpty else { return nil }
        if origin == .zero { return (surface, area) }
        guard let placed = surface.placed(at: origin) else { return nil }
        return (placed, area.offsetBy(-origin.x, -origin.y))
    }

    /// A rectangle in the op's coordinates as the surface pixels it covers (cut to the clip).
    @inlinable
    public func onSurface(_ rect: ClipRect) -> ClipRect {
        let moved = rect.offsetBy(origin.x, origin.y)
        return clip.map { moved.intersection($0) } ?? moved
    }
}

extension FrameCommand {
    /// Where the op lands (`.none` for a layer's start, which draws nothing).
    @inlinable
    public var placement: OpPlacement {
        switch self {
        case .draw(let command): command.placement
        case .beginLayer: .none
        case .endLayer(_, let placement), .image(_, _, let placement), .maskedImage(_, _, let placement): placement
        }
    }

    /// Places an element's op on the surface: its placement moved into `element` (the element's
    /// origin and clip; `OpPlacement.within`).
    @inlinable
    public mutating func place(_ element: OpPlacement) {
        switch self {
        case .draw(var command):
            command.placement = command.placement.within(element)
            self = .draw(command)
        case .beginLayer: break
        case .endLayer(let mask, let placement): self = .endLayer(mask, at: placement.within(element))
        case .image(let image, let alpha, let placement):
            self = .image(image, alpha: alpha, at: placement.within(element))
        case .maskedImage(let image, let path, let placement):
            self = .maskedImage(image, path, at: placement.within(element))
        }
    }
}

/// A frame: an opaque background and commands composited in order.
public struct DisplayList {
    public var width: Int
    public var height: Int
    public var background: Color
    public var commands: [FrameCommand]

    public init(width: Int, height: Int, background: Color, commands: [FrameCommand] = []) {
        self.width = width
        self.height = height
        self.background = background
        self.commands = commands
    }

    /// A frame of shapes only (a `drawlist/1` file, the benchmarks' and tests' frames).
    public init(width: Int, height: Int, background: Color, shapes: [DrawCommand]) {
        self.init(width: width, height: height, background: background)
        commands.reserveCapacity(shapes.count)
        for shape in shapes { commands.append(.draw(shape)) }
    }

    /// Appends a shape, drawn over everything before it.
    public mutating func append(_ shape: DrawCommand) {
        commands.append(.draw(shape))
    }
}

/// The plain reference: background, then every command in order, each over the whole frame; a
/// layer keeps a whole-frame copy of what was below it. Allocates a buffer per layer: it is the
/// statement of what a frame means, not the fast road (`FrameRenderer`). A list without layers
/// allocates nothing (RasterBench times this op-by-op pipeline and counts its allocations).
public func render(_ list: DisplayList, into surface: PixelSurface) {
    precondition(
        surface.width == list.width && surface.height == list.height, "surface size differs from the list's")
    let bounds = surface.bounds
    clear(surface, color: list.background, clip: bounds)
    // No layer begins: every end is unmatched, and no pairs (an array) are needed.
    let partners = list.commands.contains(where: isBeginLayer) ? layerPartners(list.commands) : []
    var below: [PixelBuffer] = []
    for (index, command) in list.commands.enumerated() {
        switch command {
        case .draw(let shape):
            draw(shape, on: surface, within: bounds)
        case .beginLayer:
            guard partners[index] != nil else { continue }
            let copy = PixelBuffer(width: surface.width, height: surface.height)
            compositeImage(copy.surface, surface, alpha: 1, clip: bounds)
            below.append(copy)
        case .endLayer(let mask, let placement):
            guard !partners.isEmpty, partners[index] != nil, let under = below.popLast() else { continue }
            guard let on = placement.target(surface, within: bounds),
                let from = placement.target(under.surface, within: bounds)
            else { continue }
            applyLayerMask(on.surface, below: from.surface, mask, clip: on.clip)
        case .image(let image, let alpha, let placement):
            guard let on = placement.target(surface, within: bounds) else { continue }
            compositeImage(on.surface, image.surface, alpha: alpha, clip: on.clip)
        case .maskedImage(let image, let path, let placement):
            guard let on = placement.target(surface, within: bounds) else { continue }
            fillPath(on.surface, path, painter: ImagePainter(image.surface), clip: on.clip)
        }
    }
}

private func isBeginLayer(_ command: FrameCommand) -> Bool {
    if case .beginLayer = command { return true }
    return false
}

/// For each `beginLayer` its `endLayer`'s index and for each `endLayer` its `beginLayer`'s
/// (nil for unmatched ones and for every other command). For the reference and tests; the
/// renderer pairs layers with its own reused storage.
public func layerPartners(_ commands: [FrameCommand]) -> [Int?] {
    var partners = [Int?](repeating: nil, count: commands.count)
    var open: [Int] = []
    for (index, command) in commands.enumerated() {
        switch command {
        case .beginLayer: open.append(index)
        case .endLayer:
            guard let begin = open.popLast() else { continue }
            partners[begin] = index
            partners[index] = begin
        default: break
        }
    }
    return partners
}

/// The pixels a command can change in a `width` x `height` frame, conservatively (it may
/// overestimate, never underestimate; FrameRendererTests). Layer ends are the union of their
/// contents (the caller knows the pairs); this gives the rectangle of one command on its own.
@inlinable
public func bounds(of command: FrameCommand, width: Int, height: Int) -> ClipRect {
    let frame = ClipRect(x0: 0, y0: 0, x1: width, y1: height)
    switch command {
    case .draw(let shape):
        return bounds(of: shape, width: width, height: height)
    case .beginLayer, .endLayer:
        return ClipRect(x0: 0, y0: 0, x1: 0, y1: 0)
    case .image(let image, let alpha, let placement):
        guard alpha > 0 else { return ClipRect(x0: 0, y0: 0, x1: 0, y1: 0) }
        return nonEmpty(frame.intersection(placement.onSurface(image.surface.bounds)))
    case .maskedImage(let image, let path, let placement):
        let outline = bounds(of: DrawCommand(.path(path), color: .white, at: placement), width: width, height: height)
        return nonEmpty(outline.intersection(placement.onSurface(image.surface.bounds)))
    }
}

/// `rect`, or the canonical empty rectangle when it is empty (what the renderer compares).
@inlinable
func nonEmpty(_ rect: ClipRect) -> ClipRect {
    rect.isEmpty ? ClipRect(x0: 0, y0: 0, x1: 0, y1: 0) : rect
}

/// The pixels a draw command can change (empty when it draws nothing).
@inlinable
public func bounds(of command: DrawCommand, width: Int, height: Int) -> ClipRect {
    let origin = command.origin
    guard command.color.a > 0, origin.x >= 0, origin.x < width, origin.y < height else {
        return ClipRect(x0: 0, y0: 0, x1: 0, y1: 0)
    }
    // A placed shape's extent on the surface that starts at its origin, moved back.
    let rows = rowExtent(of: command.shape, frameHeight: height - origin.y)
    let columns = columnExtent(of: command.shape, frameWidth: width - origin.x)
    var rect = ClipRect(x0: columns.left, y0: rows.top, x1: columns.right, y1: rows.bottom)
        .offsetBy(origin.x, origin.y)
    if let clip = command.clip { rect = rect.intersection(clip) }
    rect = rect.intersection(ClipRect(x0: 0, y0: 0, x1: width, y1: height))
    return rect.isEmpty ? ClipRect(x0: 0, y0: 0, x1: 0, y1: 0) : rect
}

/// The columns a shape can touch, [left, right), with the same margins as `rowExtent`: full
/// width for waves (they span the frame) and for any shape this function does not know.
@inlinable
public func columnExtent(of shape: Shape, frameWidth: Int) -> (left: Int, right: Int) {
    func columns(_ low: Double, _ high: Double) -> (left: Int, right: Int) {
        pixelSpan(from: low, to: high, within: frameWidth)
    }
    // `if case`, not a switch: a `Shape` case added later compiles here and spans the width.
    if case .ring(let ring) = shape {
        let reach = max(ring.radius, 0) + max(ring.width, 0) / 2
        return columns(ring.centerX - reach, ring.centerX + reach)
    }
    if case .disc(let disc) = shape {
        return columns(disc.centerX - max(disc.radius, 0), disc.centerX + max(disc.radius, 0))
    }
    if case .path(let path) = shape {
        guard let box = pathBounds(path) else { return (0, 0) }
        return columns(box.minX, box.maxX)
    }
    return (0, frameWidth)
}

/// Binning for `FrameRenderer`: what one walk over a frame's commands learns before any band
/// is drawn. Each command's bounding rectangle (a layer's begin and end get the union of their
/// contents), its signature for the damage of the next frame (FrameDamage.swift), the counts
/// that choose the band cut (`BandPlan`), and the occluders: commands that cover a rectangle
/// with opaque pixels whatever lies under them, so that earlier commands are not drawn there.
///
/// Rules: storage is kept between frames (`removeAll(keepingCapacity:)`), so a frame of a
/// command count seen before allocates nothing; the commands are read without reference
/// counting (`withUnretained`), since the list holds them while the frame is drawn.
struct FrameBins {
    /// Each command's rectangle this frame (a layer's begin and end: the union of its contents).
    private(set) var rects: [ClipRect] = []
    /// Open layers while binning: the begin's index and the union of its contents so far.
    private var openLayers: [(begin: Int, union: ClipRect)] = []
    /// This frame's and the previous frame's command signatures, and the images each held (kept
    /// one frame longer, so an image's address is not reused while it is compared).
    private(set) var signatures: [CommandSignature] = []
    private(set) var previousSignatures: [CommandSignature] = []
    private var images: [PixelBuffer] = []
    private var previousImages: [PixelBuffer] = []
    /// This frame's wave fills (their covered rows cost little, `BandPlan.cheapRows`).
    private(set) var waveFills: [Int] = []
    /// Whether the last binned frame holds wave strokes and nothing but layers besides (the
    /// waveform scene; `bin` finds it while it sorts the commands).
    private(set) var isStrokeFrame = false
    /// Commands that cover a rectangle with opaque pixels whatever is under them, in order:
    /// what an earlier command draws in their rows is hidden (`BandJob.visibleRows`).
    private(set) var occluders: [Occluder] = []
    /// The last opaque full-width wave fill outside layers (-1: none): the earlier commands may
    /// leave alone the pixels of its curve rows that it covers (`HiddenGroups`).
    private(set) var columnOccluder = -1

    /// What `bin` counts while it walks the commands.
    struct Counts {
        /// Rings and discs.
        var circles = 0
        /// Wave fills and strokes.
        var waves = 0
        /// How deep layers nest.
        var depth = 0
        var strokes = 0
        var layerCommands = 0
    }

    /// Fills `rects` (and, when tracking, `signatures` and `images`) and counts the commands.
    mutating func bin(_ list: DisplayList, tracksDamage: Bool) -> Counts {
        rects.removeAll(keepingCapacity: true)
        waveFills.removeAll(keepingCapacity: true)
        openLayers.removeAll(keepingCapacity: true)
        var counts = Counts()
        list.commands.withUnsafeBufferPointer { commands in
            for index in commands.indices {
                commands.withUnretained(index) { command in
                    bin(command, index, width: list.width, height: list.height, counts: &counts)
                }
            }
        }
        // A layer never ended does nothing (its contents are drawn as they are).
        for layer in openLayers { rects[layer.begin] = ClipRect(x0: 0, y0: 0, x1: 0, y1: 0) }
        isStrokeFrame = counts.strokes > 0 && counts.strokes + counts.layerCommands == list.commands.count
        if tracksDamage { sign(list) }
        return counts
    }

    /// Appends command `index`'s rectangle to `rects` (a layer's end: the union of its contents,
    /// also given to its begin) and counts it.
    private mutating func bin(
        _ command: borrowing FrameCommand, _ index: Int, width: Int, height: Int, counts: inout Counts
    ) {
        rects.append(bounds(of: command, width: width, height: height))
        switch command {
        case .draw(let draw):
            switch draw.shape {
            case .ring, .disc: counts.circles += 1
            case .waveFill:
                counts.waves += 1
                waveFills.append(index)
            case .waveStroke:
                counts.waves += 1
                counts.strokes += 1
            default: break
            }
        case .beginLayer:
            counts.layerCommands += 1
            openLayers.append((index, ClipRect(x0: 0, y0: 0, x1: 0, y1: 0)))
            counts.depth = max(counts.depth, openLayers.count)
        case .endLayer:
            counts.layerCommands += 1
            guard let layer = openLayers.popLast() else { return }
            rects[layer.begin] = layer.union
            rects[index] = layer.union
        case .image, .maskedImage:
            break
        }
        if let last = openLayers.indices.last, !rects[index].isEmpty {
            openLayers[last].union = openLayers[last].union.union(rects[index])
        }
    }

    /// Fills `signatures` (the previous frame's kept in `previousSignatures`) and `images`.
    private mutating func sign(_ list: DisplayList) {
        swap(&signatures, &previousSignatures)
        signatures.removeAll(keepingCapacity: true)
        list.commands.withUnsafeBufferPointer { commands in
            for index in commands.indices {
                commands.withUnretained(index) { command in
                    signatures.append(CommandSignature(command, rect: rects[index]))
                    switch command {
                    // Kept (retained) until the next frame is compared.
                    case .image(let image, _, _), .maskedImage(let image, _, _): images.append(image)
                    default: break
                    }
                }
            }
        }
    }

    /// Ends a frame: the previous frame's images can go now; this frame's stay until the next
    /// is compared.
    mutating func endFrame() {
        swap(&images, &previousImages)
        images.removeAll(keepingCapacity: true)
    }

    /// Fills `occluders`: the opaque pictures and the opaque full-width wave fills' fully covered
    /// rows, outside every layer (inside one, the layer's mask may let the pixels below show).
    /// Why: over a picture, a wave strip's front wave hides the rows below its curve; the
    /// picture's copy and the back wave's blend there were a third of the strip page's frame.
    mutating func findOccluders(_ list: DisplayList, _ surface: PixelSurface) {
        occluders.removeAll(keepingCapacity: true)
        columnOccluder = -1
        var depth = 0
        // The column occluder's group rows cost a sample pass per band: only worth it when an
        // earlier wave fill can skip pixels with them (not for examples/wave.json's one fill).
        var fillBefore = false
        list.commands.withUnsafeBufferPointer { commands in
            for index in commands.indices where !rects[index].isEmpty {
                commands.withUnretained(index) { command in
                    switch command {
                    case .beginLayer: depth += 1
                    case .endLayer: depth = max(0, depth - 1)
                    case .image(_, let alpha, _) where depth == 0 && alpha >= 1:
                        // The picture's pixels are copied: nothing under them shows.
                        occluders.append(Occluder(index: index, rect: rects[index]))
                    case .draw(let draw) where depth == 0:
                        if let rect = opaqueRows(of: draw, on: surface) {
                            occluders.append(Occluder(index: index, rect: rect))
                        }
                        if fillBefore && isFullWidthOpaqueFill(draw, on: surface) { columnOccluder = index }
                    default: break
                    }
                    if case .draw(let draw) = command, case .waveFill = draw.shape { fillBefore = true }
                }
            }
        }
    }
}

/// A command whose pixels in `rect` are the same whatever was under them (an opaque picture, the
/// fully covered rows of an opaque wave fill).
struct Occluder {
    var index: Int
    var rect: ClipRect
}

/// The rows an opaque wave fill covers fully, across its clip's columns (nil: none, or not a
/// full-width opaque fill). Those pixels get the colour itself in every path of the kernel
/// (`WaveBlender.fullSpan`, `fullPixel`), whatever they were.
private func opaqueRows(of command: DrawCommand, on surface: PixelSurface) -> ClipRect? {
    guard let wave = opaqueWaveInPlace(command),
        let fill = WaveFillRows(
            wave, SourceColor(command.color), surface: surface, clip: command.clip ?? surface.bounds),
        !fill.fullRows.isEmpty
    else { return nil }
    return ClipRect(x0: fill.area.x0, y0: fill.fullRows.lowerBound, x1: fill.area.x1, y1: fill.fullRows.upperBound)
}

/// Whether `command` is an opaque wave fill across the surface's width, drawn where it is: one
/// whose curve rows can hide column groups of earlier commands (`BandJob.hiddenGroups`).
private func isFullWidthOpaqueFill(_ command: DrawCommand, on surface: PixelSurface) -> Bool {
    guard opaqueWaveInPlace(command) != nil else { return false }
    guard let clip = command.clip else { return true }
    return clip.x0 <= 0 && clip.x1 >= surface.width
}

/// The wave of an opaque wave fill drawn where it is (no origin shift): a fill whose covered
/// pixels are its colour whatever lay under them, the one kind of occluder both `opaqueRows`
/// and `isFullWidthOpaqueFill` look for.
private func opaqueWaveInPlace(_ command: DrawCommand) -> Wave? {
    guard case .waveFill(let wave) = command.shape, command.origin == .zero, SourceColor(command.color).alpha >= 1
    else { return nil }
    return wave
}

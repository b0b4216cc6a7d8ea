/// What the renderer remembers of a frame's commands to find the next frame's damage, without
/// keeping the commands themselves (holding a scene's paths would make it copy them when it
/// rebuilds them in place next frame).
///
/// Why it is sound: every op changes a pixel from that pixel's own value (and, for a layer, the
/// pixel below it) and its own parameters, and only inside its bounding rectangle. So a pixel
/// outside every rectangle of the commands that differ between two frames sees the same
/// sequence of ops in both, and keeps its bytes. Commands are compared as [common prefix] +
/// [middle] + [common suffix]: the old and new middles' rectangles, widened to whole rows
/// (`wholeRows`), are the damage (a clock's digits, a strip's waves, a ripple added at the end
/// of the pond).

/// One command as remembered: its rectangle and a 64-bit hash of everything that sets its
/// pixels. Two commands with equal signatures draw the same pixels (up to a hash collision,
/// one in 2^64 per compared pair).
@usableFromInline
struct CommandSignature: Equatable {
    var rect: ClipRect
    var digest: Int
    /// False for a command whose content this file cannot hash (a `Shape` added later):
    /// such a command differs from everything, so its rectangle is always damage.
    var comparable: Bool
    /// Whether the command's pixels are the same whatever clip's columns it is drawn in (glyph
    /// runs and pictures: each pixel is its mask's or picture's sample, blended alone), so damage
    /// around it may keep its columns (`keepingColumns`). False for the kernels that paint a
    /// clip's edge columns by another path (rings and the rest: see `wholeRows`).
    var columnExact = false
    /// An opaque picture (alpha 1, no mask): it replaces every pixel of its rectangle, whatever
    /// was drawn there before it (`compositeImage` copies its rows).
    var replacesPixels = false

    @usableFromInline
    static func == (a: CommandSignature, b: CommandSignature) -> Bool {
        a.comparable && b.comparable && a.digest == b.digest && a.rect == b.rect
    }
}

extension CommandSignature {
    init(_ command: FrameCommand, rect: ClipRect) {
        var hasher = Hasher()
        comparable = true
        switch command {
        case .draw(let draw):
            hasher.combine(0)
            comparable = combineContent(draw, into: &hasher)
            if case .glyphs = draw.shape { columnExact = true }
        case .beginLayer:
            hasher.combine(1)
        case .endLayer(let mask, let placement):
            hasher.combine(2)
            combine(placement, into: &hasher)
            for stop in mask.stops {
                hasher.combine(stop.x.bitPattern)
                hasher.combine(stop.alpha.bitPattern)
            }
        case .image(let image, let alpha, let placement):
            // Identity: a scene's picture is never redrawn in place (a new picture is a new
            // buffer), and the renderer holds the previous frame's images, so an address is
            // not reused between the two frames compared.
            hasher.combine(3)
            columnExact = true
            replacesPixels = alpha >= 1
            hasher.combine(ObjectIdentifier(image))
            hasher.combine(alpha.bitPattern)
            combine(placement, into: &hasher)
        case .maskedImage(let image, let path, let placement):
            hasher.combine(4)
            combine(placement, into: &hasher)
            hasher.combine(ObjectIdentifier(image))
            combineContent(path, into: &hasher)
        }
        self.rect = rect
        digest = hasher.finalize()
    }
}

/// Hashes where a picture or mask lands.
private func combine(_ placement: OpPlacement, into hasher: inout Hasher) {
    hasher.combine(placement.origin.x)
    hasher.combine(placement.origin.y)
    guard let clip = placement.clip else { return }
    hasher.combine(clip.x0)
    hasher.combine(clip.y0)
    hasher.combine(clip.x1)
    hasher.combine(clip.y1)
}

/// Hashes a draw command's shape, colour and clip; false when the shape is of a kind added
/// after this function (its signature then never matches).
private func combineContent(_ command: DrawCommand, into hasher: inout Hasher) -> Bool {
    combine(&hasher, command.color.r, command.color.g, command.color.b, command.color.a)
    hasher.combine(command.origin.x)
    hasher.combine(command.origin.y)
    if let clip = command.clip {
        hasher.combine(clip.x0)
        hasher.combine(clip.y0)
        hasher.combine(clip.x1)
        hasher.combine(clip.y1)
    }
    // `if case`, not a switch: a `Shape` case added later compiles here and is never equal.
    let shape = command.shape
    if case .ring(let ring) = shape {
        hasher.combine(10)
        combine(&hasher, ring.centerX, ring.centerY, ring.radius, ring.width)
    } else if case .disc(let disc) = shape {
        hasher.combine(11)
        combine(&hasher, disc.centerX, disc.centerY, disc.radius, 0)
    } else if case .waveFill(let fill) = shape {
        hasher.combine(12)
        combine(&hasher, fill.baseline, fill.amplitude, fill.wavelength, fill.phase)
    } else if case .waveStroke(let stroke) = shape {
        hasher.combine(13)
        let wave = stroke.wave
        combine(&hasher, wave.baseline, wave.amplitude, wave.wavelength, wave.phase)
        combine(&hasher, stroke.width, stroke.length, stroke.envelope == .none ? 0 : 1, 0)
    } else if case .path(let path) = shape {
        hasher.combine(14)
        combineContent(path, into: &hasher)
    } else if case .glyphs(let run) = shape {
        // Masks by address and placement: a mask's bytes never change once made (GlyphCache
        // makes a new one per glyph), so the same addresses at the same places draw the same
        // pixels. Unsound only if a mask freed since the previous frame were replaced by a new
        // one at the same address with the same size and place.
        hasher.combine(15)
        hasher.combine(run.glyphs.count)
        for glyph in run.glyphs {
            hasher.combine(UInt(bitPattern: glyph.coverage))
            hasher.combine(glyph.x)
            hasher.combine(glyph.y)
            hasher.combine(glyph.width)
            hasher.combine(glyph.height)
        }
    } else {
        return false
    }
    return true
}

/// Four numbers by their bits (so -0 and 0, or two NaNs, count as the kernels see them).
@inline(__always)
private func combine(_ hasher: inout Hasher, _ a: Double, _ b: Double, _ c: Double, _ d: Double) {
    hasher.combine(a.bitPattern)
    hasher.combine(b.bitPattern)
    hasher.combine(c.bitPattern)
    hasher.combine(d.bitPattern)
}

private func combineContent(_ path: Path, into hasher: inout Hasher) {
    hasher.combine(path.elements.count)
    for element in path.elements {
        switch element {
        case .move(let x, let y):
            hasher.combine(0)
            hasher.combine(x.bitPattern)
            hasher.combine(y.bitPattern)
        case .line(let x, let y):
            hasher.combine(1)
            hasher.combine(x.bitPattern)
            hasher.combine(y.bitPattern)
        case .quad(let cx, let cy, let x, let y):
            hasher.combine(2)
            combine(&hasher, cx, cy, x, y)
        case .close:
            hasher.combine(3)
        }
    }
}

/// Adds to `damage` the rectangles of the commands between the common prefix and the common
/// suffix of two frames' signatures: across the whole width of a `width` x `height` frame (see
/// `wholeRows`), or with their own columns where only column-exact commands meet them
/// (`keepingColumns`: a clock's digits beside a headline redraw the digits, not the headline).
func addChanges(
    from previous: [CommandSignature], to current: [CommandSignature], width: Int, height: Int,
    rowAlignment: Int = 8, into damage: inout Damage
) {
    let shorter = min(previous.count, current.count)
    var prefix = 0
    while prefix < shorter && previous[prefix] == current[prefix] { prefix += 1 }
    var suffix = 0
    while suffix < shorter - prefix && previous[previous.count - 1 - suffix] == current[current.count - 1 - suffix] {
        suffix += 1
    }
    for index in prefix..<(previous.count - suffix) {
        damage.add(
            keepingColumns(
                previous[index], among: previous, current, width: width, height: height, rowAlignment: rowAlignment))
    }
    for index in prefix..<(current.count - suffix) {
        damage.add(
            keepingColumns(
                current[index], among: previous, current, width: width, height: height, rowAlignment: rowAlignment))
    }
}

/// A changed command's damage: its own rectangle (rows still aligned as `wholeRows` aligns them) when it and
/// every command of either frame that meets that rectangle are column-exact, so drawing them
/// clipped to it gives the bytes a whole-width clip gives; else its whole rows. Only column-exact
/// changes look at the others (a few glyph runs or pictures), so a pond of rings stays linear.
///
/// An opaque picture of the current frame whose rectangle holds that rectangle (a video's next
/// picture over waves) replaces every pixel drawn there before it, so only the commands after it
/// decide whether the rectangle can be redrawn alone: a video over an animated background redraws
/// its own rectangle, not its rows.
func keepingColumns(
    _ changed: CommandSignature, among previous: [CommandSignature], _ current: [CommandSignature], width: Int,
    height: Int, rowAlignment: Int = 8
) -> ClipRect {
    let rows = wholeRows(changed.rect, width: width, height: height, alignment: rowAlignment)
    guard changed.columnExact, !rows.isEmpty else { return rows }
    let own = ClipRect(x0: changed.rect.x0, y0: rows.y0, x1: changed.rect.x1, y1: rows.y1)
    // Here the rectangle need not grow to aligned rows either: whatever the kernels before the
    // picture paint in a cut block of rows is painted over, and the commands after it are
    // column-exact, which holds for rows as well (each pixel its mask's or picture's sample).
    let exact = changed.rect.intersection(ClipRect(x0: 0, y0: 0, x1: width, y1: height))
    if let cover = current.lastIndex(where: { $0.replacesPixels && $0.rect.intersection(exact) == exact }) {
        for other in current[(cover + 1)...] where !other.columnExact && !other.rect.intersection(exact).isEmpty {
            return rows
        }
        return exact
    }
    for other in previous where !other.columnExact && !other.rect.intersection(own).isEmpty { return rows }
    for other in current where !other.columnExact && !other.rect.intersection(own).isEmpty { return rows }
    return own
}

/// `rect`'s rows across the whole frame. Why not the rectangle itself: the ring kernel paints
/// the pixels near its clip's left and right edges by another path than the same pixels of a
/// wider clip (scalar pixels and four-pixel windows kept inside the clip; AnnulusPainter.swift),
/// which can differ in the last bit: ripples-1000 redrawn in a 64-pixel-wide rectangle had
/// pixels one step off. Cut only into rows, the frame is drawn as the banded renderer always
/// draws it, byte for byte (FrameRendererTests). A kernel whose pixels do not depend on the clip's
/// columns would let this keep the columns. The rows start and end on multiples of `alignment`
/// (a power of two): 8 when the frame has rings or discs, whose kernel paints blocks of eight
/// frame rows, and a block cut by its clip goes through a temporary buffer (allocated: 2044
/// allocations a frame in ripples-1000's damage otherwise); 1 for every other frame, whose
/// kernels cut anywhere (a 70-row strip then draws and copies 70 rows, not 72).
func wholeRows(_ rect: ClipRect, width: Int, height: Int, alignment: Int = 8) -> ClipRect {
    guard !rect.isEmpty else { return rect }
    let low = alignment - 1
    return ClipRect(x0: 0, y0: rect.y0 & ~low, x1: width, y1: min(height, (rect.y1 + low) & ~low))
}

/// Cuts `damage` (whose rectangles may overlap) into disjoint rectangles covering the same
/// pixels, in `result`: rows are split at every rectangle's top and bottom, and in each strip of
/// rows the rectangles crossing it are merged into disjoint runs of columns. Two threads never
/// draw the same pixel, and no pixel is drawn twice. `edges` is reused storage.
func disjointRects(of damage: Damage, into result: inout [ClipRect], edges: inout [Int]) {
    result.removeAll(keepingCapacity: true)
    edges.removeAll(keepingCapacity: true)
    for rect in damage.rects {
        edges.append(rect.y0)
        edges.append(rect.y1)
    }
    edges.sort()
    var previousEdge: Int?
    for edge in edges {
        defer { previousEdge = edge }
        guard let top = previousEdge, top < edge else { continue }
        appendRuns(of: damage, top: top, bottom: edge, into: &result)
    }
}

/// The disjoint column runs of the rectangles crossing rows [top, bottom), appended; a run
/// continuing the one right above with the same columns grows that one instead.
private func appendRuns(of damage: Damage, top: Int, bottom: Int, into result: inout [ClipRect]) {
    var left = Int.min
    while true {
        // The leftmost rectangle crossing the strip that starts at or right of `left`'s run end.
        var start = Int.max
        for rect in damage.rects where rect.y0 <= top && rect.y1 >= bottom && rect.x1 > left {
            start = min(start, max(rect.x0, left))
        }
        guard start != Int.max else { return }
        var end = start
        var grown = true
        while grown {
            grown = false
            for rect in damage.rects where rect.y0 <= top && rect.y1 >= bottom && rect.x0 <= end && rect.x1 > end {
                end = rect.x1
                grown = true
            }
        }
        let run = ClipRect(x0: start, y0: top, x1: end, y1: bottom)
        if let index = result.lastIndex(where: { $0.y1 == top && $0.x0 == start && $0.x1 == end }) {
            result[index].y1 = bottom
        } else {
            result.append(run)
        }
        left = end
    }
}

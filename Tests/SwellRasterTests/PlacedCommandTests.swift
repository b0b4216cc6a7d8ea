import SwellRaster
import Testing

/// Placed commands (`DrawCommand.origin` with a clip to the element's frame): a page's elements
/// draw at their frame's size, moved and clipped to the frame, inside the one display list.
@Suite struct PlacedCommandTests {
    static let background = Color(r: 0.1, g: 0.2, b: 0.3, a: 1)

    static func shapes() -> [Shape] {
        var path = Path()
        path.move(to: 4, 3)
        path.line(to: 50, 10)
        path.quad(control: 30, 40, to: 6, 33)
        path.close()
        return [
            .ring(Ring(centerX: 20, centerY: 18, radius: 14, width: 3.5)),
            .disc(Disc(centerX: 55, centerY: 5, radius: 12.3)),
            .waveFill(Wave(baseline: 20, amplitude: 9, wavelength: 37, phase: 0.7)),
            .waveStroke(
                WaveStroke(
                    wave: Wave(baseline: 15, amplitude: 8, wavelength: 29, phase: 1.1), envelope: .parabola, width: 3,
                    length: 60)),
            .path(path),
        ]
    }

    /// A shape placed at (x, y) and clipped to a w x h frame on a large surface has, inside the
    /// frame, the bytes of the shape drawn at (0, 0) on a w x h surface, and leaves the rest alone.
    @Test(arguments: [(0, 0), (13, 7), (37, 22), (5, 40)])
    func aPlacedShapeIsTheShapeDrawnOnASurfaceOfTheFramesSize(x: Int, y: Int) {
        let (w, h) = (60, 34)
        for shape in Self.shapes() {
            let color = Color(r: 0.9, g: 0.4, b: 0.1, a: 0.8)
            let alone = PixelBuffer(width: w, height: h)
            clear(alone.surface, color: Self.background, clip: alone.surface.bounds)
            draw(DrawCommand(shape, color: color), on: alone.surface, within: alone.surface.bounds)
            let page = PixelBuffer(width: 120, height: 90)
            clear(page.surface, color: Self.background, clip: page.surface.bounds)
            let frame = ClipRect(x0: x, y0: y, x1: x + w, y1: y + h)
            let placed = DrawCommand(shape, color: color, clip: frame, origin: PixelOrigin(x: x, y: y))
            draw(placed, on: page.surface, within: page.surface.bounds)
            let untouched = Self.background.opaquePixel
            var mismatches = 0
            for row in 0..<page.surface.height {
                for column in 0..<page.surface.width {
                    let inside = column >= x && column < x + w && row >= y && row < y + h
                    let expected = inside ? alone.surface.pixel(x: column - x, y: row - y) : untouched
                    if page.surface.pixel(x: column, y: row) & 0xFF_FFFF != expected & 0xFF_FFFF { mismatches += 1 }
                }
            }
            #expect(mismatches == 0, "\(shape) at (\(x), \(y)): \(mismatches) pixels differ")
            let box = bounds(of: placed, width: 120, height: 90)
            #expect(box.intersection(frame) == box, "\(shape) at (\(x), \(y)): bounds \(box) leave the frame")
        }
    }

    /// A frame scrolled above the surface's top (origin.y < 0) shows the shape's lower rows.
    @Test func aShapeScrolledAboveTheTopShowsItsLowerRows() {
        let (w, h) = (60, 34)
        for shape in Self.shapes() {
            let alone = PixelBuffer(width: w, height: h)
            clear(alone.surface, color: Self.background, clip: alone.surface.bounds)
            draw(DrawCommand(shape, color: .white), on: alone.surface, within: alone.surface.bounds)
            let page = PixelBuffer(width: 80, height: 50)
            clear(page.surface, color: Self.background, clip: page.surface.bounds)
            let placed = DrawCommand(
                shape, color: .white, clip: ClipRect(x0: 10, y0: -12, x1: 10 + w, y1: -12 + h),
                origin: PixelOrigin(x: 10, y: -12))
            draw(placed, on: page.surface, within: page.surface.bounds)
            var mismatches = 0
            for row in 0..<(h - 12) {
                for column in 0..<w
                where page.surface.pixel(x: column + 10, y: row) & 0xFF_FFFF
                    != alone.surface.pixel(x: column, y: row + 12) & 0xFF_FFFF
                {
                    mismatches += 1
                }
            }
            #expect(mismatches == 0, "\(shape): \(mismatches) pixels differ")
        }
    }

    /// Frames of placed shapes (several elements, overlapping, one scrolled off the top) render
    /// to the plain pipeline's bytes for any band height and thread count, with damage or not.
    @Test func placedFramesRenderAlikeInBandsThreadsAndWithDamage() {
        var commands: [DrawCommand] = []
        for (index, shape) in Self.shapes().enumerated() {
            let x = 17 * index
            let y = 23 * index - 10
            let frame = ClipRect(x0: x, y0: y, x1: x + 70, y1: y + 45)
            let color = Color(r: 0.2 * Double(index), g: 0.8, b: 0.5, a: 0.75)
            commands.append(DrawCommand(shape, color: color, clip: frame, origin: PixelOrigin(x: x, y: y)))
        }
        let frame = DisplayList(width: 140, height: 120, background: Self.background, shapes: commands)
        let plain = FrameRendererTests.expectBandedMatchesPlain(
            frame, "placed", configurations: [(1, 64), (2, 7), (3, 1), (1, nil), (2, nil)])
        // Damage: move one element between frames; the tracked result equals a whole render.
        let renderer = FrameRenderer(threads: 2, bandHeight: 9)
        let tracked = PixelBuffer(width: 140, height: 120)
        var list = DisplayList(width: 140, height: 120, background: Self.background, shapes: commands)
        renderer.render(list, into: tracked.surface)
        #expect(FrameRendererTests.packed(tracked.surface) == plain)
        var moved = commands
        moved[2].origin.y += 5
        moved[2].clip = moved[2].clip!.offsetBy(0, 5)
        list.commands = moved.map { .draw($0) }
        renderer.render(list, into: tracked.surface)
        let whole = PixelBuffer(width: 140, height: 120)
        render(list, into: whole.surface)
        #expect(FrameRendererTests.packed(tracked.surface) == FrameRendererTests.packed(whole.surface))
        #expect(FrameRendererTests.packed(tracked.surface) != plain, "the moved element shows")
    }

    /// A w x h picture with a different colour at every pixel (so a shifted copy cannot pass).
    static func picture(width: Int, height: Int) -> PixelBuffer {
        let buffer = PixelBuffer(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                buffer.surface.row(y)[x] = UInt32(x * 4 & 0xFF) | UInt32(y * 7 & 0xFF) << 8 | 0x40 << 16
            }
        }
        return buffer
    }

    /// One element's ops of every kind that is not a plain shape: a half-transparent picture,
    /// a picture inside a path, a masked layer of two shapes, and a glyph run.
    static func elementOps(width: Int, height: Int) -> [[FrameCommand]] {
        var path = Path()
        path.move(to: 3, 2)
        path.line(to: Double(width) - 4, 8)
        path.quad(control: 30, Double(height) + 10, to: 5, Double(height) - 3)
        path.close()
        let mask = HorizontalGradientMask(stops: [
            MaskStop(x: 0, alpha: 0), MaskStop(x: Double(width) / 2, alpha: 1), MaskStop(x: Double(width), alpha: 0),
        ])
        let coverage = CoverageMask(width: 9, height: 11)
        for index in 0..<(coverage.stride * coverage.height) { coverage.bytes[index] = UInt8(index * 37 & 0xFF) }
        var run = GlyphRun()
        run.append(coverage, x: 4, y: 5)
        run.append(coverage, x: width - 6, y: height - 8)  // reaches past the frame: clipped
        let picture = Self.picture(width: width, height: height)
        return [
            [.image(picture, alpha: 0.6)],
            [.image(picture, alpha: 1)],
            [.maskedImage(picture, path)],
            [
                .beginLayer, .draw(DrawCommand(shapes()[0], color: .white)),
                .draw(DrawCommand(shapes()[2], color: Color(r: 1, g: 0, b: 0, a: 1))), .endLayer(mask),
            ],
            [.draw(DrawCommand(.glyphs(run), color: Color(r: 1, g: 1, b: 0.5, a: 1)))],
        ]
    }

    /// The test's own placement (not ScenePlayer's): every op moved to `origin`, clipped to `frame`.
    static func place(_ ops: [FrameCommand], at origin: PixelOrigin, in frame: ClipRect) -> [FrameCommand] {
        let placement = OpPlacement(origin: origin, clip: frame)
        return ops.map { op in
            switch op {
            case .draw(var command):
                command.origin = origin
                command.clip = frame
                return .draw(command)
            case .beginLayer: return op
            case .endLayer(let mask, _): return .endLayer(mask, at: placement)
            case .image(let image, let alpha, _): return .image(image, alpha: alpha, at: placement)
            case .maskedImage(let image, let path, _): return .maskedImage(image, path, at: placement)
            }
        }
    }

    /// Pictures, masked pictures, masked layers and glyph runs placed at (x, y) and clipped to a
    /// w x h frame have, inside the frame, the bytes of the same ops drawn alone on a w x h
    /// surface, and the background outside it: through the plain reference and through the
    /// banded renderer on two threads. Fails if any op kind ignores its placement.
    @Test(arguments: [(0, 0), (13, 7), (37, 22), (5, 40), (20, -9)])
    func everyOpKindPlacedIsTheOpDrawnOnASurfaceOfTheFramesSize(x: Int, y: Int) {
        let (w, h) = (60, 34)
        for ops in Self.elementOps(width: w, height: h) {
            let alone = PixelBuffer(width: w, height: h)
            render(DisplayList(width: w, height: h, background: Self.background, commands: ops), into: alone.surface)
            let frame = ClipRect(x0: x, y0: y, x1: x + w, y1: y + h)
            let list = DisplayList(
                width: 120, height: 90, background: Self.background,
                commands: Self.place(ops, at: PixelOrigin(x: x, y: y), in: frame))
            let plain = PixelBuffer(width: 120, height: 90)
            render(list, into: plain.surface)
            let banded = PixelBuffer(width: 120, height: 90)
            FrameRenderer(threads: 2, bandHeight: 7).render(list, into: banded.surface)
            for (name, page) in [("plain", plain), ("banded", banded)] {
                var mismatches = 0
                for row in 0..<page.surface.height {
                    for column in 0..<page.surface.width {
                        let inside = column >= x && column < x + w && row >= y && row < y + h
                        let expected =
                            inside ? alone.surface.pixel(x: column - x, y: row - y) : Self.background.opaquePixel
                        if page.surface.pixel(x: column, y: row) & 0xFF_FFFF != expected & 0xFF_FFFF { mismatches += 1 }
                    }
                }
                #expect(mismatches == 0, "\(name) \(ops.count) ops at (\(x), \(y)): \(mismatches) pixels differ")
            }
            for command in list.commands {
                let box = bounds(of: command, width: 120, height: 90)
                #expect(
                    box.isEmpty || box.intersection(frame) == box,
                    "\(command) at (\(x), \(y)): bounds \(box) leave the frame")
            }
        }
    }
}

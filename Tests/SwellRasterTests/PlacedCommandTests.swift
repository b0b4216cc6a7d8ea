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
        let frame = Frame(width: 140, height: 120, background: Self.background, commands: commands)
        let plain = FrameRendererTests.expectBandedMatchesPlain(
            frame, "placed", configurations: [(1, 64), (2, 7), (3, 1), (1, nil), (2, nil)])
        // Damage: move one element between frames; the tracked result equals a whole render.
        let renderer = FrameRenderer(threads: 2, bandHeight: 9)
        let tracked = PixelBuffer(width: 140, height: 120)
        var list = DisplayList(
            width: 140, height: 120, background: Self.background, commands: commands.map { .draw($0) })
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
}

import SwellDisplay
import SwellInput
import SwellLoop
import SwellRaster
import SwellScenes
import SwellService
import Testing

/// A span's seam is exact: each output's scan-out is, byte for byte, its columns of the whole
/// canvas rendered at once by a player that knows nothing of spans (the independent reference),
/// frame after frame with damage, while touches on either panel reach the scene in canvas
/// coordinates, so a ripple started on one panel crosses the seam (and the bezel's hidden
/// columns) onto the other. Outputs are memory presenters with two scan-out buffers, as a page
/// flip has; each frame is the tile's render, then present(damage:), as the kiosk loop does.
@Suite struct SpanSeamTests {
    /// Odd sizes, so no cut lands on a multiple of 8 or 16 by accident; a 13 px bezel.
    static let width = 317
    static let height = 181
    static let bezel = 13

    /// The scene as the loop's content over the canvas (what `swell run --span` gives it).
    final class PlayerContent: KioskContent {
        let player: ScenePlayer
        private(set) var touches: [SwellScenes.TouchEvent] = []

        init(_ player: ScenePlayer) { self.player = player }

        func render(at time: Double, into surface: PixelSurface) -> Damage {
            player.screen = player.screenSize(for: surface)
            return player.render(at: time, into: surface)
        }

        func handle(_ touch: SwellInput.TouchEvent, at time: Double) {
            let phase: SwellScenes.TouchEvent.Phase =
                touch.phase == .began ? .began : touch.phase == .moved ? .moved : .ended
            let event = SwellScenes.TouchEvent(phase, finger: touch.id, x: touch.x, y: touch.y, time: time)
            touches.append(event)
            player.handle(event)
        }

        func isIdle(at time: Double) -> Bool { player.isIdle(at: time) }

        private(set) var shownCount = 0
        func shown() { shownCount += 1 }
    }

    static func ripples() throws -> ScenePlayer {
        try loadSceneFile(bytes: Array(#"{"format": "scene/1", "scene": "ripples"}"#.utf8), name: "ripples.json") {
            _ in .none
        }
    }

    /// A touch on output `output` at its picture's (x, y), in the loop's time.
    struct Touch {
        var time: Double
        var output: Int
        var event: SwellInput.TouchEvent
    }

    /// A finger going down on the left panel 6 px from its right edge, dragging across the seam
    /// (lifted at the edge, as a panel's own touch screen ends there) and a second finger
    /// coming down on the right panel, far from the seam, while the first is held.
    static let touches: [Touch] = [
        Touch(time: 0.1, output: 0, event: .init(.began, id: 0, x: Double(width - 6), y: 90)),
        Touch(time: 0.2, output: 0, event: .init(.moved, id: 0, x: Double(width - 1), y: 92)),
        Touch(time: 0.3, output: 1, event: .init(.began, id: 1, x: 250, y: 60, output: 1)),
        Touch(time: 0.35, output: 0, event: .init(.ended, id: 0, x: Double(width - 1), y: 92)),
        Touch(time: 0.5, output: 1, event: .init(.ended, id: 1, x: 250, y: 60, output: 1)),
    ]

    static let times: [Double] = stride(from: 0.0, through: 4.0, by: 0.1).map { $0 } + [6, 9]

    /// Runs the span with `shift` added to the columns the reference is compared at (0: the
    /// real check; 1: proves the comparison can fail) and returns the first difference, the
    /// canvas touches the scene got, and whether the left panel's ripple reached the right panel.
    static func run(shift: Int = 0) throws -> (difference: String?, touches: [SwellScenes.TouchEvent], crossed: Bool) {
        let layout = try SpanLayout(
            outputs: [
                SpanLayout.Output(name: "A", width: width, height: height),
                SpanLayout.Output(name: "B", width: width, height: height),
            ],
            arrangement: .row, bezel: bezel)
        let content = PlayerContent(try ripples())
        let span = SpanCanvas(layout: layout, content: content)
        let presenters = span.tiles.map { _ in MemoryPresenter(panelWidth: width, panelHeight: height, buffers: 2) }
        let reference = try ripples()
        reference.tracksDamage = false
        let canvas = PixelBuffer(width: layout.canvasWidth, height: layout.canvasHeight)
        var pending = touches[...]
        var crossed = false
        let background = try backgroundPixel()
        for time in times {
            while let touch = pending.first, touch.time <= time {
                pending.removeFirst()
                span.tiles[touch.output].handle(touch.event, at: time)
                var event = touch.event
                event.x += Double(layout.tiles[touch.output].x0)
                reference.handle(
                    SwellScenes.TouchEvent(
                        event.phase == .began ? .began : event.phase == .moved ? .moved : .ended, finger: event.id,
                        x: event.x, y: event.y, time: time))
            }
            reference.screen = FrameSize(width: canvas.width, height: canvas.height)
            reference.render(at: time, into: canvas.surface)
            for (index, tile) in span.tiles.enumerated() {
                let presenter = presenters[index]
                // The loop draws one output a round, each at its own clock reading: the second
                // output asks a little later and must show the same canvas frame.
                let asked = time + 0.004 * Double(index)
                try presenter.present(damage: tile.render(at: asked, into: presenter.shadow.surface))
                if let difference = firstDifference(presenter, canvas.surface, at: tile.rect, shift: shift) {
                    return ("t=\(time) output \(index): \(difference)", content.touches, crossed)
                }
            }
            // The first ripple (centred 6 px left of the seam, growing 40 px/s) on the right
            // panel's third column, 21 canvas px away, before the second (248 px away) can be.
            if time >= 1 && time <= 3,
                (0..<height).contains(where: { presenters[1].scanoutPixel(x: 2, y: $0) != background })
            {
                crossed = true
            }
        }
        return (nil, content.touches, crossed)
    }

    static func backgroundPixel() throws -> UInt32 {
        let player = try ripples()
        let buffer = PixelBuffer(width: 4, height: 4)
        player.screen = FrameSize(width: 4, height: 4)
        player.render(at: 0, into: buffer.surface)
        return buffer.surface.pixel(x: 0, y: 0)
    }

    /// Where `presenter`'s scan-out first differs from the rectangle `rect` of `canvas`.
    static func firstDifference(_ presenter: MemoryPresenter, _ canvas: PixelSurface, at rect: ClipRect, shift: Int)
        -> String?
    {
        for y in 0..<presenter.display.panelHeight {
            for x in 0..<presenter.display.panelWidth {
                let cx = min(x + rect.x0 + shift, canvas.width - 1)
                let got = presenter.scanoutPixel(x: x, y: y)
                let expected = canvas.pixel(x: cx, y: y + rect.y0)
                if got != expected {
                    return "(\(x), \(y)) shows \(String(got, radix: 16)), canvas (\(cx), \(y + rect.y0)) is "
                        + String(expected, radix: 16)
                }
            }
        }
        return nil
    }

    @Test func eachOutputIsItsColumnsOfTheWholeCanvasWithTouchesAcrossTheSeam() throws {
        let result = try Self.run()
        #expect(result.difference == nil, "\(result.difference ?? "")")
        // The scene got the touches in canvas coordinates: the right panel's x 250 is canvas 317 + 13 + 250.
        #expect(result.touches.map(\.x) == [311, 316, 580, 316, 580])
        #expect(result.crossed, "the ripple begun on the left panel did not reach the right one")
    }

    /// The comparison can fail: the reference's columns one pixel to the right differ.
    @Test func aColumnOffByOneIsCaught() throws {
        #expect(try Self.run(shift: 1).difference != nil)
    }

    /// Both outputs copy one canvas frame per time, and an output that skipped a frame (its
    /// loop was not ready) still gets that frame's damage when it next presents.
    @Test func oneCanvasFramePerTimeAndMissedDamageIsKept() throws {
        let layout = try SpanLayout(
            outputs: [
                SpanLayout.Output(name: "A", width: 64, height: 32),
                SpanLayout.Output(name: "B", width: 64, height: 32),
            ],
            arrangement: .row)
        let content = PlayerContent(try Self.ripples())
        let span = SpanCanvas(layout: layout, content: content)
        let a = MemoryPresenter(panelWidth: 64, panelHeight: 32)
        let b = MemoryPresenter(panelWidth: 64, panelHeight: 32)
        try a.present(damage: span.tiles[0].render(at: 0, into: a.shadow.surface))
        try b.present(damage: span.tiles[1].render(at: 0, into: b.shadow.surface))
        #expect(span.canvasFrames == 1)
        #expect(span.tiles[0].isIdle(at: 0.05) && span.tiles[1].isIdle(at: 0.05))
        span.tiles[0].handle(SwellInput.TouchEvent(.began, id: 0, x: 60, y: 16), at: 0.1)
        // Only A draws at 0.2: the ring crossing into B is pending for B, which is not idle.
        try a.present(damage: span.tiles[0].render(at: 0.2, into: a.shadow.surface))
        #expect(span.canvasFrames == 2)
        #expect(!span.tiles[1].isIdle(at: 0.21))
        // B asks a moment later (the loop's next round) and copies A's frame: no new render.
        let damage = span.tiles[1].render(at: 0.21, into: b.shadow.surface)
        #expect(span.canvasFrames == 2 && !damage.isEmpty && damage.bounds.x0 == 0)
        try b.present(damage: damage)
        for x in 0..<64 {
            for y in 0..<32 {
                #expect(b.scanoutPixel(x: x, y: y) == span.canvasSurface.pixel(x: 64 + x, y: y))
            }
        }
        // A asks again after copying frame 2: frame 3 is drawn, at A's time.
        _ = span.tiles[0].render(at: 0.22, into: a.shadow.surface)
        #expect(span.canvasFrames == 3)
    }

    /// The scene is announced ("running …", systemd's READY=1) once, when the first output shows
    /// its tile: an output unplugged at start must not hold it up.
    @Test func theSceneIsAnnouncedOnceByTheFirstOutputShown() throws {
        let layout = try SpanLayout(
            outputs: [
                SpanLayout.Output(name: "A", width: 8, height: 4), SpanLayout.Output(name: "B", width: 8, height: 4),
            ],
            arrangement: .row)
        let content = PlayerContent(try Self.ripples())
        let span = SpanCanvas(layout: layout, content: content)
        span.tiles[1].shown()
        #expect(content.shownCount == 1)
        span.tiles[0].shown()
        span.tiles[1].shown()
        #expect(content.shownCount == 1)
    }
}

import SwellRaster
import SwellScenes
import Testing

/// A video wall: each box renders one viewport of the canvas. Tiles of one instant, put side by
/// side, must be the whole canvas rendered at once, byte for byte, for every layout (odd sizes,
/// cuts off multiples of 8 and 16, tiles as wide as the canvas and narrower), with and without
/// damage. The whole canvas is rendered by a player without a viewport, the independent
/// reference; a tile off by one pixel in either direction makes the comparison fail
/// (`anOffByOneViewportIsCaught`).
@Suite struct ViewportStitchTests {
    /// 317x181: odd, so no cut lands on a multiple of 8 by accident.
    static let canvasWidth = 317
    static let canvasHeight = 181

    /// Layouts: a 2x2 wall with odd cuts, a 3x1 row of columns at 101 and 205, and a 1x3 stack
    /// of full-width strips (the renderer draws those straight into the tile).
    static let layouts: [(name: String, tiles: [ClipRect])] = [
        ("2x2", grid(xCuts: [0, 150, canvasWidth], yCuts: [0, 93, canvasHeight])),
        ("3x1", grid(xCuts: [0, 101, 205, canvasWidth], yCuts: [0, canvasHeight])),
        ("1x3", grid(xCuts: [0, canvasWidth], yCuts: [0, 37, 122, canvasHeight])),
    ]

    static func grid(xCuts: [Int], yCuts: [Int]) -> [ClipRect] {
        var tiles: [ClipRect] = []
        for row in 0..<(yCuts.count - 1) {
            for column in 0..<(xCuts.count - 1) {
                tiles.append(ClipRect(x0: xCuts[column], y0: yCuts[row], x1: xCuts[column + 1], y1: yCuts[row + 1]))
            }
        }
        return tiles
    }

    /// The golden scenes (ripples with touches, wave, slideshow, flow, ...) and the menu page.
    static let cases: [String] = GoldenCase.all.map(\.name) + ["menu"]

    struct Scene {
        let makePlayer: () throws -> ScenePlayer
        let script: TouchScript
        let times: [Double]
    }

    static func scene(_ name: String) throws -> Scene {
        if let golden = GoldenCase.all.first(where: { $0.name == name }) {
            // Frames every 0.2 s up to the last golden time: damage between them is exercised too.
            let end = golden.times.max()!
            return Scene(
                makePlayer: { try golden.makePlayer() }, script: try golden.makeScript(),
                times: stride(from: 0.0, through: end, by: 0.2).map { $0 } + golden.times.sorted())
        }
        let bytes = ExampleFileTests.read(ExampleFileTests.examples + "/\(name).json")
        return Scene(
            makePlayer: {
                let player = try loadSceneFile(
                    bytes: bytes, name: name + ".json",
                    readFile: { ExampleFileTests.read(ExampleFileTests.examples + "/" + $0) }
                ) { _ in SceneImages(syntheticImages()) }
                player.use(WallClock.dumpClock)
                return player
            }, script: TouchScript(events: []), times: [0, 0.5, 1.0, 2.5])
    }

    /// The frames in time order: the canvas, and the first place where the stitched tiles (drawn
    /// with damage, or whole when `tracksDamage` is false) differ from it.
    static func stitchDifference(
        _ name: String, tiles: [ClipRect], tracksDamage: Bool, shift: Int = 0
    ) throws -> String? {
        let scene = try Self.scene(name)
        var whole = ScriptedPlayback(player: try scene.makePlayer(), script: scene.script)
        whole.player.tracksDamage = false
        let canvas = PixelBuffer(width: canvasWidth, height: canvasHeight)
        var boxes: [(playback: ScriptedPlayback, buffer: PixelBuffer, rect: ClipRect)] = []
        for rect in tiles {
            let player = try scene.makePlayer()
            player.tracksDamage = tracksDamage
            let shown = rect.offsetBy(shift, 0)
            player.viewport = Viewport(canvasWidth: canvasWidth, canvasHeight: canvasHeight, rect: shown)!
            let buffer = PixelBuffer(width: rect.x1 - rect.x0, height: rect.y1 - rect.y0)
            boxes.append((ScriptedPlayback(player: player, script: scene.script), buffer, rect))
        }
        var times = scene.times
        times.sort()
        for time in times {
            whole.render(at: time, into: canvas.surface)
            for index in boxes.indices {
                boxes[index].playback.render(at: time, into: boxes[index].buffer.surface)
                let box = boxes[index]
                if let difference = firstDifference(box.buffer.surface, canvas.surface, at: box.rect) {
                    return "t=\(time) tile \(box.rect): \(difference)"
                }
            }
        }
        return nil
    }

    /// Where `tile` first differs from the rectangle `rect` of `canvas` (nil: the same bytes).
    static func firstDifference(_ tile: PixelSurface, _ canvas: PixelSurface, at rect: ClipRect) -> String? {
        for y in 0..<tile.height {
            for x in 0..<tile.width where tile.row(y)[x] != canvas.row(y + rect.y0)[x + rect.x0] {
                let got = String(tile.row(y)[x], radix: 16)
                let expected = String(canvas.row(y + rect.y0)[x + rect.x0], radix: 16)
                return "canvas pixel (\(x + rect.x0), \(y + rect.y0)): tile \(got), canvas \(expected)"
            }
        }
        return nil
    }

    @Test(arguments: cases, [true, false])
    func stitchedTilesAreTheWholeCanvas(name: String, tracksDamage: Bool) throws {
        for layout in Self.layouts {
            let difference = try Self.stitchDifference(name, tiles: layout.tiles, tracksDamage: tracksDamage)
            #expect(difference == nil, "\(name) \(layout.name), damage \(tracksDamage): \(difference ?? "")")
        }
    }

    /// The comparison can fail: tiles that each show the viewport one pixel to the right of
    /// where they are placed differ from the canvas in every scene with anything drawn across
    /// the columns.
    @Test(arguments: ["ripples", "wave", "menu"])
    func anOffByOneViewportIsCaught(name: String) throws {
        let tiles = Self.grid(xCuts: [0, 150, Self.canvasWidth - 1], yCuts: [0, 93, Self.canvasHeight])
        let difference = try Self.stitchDifference(name, tiles: tiles, tracksDamage: true, shift: 1)
        #expect(difference != nil, "\(name): tiles shifted by one pixel matched the canvas")
    }
}

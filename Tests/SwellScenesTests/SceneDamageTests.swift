import SwellRaster
import SwellScenes
import Testing

/// The scenes played with damage (only the changed rectangles drawn into a surface that keeps
/// the previous frame) give the bytes of the same scenes drawn whole, every frame; idle scenes
/// draw nothing; the strip page's damage is its strip.
@Suite struct SceneDamageTests {
    static let width = GoldenCase.width
    static let height = GoldenCase.height

    /// Frames every 1/15 s (touches, a slideshow change and its reveal included) drawn with and
    /// without damage, on one thread and on two.
    @Test(arguments: GoldenCase.all.map(\.name))
    func scenesDrawnWithDamageGiveTheWholeFramesBytes(name: String) throws {
        let golden = GoldenCase.all.first { $0.name == name }!
        for threads in [1, 2] {
            let whole = try golden.makePlayer(threads: threads)
            whole.tracksDamage = false
            var wholePlayback = ScriptedPlayback(player: whole, script: try golden.makeScript())
            var damagedPlayback = ScriptedPlayback(
                player: try golden.makePlayer(threads: threads), script: try golden.makeScript())
            let wholeBuffer = PixelBuffer(width: Self.width, height: Self.height)
            let damagedBuffer = PixelBuffer(width: Self.width, height: Self.height)
            var partial = 0
            for frame in 0..<150 {
                let time = Double(frame) / 15
                wholePlayback.render(at: time, into: wholeBuffer.surface)
                let damage = damagedPlayback.render(at: time, into: damagedBuffer.surface)
                if damage.area < Self.width * Self.height { partial += 1 }
                let difference = Self.firstDifference(wholeBuffer.surface, damagedBuffer.surface)
                #expect(difference == nil, "\(name), \(threads) threads, frame \(frame): \(difference ?? "")")
                if difference != nil { break }
            }
            if name == "slideshow" || name == "wave" || name == "elastic" {
                #expect(partial > 10, "\(name): frames drawn in part (\(partial))")
            }
        }
    }

    static func firstDifference(_ a: PixelSurface, _ b: PixelSurface) -> String? {
        for y in 0..<a.height {
            for x in 0..<a.width where a.row(y)[x] != b.row(y)[x] {
                return
                    "(\(x), \(y)): \(String(a.row(y)[x], radix: 16)) drawn whole, \(String(b.row(y)[x], radix: 16)) with damage"
            }
        }
        return nil
    }

    static func player(_ sceneFile: String) throws -> ScenePlayer {
        try loadSceneFile(bytes: Array(sceneFile.utf8), name: "test") { _ in SceneImages(syntheticImages()) }
    }

    @Test func anIdlePondAndASlideshowBetweenPicturesDrawNothing() throws {
        let buffer = PixelBuffer(width: Self.width, height: Self.height)
        let pond = try Self.player(#"{"scene": "ripples"}"#)
        #expect(pond.render(at: 0, into: buffer.surface).area == Self.width * Self.height)
        #expect(pond.render(at: 0.5, into: buffer.surface).isEmpty)
        let slides = try Self.player(#"{"scene": "slideshow", "parameters": {"interval": 5, "folder": "x"}}"#)
        slides.render(at: 0, into: buffer.surface)
        #expect(slides.render(at: 1, into: buffer.surface).isEmpty)
        #expect(slides.render(at: 4.9, into: buffer.surface).isEmpty)
        #expect(!slides.render(at: 5.5, into: buffer.surface).isEmpty, "the reveal draws")
        slides.redrawAll()
        #expect(slides.render(at: 5.5, into: buffer.surface).area == Self.width * Self.height)
    }

    /// examples/strip.json: a picture under a flowing strip at the bottom; after the first frame
    /// only the strip's rows are drawn (rows 1010..<1080: the frame has no rings, so damage is not
    /// rounded to eight rows), and they are the bytes of the frame drawn whole, on one thread and
    /// two, though the opaque front wave hides the picture and the back wave below its curve
    /// (the renderer skips them there).
    @Test(arguments: [1, 2])
    func theStripPagesDamageIsItsStripAndItsBytesTheWholeFrames(threads: Int) throws {
        let bytes = ExampleFileTests.read(ExampleFileTests.examples + "/strip.json")
        let player = try loadSceneFile(bytes: bytes, name: "strip.json", threads: threads) { _ in
            SceneImages(syntheticImages())
        }
        let whole = try loadSceneFile(bytes: bytes, name: "strip.json") { _ in SceneImages(syntheticImages()) }
        whole.tracksDamage = false
        let buffer = PixelBuffer(width: 1920, height: 1080)
        let wholeBuffer = PixelBuffer(width: 1920, height: 1080)
        player.render(at: 0, into: buffer.surface)
        for frame in 1..<8 {
            let time = Double(frame) / 60
            let damage = player.render(at: time, into: buffer.surface)
            whole.render(at: time, into: wholeBuffer.surface)
            #expect(damage.bounds.y0 >= 1080 - 70 && damage.bounds.y1 == 1080, "frame \(frame): \(damage.rects)")
            let difference = Self.firstDifference(wholeBuffer.surface, buffer.surface)
            #expect(difference == nil, "frame \(frame): \(difference ?? "")")
        }
    }

    /// examples/menu.json with its clock moved a minute a frame: drawn with damage it gives the
    /// whole frames' bytes, both with the waves moving and held still; held still, the damage is
    /// the clock's own columns (not the headline beside it, not whole rows), so this fails if
    /// column-exact damage reaches back to whole rows or draws the wrong columns.
    @Test func theMenusClockAloneDamagesOnlyItsColumns() throws {
        let bytes = ExampleFileTests.read(ExampleFileTests.examples + "/menu.json")
        let readText = { (path: String) in ExampleFileTests.read(ExampleFileTests.examples + "/" + path) }
        let whole = try loadSceneFile(bytes: bytes, name: "menu.json", readFile: readText) { _ in .none }
        let damaged = try loadSceneFile(bytes: bytes, name: "menu.json", readFile: readText) { _ in .none }
        whole.tracksDamage = false
        let wholeBuffer = PixelBuffer(width: 1920, height: 1080)
        let damagedBuffer = PixelBuffer(width: 1920, height: 1080)
        for frame in 0..<24 {
            var clock = WallClock.dumpClock
            clock.epochAtZero += Double(frame) * 60
            whole.use(clock)
            damaged.use(clock)
            // The first half holds the animation (only the clock changes), the second moves it.
            let time = frame < 12 ? 0 : Double(frame - 12) / 60
            whole.render(at: time, into: wholeBuffer.surface)
            let damage = damaged.render(at: time, into: damagedBuffer.surface)
            let difference = Self.firstDifference(wholeBuffer.surface, damagedBuffer.surface)
            #expect(difference == nil, "frame \(frame): \(difference ?? "")")
            if frame > 0 && frame < 12 {
                #expect(!damage.isEmpty, "frame \(frame): the clock changed")
                let columns = damage.bounds.x1 - damage.bounds.x0
                #expect(columns < 1920 / 3, "frame \(frame): only the clock's columns, \(damage.rects)")
                #expect(damage.area < 1920 * 1080 / 50, "frame \(frame): \(damage.rects)")
            }
        }
    }

    /// Every example page, with its golden case's taps, every 0.1 s to half a second past its
    /// last golden time, drawn with damage and drawn whole: the same bytes in every frame
    /// (button bounces, page wipes, scrolling, slideshow reveals and clocks included).
    @Test(arguments: ExampleGoldenCase.all)
    func everyExampleDrawnWithDamageGivesTheWholeFramesBytes(_ example: ExampleGoldenCase) throws {
        let whole = try example.makePlayer()
        whole.tracksDamage = false
        let touches = try example.makeScript()
        var wholePlayback = ScriptedPlayback(player: whole, script: touches)
        var damagedPlayback = ScriptedPlayback(player: try example.makePlayer(), script: touches)
        let wholeBuffer = PixelBuffer(width: 1920, height: 1080)
        let damagedBuffer = PixelBuffer(width: 1920, height: 1080)
        var partial = 0
        let frames = Int(((example.times.last ?? 0) + 0.5) * 10)
        for frame in 0...frames {
            let time = Double(frame) / 10
            wholePlayback.render(at: time, into: wholeBuffer.surface)
            let damage = damagedPlayback.render(at: time, into: damagedBuffer.surface)
            if damage.area < 1920 * 1080 { partial += 1 }
            guard wholeBuffer.packedBytes() == damagedBuffer.packedBytes() else {
                let difference = Self.firstDifference(wholeBuffer.surface, damagedBuffer.surface) ?? ""
                Issue.record("examples/\(example.name).json at \(time) s: \(difference)")
                return
            }
        }
        // A full-screen video shows a new picture at every 0.1 s step: all of it is damage.
        if example.name != "video" {
            #expect(partial > 0, "examples/\(example.name).json: some frames are drawn in part")
        }
    }
}

import SwellRaster
import SwellScenes
import Testing

/// Pages: placed elements, buttons and their actions, and the page format's validation.
@Suite struct PageTests {
    static func player(_ text: String) throws(SceneFileError) -> ScenePlayer {
        try loadSceneFile(bytes: Array(text.utf8), name: "page.json") { _ in .none }
    }

    static let pond = """
        {"layers": [{"id": "pond", "scene": "ripples"},
          {"scene": "button", "frame": {"x": 100, "y": 100, "width": 200, "height": 60},
           "parameters": {"label": "Clear", "action": "clear", "target": "pond"}}]}
        """

    static func tap(_ player: ScenePlayer, x: Double, y: Double, at time: Double) {
        player.handle(TouchEvent(.began, finger: 0, x: x, y: y, time: time))
        player.handle(TouchEvent(.ended, finger: 0, x: x, y: y, time: time + 0.1))
    }

    static func ripples(_ player: ScenePlayer) -> Int { (player.layers[0] as! RipplesScene).count }

    @Test func aTouchOnAButtonDoesNotReachThePondUnderItAndClearsIt() throws {
        let player = try Self.player(Self.pond)
        player.screen = FrameSize(width: 640, height: 480)
        Self.tap(player, x: 500, y: 400, at: 0)
        Self.tap(player, x: 520, y: 300, at: 0.2)
        #expect(Self.ripples(player) == 2, "taps beside the button reach the pond")
        Self.tap(player, x: 150, y: 120, at: 0.4)
        #expect(Self.ripples(player) == 0, "the tap on the button cleared the pond and made no ripple")
    }

    @Test func animateEasesTheWaveToTheTutorialsRanges() throws {
        let bytes = ExampleFileTests.read(ExampleFileTests.examples + "/wave-button.json")
        let player = try loadSceneFile(bytes: bytes, name: "wave-button.json") { _ in .none }
        let buffer = PixelBuffer(width: 1920, height: 1080)
        player.render(at: 0, into: buffer.surface)
        let before = FrameRendererPixels.of(buffer)
        Self.tap(player, x: 960, y: 540, at: 0.5)
        player.render(at: 4, into: buffer.surface)
        #expect(FrameRendererPixels.of(buffer) != before, "the wave changed")
        // The wave's crest rows: its amplitude is 30...60 px after the first (tall) change.
        let crest = (390..<690).first { y in
            (0..<1920).contains { x in buffer.surface.pixel(x: x, y: y) & 0xFF_FFFF != 0xFF_FFFF }
        }!
        let amplitude = 540 - Double(crest)
        #expect(amplitude >= 25 && amplitude <= 61, "amplitude \(amplitude) px")
    }

    @Test func anActionNamingAMissingElementIsRefusedWithItsPath() {
        let text = """
            {"layers": [{"id": "pond", "scene": "ripples"},
              {"scene": "button", "frame": {"left": 0, "width": 90}, "parameters": {"action": "animate", "target": "sea"}},
              {"scene": "button", "frame": {"left": 0, "x": 3}}]}
            """
        do {
            _ = try Self.player(text)
            Issue.record("accepted")
        } catch {
            let lines = error.problems.joined(separator: "\n")
            #expect(lines.contains("$.layers[2].frame: give \"x\" or \"left\", not both"), "\(lines)")
            #expect(lines.contains("$.layers[1].parameters.target: \"sea\" names no element"), "\(lines)")
        }
    }
}

enum FrameRendererPixels {
    static func of(_ buffer: PixelBuffer) -> [UInt32] {
        var pixels: [UInt32] = []
        for y in 0..<buffer.surface.height {
            for x in stride(from: 0, to: buffer.surface.width, by: 7) {
                pixels.append(buffer.surface.pixel(x: x, y: y))
            }
        }
        return pixels
    }
}

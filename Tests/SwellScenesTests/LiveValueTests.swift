import SwellRaster
import SwellScenes
import Testing

/// Live values of text elements: the ripple count, and a clock's damage.
@Suite struct LiveValueTests {
    static let counter = """
        {"layers": [{"id": "pond", "scene": "ripples"},
          {"scene": "text", "frame": {"x": 20, "y": 20, "width": 300, "height": 60},
           "parameters": {"text": "Ripples: %d", "countOf": "pond", "size": 34}},
          {"scene": "button", "frame": {"x": 400, "y": 380, "width": 200, "height": 60},
           "parameters": {"label": "Clear", "action": "clear", "target": "pond"}}]}
        """

    static func shown(_ player: ScenePlayer, at time: Double) -> String {
        (player.layers[1] as! TextScene).string(at: time)
    }

    @Test func countOfFollowsTheTapsOnThePondAndItsClearing() throws {
        let player = try loadSceneFile(bytes: Array(Self.counter.utf8), name: "counter.json") { _ in .none }
        let buffer = PixelBuffer(width: 640, height: 480)
        player.render(at: 0, into: buffer.surface)
        #expect(Self.shown(player, at: 0) == "Ripples: 0")
        for (n, x) in [100.0, 200, 300].enumerated() {
            PageTests.tap(player, x: x, y: 300, at: 0.1 + Double(n) * 0.1)
        }
        player.render(at: 0.5, into: buffer.surface)
        let pond = (player.layers[0] as! RipplesScene).count
        #expect(pond == 3)
        #expect(Self.shown(player, at: 0.5) == "Ripples: \(pond)")
        PageTests.tap(player, x: 500, y: 400, at: 0.6)
        player.render(at: 0.8, into: buffer.surface)
        #expect(Self.shown(player, at: 0.8) == "Ripples: 0", "the Clear button emptied the pond")
    }

    @Test func countOfNamingAMissingOrWrongElementIsRefusedWithItsPath() {
        let text = """
            {"layers": [{"id": "sea", "scene": "wave"},
              {"scene": "text", "parameters": {"text": "%d", "countOf": "sea"}},
              {"scene": "text", "parameters": {"text": "%d", "countOf": "pond"}}]}
            """
        do {
            _ = try loadSceneFile(bytes: Array(text.utf8), name: "bad.json") { _ in .none }
            Issue.record("accepted")
        } catch {
            let lines = error.problems.joined(separator: "\n")
            let wrongKind = "$.layers[1].parameters.countOf: \"sea\" is a \"wave\", not a \"ripples\""
            #expect(lines.contains(wrongKind), "\(lines)")
            #expect(lines.contains("$.layers[2].parameters.countOf: \"pond\" names no element"), "\(lines)")
        }
    }

    static let clockPage = """
        {"layers": [{"scene": "text", "frame": {"x": 0, "y": 0, "width": 1920, "height": 200},
           "parameters": {"text": "Menu of the day: soup, bread and a long headline", "size": 60}},
          {"scene": "text", "frame": {"right": 40, "bottom": 40, "width": 300, "height": 80},
           "parameters": {"clock": "%H:%M:%S", "size": 48, "tabular": true}}]}
        """

    @Test func aFrameWithOnlyTheClockChangingDrawsOnlyTheClocksRowsAndTheSameBytes() throws {
        let player = try loadSceneFile(bytes: Array(Self.clockPage.utf8), name: "clock.json") { _ in .none }
        let a = PixelBuffer(width: 1920, height: 1080)
        let b = PixelBuffer(width: 1920, height: 1080)
        player.render(at: 0, into: a.surface)
        let wake = player.nextWake(after: 0)!
        #expect(wake > 0 && wake <= 1)
        let damage = player.render(at: wake, into: a.surface)
        #expect(!damage.isEmpty, "the clock changed")
        // Damage spans whole rows (FrameRenderer): the clock's 80 rows at most, not the headline's.
        #expect(damage.area <= 1920 * 80, "damage \(damage.rects) is within the clock's rows")
        #expect(damage.bounds.y0 >= 1080 - 120, "\(damage.bounds)")
        #expect(player.render(at: wake + 0.01, into: a.surface).isEmpty, "nothing moved: nothing drawn")
        // The same frame drawn whole on a new surface: the same bytes as the damaged one.
        player.render(at: wake + 0.01, into: b.surface)
        let same = (0..<1080).allSatisfy { y in
            (0..<1920).allSatisfy { a.surface.pixel(x: $0, y: y) == b.surface.pixel(x: $0, y: y) }
        }
        #expect(same, "damage on and off give the same bytes")
    }
}

import SwellRaster
import SwellScenes
import Testing

#if canImport(Glibc)
    import Glibc
#endif

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

    /// On a scrolling page a drag that begins on a button scrolls and does not press it; a tap
    /// that wobbles less than `tapSlop` still does. Fails if the drag clears the pond.
    @Test func aDragFromAButtonOnAScrollingPageScrollsWithoutPressingIt() throws {
        let tall = Self.pond.replacing(#"{"layers""#, with: #"{"height": 1000, "layers""#)
        let player = try Self.player(tall)
        player.screen = FrameSize(width: 640, height: 480)
        Self.tap(player, x: 500, y: 400, at: 0)
        #expect(Self.ripples(player) == 1)
        player.handle(TouchEvent(.began, finger: 0, x: 150, y: 120, time: 1))
        for step in 1...8 {
            let y = 120 - 5 * Double(step)
            player.handle(TouchEvent(.moved, finger: 0, x: 150, y: y, time: 1 + 0.05 * Double(step)))
        }
        player.handle(TouchEvent(.ended, finger: 0, x: 150, y: 80, time: 1.5))
        #expect(Self.ripples(player) == 1, "the drag scrolled and ran no action")
        #expect(player.scroll.offset(at: 1.5, limit: 520) >= 40, "the page scrolled")
        let offset = player.scroll.offset(at: 20, limit: 520)
        let buttonY = 130 - offset  // the button's middle (page y 130) on the screen
        player.handle(TouchEvent(.began, finger: 0, x: 150, y: buttonY, time: 20))
        player.handle(TouchEvent(.moved, finger: 0, x: 154, y: buttonY + 3, time: 20.05))
        player.handle(TouchEvent(.ended, finger: 0, x: 154, y: buttonY + 3, time: 20.1))
        #expect(Self.ripples(player) == 0, "a tap that wobbled 5 px pressed the button")
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

    static func withPictures(_ text: String, name: String) throws(SceneFileError) -> ScenePlayer {
        try loadSceneFile(bytes: Array(text.utf8), name: name) { _ in SceneImages(syntheticImages()) }
    }

    /// A slideshow placed in a frame, mid-way through its wave-mask reveal, has inside the frame
    /// the bytes of the same slideshow played alone on a surface of the frame's size (taps moved
    /// by the frame's origin), and the page's background outside. Fails if its picture or its
    /// masked picture ignores the frame.
    @Test func aPlacedSlideshowMidRevealIsTheSlideshowAloneAtTheFramesSize() throws {
        let settings = #""folder": "images", "interval": 0, "transition": 3"#
        let page = try Self.withPictures(
            #"{"layers": [{"scene": "slideshow", "frame": {"x": 40, "y": 30, "width": 200, "height": 120}, "#
                + #""parameters": {\#(settings)}}]}"#, name: "page.json")
        let alone = try Self.withPictures(#"{"scene": "slideshow", "parameters": {\#(settings)}}"#, name: "alone.json")
        page.screen = FrameSize(width: 320, height: 200)
        alone.screen = FrameSize(width: 200, height: 120)
        Self.tap(page, x: 140, y: 90, at: 0.5)
        Self.tap(alone, x: 100, y: 60, at: 0.5)
        let pageFrame = PixelBuffer(width: 320, height: 200)
        let aloneFrame = PixelBuffer(width: 200, height: 120)
        page.render(at: 2, into: pageFrame.surface)
        alone.render(at: 2, into: aloneFrame.surface)
        var mismatches = 0
        for y in 0..<200 {
            for x in 0..<320 {
                let inside = x >= 40 && x < 240 && y >= 30 && y < 150
                let expected = inside ? aloneFrame.surface.pixel(x: x - 40, y: y - 30) : page.background.opaquePixel
                if pageFrame.surface.pixel(x: x, y: y) & 0xFF_FFFF != expected & 0xFF_FFFF { mismatches += 1 }
            }
        }
        #expect(mismatches == 0, "\(mismatches) pixels differ")
    }

    /// photo-tap.json, the tutorial's tap-for-the-next-photo: nothing changes on its own; a tap
    /// starts the wave-mask reveal (easeOut 3 s), which rises from the bottom (mid-way the top
    /// row is still the old photo and the bottom row already the new one) and ends on the next
    /// photo, which then stays.
    @Test func photoTapRevealsTheNextPhotoFromTheBottomOverThreeSeconds() throws {
        let bytes = ExampleFileTests.read(ExampleFileTests.examples + "/photo-tap.json")
        let player = try loadSceneFile(bytes: bytes, name: "photo-tap.json") { _ in SceneImages(syntheticImages()) }
        let buffer = PixelBuffer(width: 320, height: 180)
        func frame(at time: Double) -> [UInt32] {
            player.render(at: time, into: buffer.surface)
            return FrameRendererPixels.of(buffer)
        }
        func row(_ y: Int, of pixels: [UInt32]) -> ArraySlice<UInt32> {
            let perRow = (320 + 6) / 7
            return pixels[(y * perRow)..<((y + 1) * perRow)]
        }
        let first = frame(at: 0)
        #expect(frame(at: 60) == first, "no timer: the photo stays until a tap")
        Self.tap(player, x: 160, y: 90, at: 60)
        let during = frame(at: 61)
        let after = frame(at: 63.2)
        #expect(after != first, "the tap brought the next photo")
        #expect(frame(at: 100) == after, "the next photo stays")
        #expect(row(0, of: during) == row(0, of: first), "mid-way, the top is still the old photo")
        #expect(row(179, of: during) == row(179, of: after), "mid-way, the bottom is already the new photo")
        #expect(during != first && during != after)
    }

    /// A fixed wall clock reaches the clocks of every page, not only the shown one: after the
    /// switch, page two's clock shows the injected time (fails with the system's clock there).
    @Test func aWallClockReachesTheClocksOfEveryPage() throws {
        let player = try Self.graph(
            first: "one.json",
            [
                "one.json": Self.pageButton(to: "two.json"),
                "two.json": #"{"layers": [{"scene": "text", "parameters": {"clock": "%Y-%m-%d %H:%M"}}]}"#,
            ])
        player.use(WallClock.dumpClock)
        player.screen = FrameSize(width: 320, height: 180)
        _ = Self.frame(player, at: 0)
        Self.tap(player, x: 60, y: 40, at: 0.5)
        _ = Self.frame(player, at: 1)
        #expect(player.pageName.hasSuffix("two.json"))
        let clock = try #require(player.layers.first as? TextScene)
        #expect(clock.string(at: 1) == "2026-01-01 12:00")
    }

    /// A graph of a tall scrolling page and a fixed one: each keeps its own height, so the
    /// fixed page does not scroll under a drag, and the tall one keeps its scroll while away.
    /// Fails if the first page's height (or scroll) is used for every page.
    @Test func eachPageOfAGraphScrollsByItsOwnHeight() throws {
        let tall = Self.pageButton(to: "fixed.json").replacing(#"{"layers""#, with: #"{"height": 1000, "layers""#)
        let player = try Self.graph(
            first: "tall.json", ["tall.json": tall, "fixed.json": Self.pageButton(to: "tall.json")])
        player.screen = FrameSize(width: 320, height: 180)
        // A slow 10 px drag (and its short coast), so the button stays on the screen.
        Self.drag(player, from: 170, to: 160, start: 0, seconds: 0.5)
        player.handle(TouchEvent(.ended, finger: 0, x: 200, y: 160, time: 0.5))
        let away = player.scroll.offset(at: 20, limit: 820)
        #expect(away >= 10 && away < 30, "the tall page scrolled: \(away)")
        _ = Self.frame(player, at: 20)
        Self.tap(player, x: 60, y: 40 - away, at: 20)  // its button, moved up with the page
        _ = Self.frame(player, at: 20.2)
        #expect(player.pageName.hasSuffix("fixed.json"), "the tap on the tall page's button switched")
        #expect(player.pageHeight == nil, "the fixed page has the screen's height")
        Self.drag(player, from: 170, to: 70, start: 21, seconds: 0.5)
        player.handle(TouchEvent(.ended, finger: 0, x: 200, y: 70, time: 21.5))
        #expect(player.scroll.offset(at: 30, limit: 0) == 0, "the fixed page does not scroll")
        Self.tap(player, x: 60, y: 40, at: 30)
        _ = Self.frame(player, at: 30.2)
        #expect(player.pageName.hasSuffix("tall.json"))
        #expect(player.pageHeight == 1000)
        #expect(player.scroll.offset(at: 40, limit: 820) == away, "the tall page kept its scroll")
    }

    /// A page with one button at (20, 20), 100x40, that shows page `target`.
    static func pageButton(to target: String) -> String {
        #"{"layers": [{"scene": "button", "frame": {"x": 20, "y": 20, "width": 100, "height": 40}, "#
            + #""parameters": {"action": "page", "target": "\#(target)"}}]}"#
    }

    /// The page graph of `files` (page file name to its text), starting at `first`.
    static func graph(first: String, _ files: [String: String]) throws(SceneFileError) -> ScenePlayer {
        try loadPageGraph(
            bytes: Array(files[first]!.utf8), name: first,
            read: { Array(files[$0.split(separator: "/").last.map(String.init) ?? $0]!.utf8) },
            loadImages: { _, _ in .none })
    }

    static func examplePages() throws(SceneFileError) -> ScenePlayer {
        let name = ExampleFileTests.examples + "/welcome.json"
        return try loadPageGraph(
            bytes: ExampleFileTests.read(name), name: name,
            read: { ExampleFileTests.read($0) }, loadImages: { _, _ in .none })
    }

    static func frame(_ player: ScenePlayer, at time: Double) -> [UInt8] {
        let buffer = PixelBuffer(width: 320, height: 180)
        player.render(at: time, into: buffer.surface)
        return buffer.packedBytes()
    }

    /// welcome.json's Start button shows wave-page.json through the wave wipe: one second later
    /// the frame is wave-page.json's own frame (a player of it alone, same time); mid-way it is
    /// neither page, and the same in two runs; its Back button comes back to welcome.json.
    @Test func startSwitchesToTheOtherPageThroughTheWipeAndBackReturns() throws {
        let pages = try Self.examplePages()
        let alone = try loadSceneFile(
            bytes: ExampleFileTests.read(ExampleFileTests.examples + "/wave-page.json"), name: "wave-page.json"
        ) { _ in .none }
        let welcome = Self.frame(pages, at: 0.4)
        Self.tap(pages, x: 160, y: 90, at: 0.5)
        _ = Self.frame(pages, at: 0.6)
        let during = Self.frame(pages, at: 0.9)
        #expect(pages.pageName.hasSuffix("wave-page.json"))
        #expect(!pages.isIdle(at: 0.9), "the wipe is moving")
        let after = Self.frame(pages, at: 1.7)
        #expect(after == Self.frame(alone, at: 1.7), "after the wipe the frame is the other page's")
        #expect(during != after && during != welcome)
        let again = try Self.examplePages()
        _ = Self.frame(again, at: 0.4)
        Self.tap(again, x: 160, y: 90, at: 0.5)
        _ = Self.frame(again, at: 0.6)
        #expect(Self.frame(again, at: 0.9) == during, "the wipe's frames are deterministic")
        Self.tap(pages, x: 50, y: 40, at: 2)  // Back, 24 px from the top left
        _ = Self.frame(pages, at: 2.1)
        #expect(pages.pageName.hasSuffix("welcome.json"), "Back returns")
    }

    /// The wipe starts at the tap, not at the next frame drawn: a frame mid-wipe is the same
    /// whether a frame was drawn just after the tap or none until then (fails when the switch
    /// is dated from the frame after the tap).
    @Test func aPageSwitchIsDatedFromTheTapNotFromTheNextFrame() throws {
        let drawnOften = try Self.examplePages()
        _ = Self.frame(drawnOften, at: 0.4)
        Self.tap(drawnOften, x: 160, y: 90, at: 0.5)
        _ = Self.frame(drawnOften, at: 0.65)
        let drawnSeldom = try Self.examplePages()
        _ = Self.frame(drawnSeldom, at: 0.4)
        Self.tap(drawnSeldom, x: 160, y: 90, at: 0.5)
        let seldom = Self.frame(drawnSeldom, at: 0.9)
        let same = seldom == Self.frame(drawnOften, at: 0.9)  // a Bool: the bytes are not printed
        #expect(same, "the frame mid-wipe depends on whether a frame was drawn after the tap")
        #expect(drawnSeldom.pageName.hasSuffix("wave-page.json") && !drawnSeldom.isIdle(at: 0.9), "mid-wipe")
    }

    /// The whole page graph is checked at load: a page naming itself, a missing page and a bad
    /// member in a page two steps away are all reported, each with its page's file and path.
    @Test func aBadPageGraphIsRefusedWithEveryPagesProblems() {
        var buttons = 0
        func button(_ target: String) -> String {
            buttons += 1  // side by side: none hides another
            return #"{"scene": "button", "frame": {"x": \#(buttons * 100), "width": 90}, "#
                + #""parameters": {"action": "page", "target": "\#(target)"}}"#
        }
        let files = [
            "kiosk/a.json": #"{"layers": [\#(button("b.json")), \#(button("a.json"))]}"#,
            "kiosk/b.json": #"{"layers": [\#(button("../kiosk/c.json")), \#(button("gone.json"))]}"#,
            "kiosk/c.json": #"{"layers": [{"scene": "wave", "colour": 1}, \#(button("a.json"))]}"#,
        ]
        do {
            _ = try loadPageGraph(
                bytes: Array(files["kiosk/a.json"]!.utf8), name: "kiosk/a.json",
                read: { name in
                    guard let text = files[name] else { throw ImageFolderProblem.missing }
                    return Array(text.utf8)
                }, loadImages: { _, _ in .none })
            Issue.record("accepted")
        } catch {
            let lines = error.problems.joined(separator: "\n")
            #expect(error.problems.count == 3, "\(lines)")
            #expect(lines.contains("kiosk/a.json: $.layers[1].parameters.target: \"a.json\" is this page"), "\(lines)")
            #expect(
                lines.contains("kiosk/b.json: $.layers[1].parameters.target: cannot read page \"kiosk/gone.json\""),
                "\(lines)")
            #expect(lines.contains("kiosk/c.json: $.layers[0].colour: unknown member"), "\(lines)")
        }
    }

    /// A button wholly under a later button (which takes all its touches) is refused with both
    /// paths; one only partly covered, or under a pond (which lets touches through), is not.
    @Test func aButtonWhollyUnderALaterButtonIsRefused() throws {
        let hidden = """
            {"layers": [
              {"scene": "button", "frame": {"x": 100, "y": 100, "width": 80, "height": 40}},
              {"scene": "button", "frame": {"x": 90, "y": 90, "width": 200, "height": 100}}]}
            """
        do {
            _ = try Self.player(hidden)
            Issue.record("accepted")
        } catch {
            #expect(error.problems.count == 1, "\(error.problems)")
            #expect(
                error.problems.first?.hasPrefix("$.layers[0].frame: this button lies wholly under $.layers[1]") == true)
        }
        _ = try Self.player(
            """
            {"layers": [
              {"scene": "button", "frame": {"x": 100, "y": 100, "width": 80, "height": 40}},
              {"scene": "button", "frame": {"x": 110, "y": 90, "width": 200, "height": 100}},
              {"scene": "ripples"}]}
            """)
    }

    /// A tapped placed button bulges as far above and left of its frame as below and right of it
    /// (a surface placed at the frame's corner cannot draw up or left of it, which cut the top
    /// and left bulges off). One at the screen's left edge still draws and bulges to the right.
    @Test func aPlacedButtonBulgesEquallyOnAllFourSides() throws {
        func extents(x: Int) throws -> (top: Int, bottom: Int, left: Int, right: Int) {
            let player = try Self.player(
                """
                {"background": "#FFFFFF", "layers": [{"scene": "button", "frame": {"x": \(x), "y": 100, "width": 200, "height": 60},
                  "parameters": {"label": "OK", "color": "#000000", "textColor": "#000000", "cornerRadius": 0, "overshoot": 20}}]}
                """)
            player.screen = FrameSize(width: 640, height: 360)
            Self.tap(player, x: Double(x) + 100, y: 130, at: 0)
            let buffer = PixelBuffer(width: 640, height: 360)
            player.render(at: 0.25, into: buffer.surface)  // the outward spring's end: the widest bulge
            func dark(_ px: Int, _ py: Int) -> Bool { buffer.surface.pixel(x: px, y: py) & 0xFF < 0x80 }
            let column = (0..<360).filter { dark(x + 100, $0) }
            let row = (0..<640).filter { dark($0, 130) }
            return (100 - column.first!, column.last! + 1 - 160, x - row.first!, row.last! + 1 - (x + 200))
        }
        let middle = try extents(x: 200)
        #expect(middle.bottom >= 8, "it bulges: \(middle)")
        #expect(middle.top == middle.bottom && middle.left == middle.right && middle.left == middle.top, "\(middle)")
        let edge = try extents(x: 0)
        #expect(edge.left == 0 && edge.right == middle.right && edge.top == middle.top, "\(edge)")
    }

    /// "N% ± P" places a frame from a share of the screen: a field at x "50% - 100", y "50% + 20",
    /// width "50% - 40" covers exactly those pixels on two screen sizes; a malformed one is
    /// refused with its path and the forms allowed.
    @Test func aShareOfTheScreenPlusPixelsPlacesAFrame() throws {
        let player = try Self.player(
            """
            {"background": "#FFFFFF", "layers": [{"scene": "field",
              "frame": {"x": "50% - 100", "y": "50% + 20", "width": "50% - 40", "height": 50},
              "parameters": {"label": "A", "color": "#000000", "textColor": "#000000"}}]}
            """)
        for (width, height) in [(640, 360), (400, 600)] {
            let buffer = PixelBuffer(width: width, height: height)
            player.render(at: 0, into: buffer.surface)
            func dark(_ x: Int, _ y: Int) -> Bool { buffer.surface.pixel(x: x, y: y) & 0xFF < 0x80 }
            let rows = (0..<height).filter { y in (0..<width).contains { dark($0, y) } }
            let columns = (0..<width).filter { x in (0..<height).contains { dark(x, $0) } }
            #expect(rows.first == height / 2 + 20 && rows.last == height / 2 + 69, "\(width)x\(height)")
            #expect(columns.first == width / 2 - 100, "\(width)x\(height)")
            #expect(columns.last == width / 2 - 100 + width / 2 - 40 - 1, "\(width)x\(height)")
        }
        do {
            _ = try Self.player(#"{"layers": [{"scene": "field", "frame": {"x": "50% -100"}}]}"#)
            Issue.record("accepted")
        } catch {
            #expect(error.problems.count == 1, "\(error.problems)")
            #expect(error.problems.first?.contains("$.layers[0].frame.x") == true, "\(error.problems)")
            #expect(error.problems.first?.contains("like \"50% - 120\", got \"50% -100\"") == true, "\(error.problems)")
        }
    }

    static func tallPage(buttonAt y: Int = 200) -> String {
        """
        {"height": 1000, "background": "#FFFFFF", "layers": [
          {"scene": "button", "frame": {"x": 20, "y": \(y), "width": 100, "height": 40},
           "parameters": {"label": "A", "color": "#FF3B30"}}]}
        """
    }

    static func drag(_ player: ScenePlayer, from y0: Double, to y1: Double, start: Double, seconds: Double) {
        player.handle(TouchEvent(.began, finger: 0, x: 200, y: y0, time: start))
        for step in 1...10 {
            let f = Double(step) / 10
            player.handle(TouchEvent(.moved, finger: 0, x: 200, y: y0 + (y1 - y0) * f, time: start + seconds * f))
        }
    }

    /// A page 1000 px tall on a 320x180 screen: a drag up by 120 px moves a placed element up by
    /// 120 px, from below the screen into it (the frame equals the page with the element 120 px higher).
    @Test func aDragMovesThePageByTheDragDistance() throws {
        let player = try Self.player(Self.tallPage())
        player.screen = FrameSize(width: 320, height: 180)
        Self.drag(player, from: 170, to: 50, start: 0, seconds: 1)
        let moved = Self.frame(player, at: 1)
        let reference = try Self.player(Self.tallPage(buttonAt: 80))
        #expect(moved == Self.frame(reference, at: 1), "the element moved by the drag")
        #expect(moved != Self.frame(try Self.player(Self.tallPage()), at: 1), "unscrolled, it is below the screen")
        #expect(player.scroll.offset(at: 1, limit: 820) == 120)
    }

    /// A throw coasts on with decaying speed and stops: the offset grows less and less, the page
    /// is idle after, and the offset then stays; a long throw stops at the page's end.
    @Test func aThrowCoastsWithDecayingSpeedStopsAndIsClampedAtTheEnd() throws {
        let player = try Self.player(Self.tallPage())
        player.screen = FrameSize(width: 320, height: 180)
        Self.drag(player, from: 170, to: 120, start: 0, seconds: 0.1)  // 500 px/s upwards
        player.handle(TouchEvent(.ended, finger: 0, x: 200, y: 120, time: 0.1))
        let offsets = [0.1, 0.3, 0.5, 0.7].map { player.scroll.offset(at: $0, limit: 820) }
        let steps = zip(offsets.dropFirst(), offsets).map { $0 - $1 }
        #expect(steps.allSatisfy { $0 > 0 }, "\(offsets)")
        #expect(zip(steps.dropFirst(), steps).allSatisfy { $0 < $1 }, "the speed decays: \(steps)")
        // v0·(1 − 0.998^t_ms)/(−ln 0.998 per ms): the throw's whole travel, 50 + ~250 px.
        let travel = 500 / (-1000 * log(0.998))
        #expect(abs(player.scroll.offset(at: 10, limit: 820) - (50 + travel)) < 1.5)
        #expect(!player.isIdle(at: 1) && player.isIdle(at: 10), "it stops")
        #expect(player.scroll.offset(at: 10, limit: 820) == player.scroll.offset(at: 20, limit: 820))
        Self.drag(player, from: 170, to: 20, start: 11, seconds: 0.05)  // 3000 px/s
        player.handle(TouchEvent(.ended, finger: 0, x: 200, y: 20, time: 11.05))
        #expect(player.scroll.offset(at: 30, limit: 820) == 820, "clamped at the bottom end")
        Self.drag(player, from: 20, to: 170, start: 31, seconds: 0.05)
        player.handle(TouchEvent(.ended, finger: 0, x: 200, y: 170, time: 31.05))
        #expect(player.scroll.offset(at: 50, limit: 820) >= 0)
        #expect(player.scroll.offset(at: 50, limit: 820) < 820, "a throw back moves it up again")
    }

    /// scroll-strip.json: after a 200 px drag the strip's rows are a flow scene drawn alone at
    /// 600 x 70 that was told its top is 200 px higher (the tutorial's phases follow the place),
    /// and they differ from the strip's rows before the drag.
    @Test func theStripsWavePhasesFollowTheScroll() throws {
        let bytes = ExampleFileTests.read(ExampleFileTests.examples + "/scroll-strip.json")
        let player = try loadSceneFile(bytes: bytes, name: "scroll-strip.json") { _ in .none }
        let page = PixelBuffer(width: 600, height: 1000)
        player.render(at: 0, into: page.surface)
        let before = (660..<730).map { y in (0..<600).map { page.surface.pixel(x: $0, y: y) } }
        Self.drag(player, from: 900, to: 700, start: 1, seconds: 1)
        player.handle(TouchEvent(.ended, finger: 0, x: 200, y: 700, time: 3))
        player.render(at: 3, into: page.surface)
        var settings = FlowScene.descriptor.defaultSettings()
        settings.set("phases", .text("scroll"))
        settings.set("level", .number(0.5))
        settings.set("gap", .number(0))
        var flow = FlowScene(settings)
        flow.follow(screenTop: 460)
        let alone = ScenePlayer(layers: [flow])
        let strip = PixelBuffer(width: 600, height: 70)
        alone.render(at: 3, into: strip.surface)
        let after = (460..<530).map { y in (0..<600).map { page.surface.pixel(x: $0, y: y) } }
        let expected = (0..<70).map { y in (0..<600).map { strip.surface.pixel(x: $0, y: y) } }
        #expect(after == expected, "the strip is the flow told its new top")
        #expect(after != before, "the phases moved with the scroll")
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

enum ImageFolderProblem: Error { case missing }

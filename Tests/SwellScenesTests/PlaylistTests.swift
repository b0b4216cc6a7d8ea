import SwellRaster
import SwellScenes
import Testing

/// Files a playlist under test reads: pages as text, pictures as one colour each. Changed by the
/// test only while the preparing thread is idle (after `finishBackgroundWork`).
final class PlaylistTestFiles: @unchecked Sendable {
    var pages: [String: String] = [:]
    var pictures: [String: UInt32] = [:]
    var journal: [String] = []

    struct Missing: Error, CustomStringConvertible {
        let path: String
        var description: String { "no such file: \(path)" }
    }

    var loaders: PlaylistLoaders {
        PlaylistLoaders(
            read: { path in
                guard let page = self.pages[path] else { throw Missing(path: path) }
                return Array(page.utf8)
            },
            loadPicture: { path in
                guard self.pictures[path] != nil else { throw Missing(path: path) }
                return SceneImages(names: [path]) { name, _ in
                    guard let colour = self.pictures[name] else { throw Missing(path: name) }
                    let buffer = PixelBuffer(width: 8, height: 6)
                    for y in 0..<6 { buffer.surface.row(y).update(repeating: colour, count: 8) }
                    return buffer
                }
            },
            journal: { self.journal.append($0) })
    }

    func load(_ playlist: String, name: String = "list.json") throws(SceneFileError) -> ScenePlayer {
        try loadPlaylist(bytes: Array(playlist.utf8), name: name, loaders: loaders)
    }
}

let red: UInt32 = 0xFFFF_0000
let green: UInt32 = 0xFF00_FF00
let blue: UInt32 = 0xFF00_00FF

/// A playlist of the pictures a, b and c (red, green, blue) with these durations and transition.
func colourPlaylist(
    _ durations: [Double] = [1, 2, 1.5], transition: String = #"{"kind": "cut"}"#, tap: String = #"{"action": "none"}"#
) -> (PlaylistTestFiles, String) {
    let files = PlaylistTestFiles()
    files.pictures = ["a.png": red, "b.png": green, "c.png": blue]
    let items = zip(["a.png", "b.png", "c.png"], durations).map { #"{"picture": "\#($0)", "duration": \#($1)}"# }
    let text = """
        {"format": "playlist/1", "transition": \(transition), "tap": \(tap),
         "items": [\(items.joined(separator: ", "))]}
        """
    return (files, text)
}

/// The pixel at the middle of the frame at `time`.
func middle(_ player: ScenePlayer, at time: Double, in frame: PixelBuffer) -> UInt32 {
    player.render(at: time, into: frame.surface)
    return frame.surface.row(frame.height / 2)[frame.width / 2]
}

@Suite struct PlaylistTests {
    @Test func itemsPlayInTurnForTheirDurationsAndLoop() throws {
        let (files, text) = colourPlaylist()
        let player = try files.load(text)
        let frame = PixelBuffer(width: 32, height: 18)
        for (time, colour) in [
            (0.0, red), (0.99, red), (1.0, green), (2.9, green), (3.0, blue), (4.4, blue), (4.5, red), (5.6, green),
            (9.0, red), (100.0, green),
        ] {
            #expect(middle(player, at: time, in: frame) == colour, "at \(time) s")
        }
        #expect(files.journal.isEmpty)
        #expect(player.itemFiles == ["a.png", "b.png", "c.png"])
    }

    @Test func pathsAreRelativeToThePlaylistFile() throws {
        let files = PlaylistTestFiles()
        files.pictures = ["signs/a.png": red, "b.png": green]
        files.pages = ["signs/p.json": #"{"scene": "flow"}"#]
        let player = try loadPlaylist(
            bytes: Array(
                #"{"format": "playlist/1", "items": [{"picture": "a.png", "duration": 1}, {"page": "p.json", "duration": 1}, {"picture": "../b.png", "duration": 1}]}"#
                    .utf8), name: "signs/list.json", loaders: files.loaders)
        #expect(player.itemFiles == ["signs/a.png", "signs/p.json", "b.png"])
    }

    @Test func badFilesAreRefusedWithEveryProblemAndItsPath() {
        let cases: [(String, String)] = [
            (#"{"format": "playlist/1", "items": []}"#, "$.items: "),
            (#"{"format": "playlist/1"}"#, "missing required member \"items\""),
            (#"{"items": [{"picture": "a.png", "duration": 1}]}"#, "missing required member \"format\""),
            (#"{"format": "playlist/1", "items": [{"picture": "a.png", "duration": 0}]}"#, "$.items[0].duration: "),
            (#"{"format": "playlist/1", "items": [{"picture": "a.png", "duration": -2}]}"#, "$.items[0].duration: "),
            (#"{"format": "playlist/1", "items": [{"picture": "a.png", "duration": 1e400}]}"#, ""),
            (#"{"format": "playlist/1", "items": [{"picture": "a.png"}]}"#, "missing required member \"duration\""),
            (
                #"{"format": "playlist/1", "items": [{"picture": "a.png", "duration": 1, "transition": {"kind": "fade"}}]}"#,
                "$.items[0].transition.kind: expected one of \"wipe\", \"cut\", \"crossfade\", got \"fade\""
            ),
            (
                #"{"format": "playlist/1", "transition": {"kind": "wipe", "duration": -1}, "items": [{"picture": "a.png", "duration": 1}]}"#,
                "$.transition.duration: "
            ),
            (
                #"{"format": "playlist/1", "items": [{"picture": "a.png", "duration": 1, "colour": 3}]}"#,
                "$.items[0].colour: unknown member"
            ),
            (
                #"{"format": "playlist/1", "loop": false, "items": [{"picture": "a.png", "duration": 1}]}"#,
                "$.loop: unknown member"
            ),
            (
                #"{"format": "playlist/1", "items": [{"page": "a.json", "picture": "a.png", "duration": 1}]}"#,
                "$.items[0]: give only one of"
            ),
            (
                #"{"format": "playlist/1", "items": [{"page": "a.json", "duration": 1, "scale": "fit"}]}"#,
                "$.items[0].scale: unknown member"
            ),
            (
                #"{"format": "playlist/1", "tap": {"action": "pause"}, "items": [{"picture": "a.png", "duration": 1}]}"#,
                "missing required member \"seconds\""
            ),
            (
                #"{"format": "playlist/1", "tap": {"action": "skip"}, "items": [{"picture": "a.png", "duration": 1}]}"#,
                "$.tap.action: expected one of"
            ),
            // Files that do not load, each named by its item.
            (
                #"{"format": "playlist/1", "items": [{"picture": "a.png", "duration": 1}, {"page": "gone.json", "duration": 1}]}"#,
                "$.items[1].page: gone.json: cannot read: no such file: gone.json"
            ),
            (
                #"{"format": "playlist/1", "items": [{"picture": "gone.png", "duration": 1}]}"#,
                "$.items[0].picture: no such file: gone.png"
            ),
            (
                #"{"format": "playlist/1", "items": [{"page": "bad.json", "duration": 1}]}"#,
                "$.items[0].page: bad.json: $.scene: expected one of"
            ),
        ]
        for (text, expected) in cases {
            let files = PlaylistTestFiles()
            files.pictures = ["a.png": red]
            files.pages = ["bad.json": #"{"scene": "nope"}"#]
            do {
                _ = try files.load(text)
                Issue.record("accepted: \(text)")
            } catch {
                #expect(error.description.hasPrefix("list.json: "), "\(error)")
                #expect(error.description.contains(expected), "\(text): \(error)")
            }
        }
    }

    @Test func aPageItemShowsThePageFromItsOwnTimeZero() throws {
        let files = PlaylistTestFiles()
        files.pictures = ["a.png": red]
        files.pages = ["wave.json": #"{"scene": "wave"}"#]
        let player = try files.load(
            #"{"format": "playlist/1", "items": [{"picture": "a.png", "duration": 2}, {"page": "wave.json", "duration": 5, "transition": {"kind": "cut"}}], "transition": {"kind": "cut"}}"#
        )
        let alone = try loadSceneFile(bytes: Array(#"{"scene": "wave"}"#.utf8), name: "wave.json") { _ in .none }
        let frame = PixelBuffer(width: 64, height: 36)
        let expected = PixelBuffer(width: 64, height: 36)
        for time in [0.0, 1.0, 2.0, 2.5, 3.25] { player.render(at: time, into: frame.surface) }
        for local in [0.0, 0.5, 1.25] { alone.render(at: local, into: expected.surface) }
        #expect(frame.packedBytes() == expected.packedBytes())
    }

    /// With the default tap action the touches go to the item: a page's button works (here a
    /// `page` action's wipe to the page it names), at the item's own time.
    @Test func anItemsButtonsWork() throws {
        let files = PlaylistTestFiles()
        files.pictures = ["red.png": red]
        let pageA = """
            {"layers": [{"scene": "flow"}, {"scene": "button", "frame": {"width": 60, "height": 30},
              "parameters": {"label": "Go", "action": "page", "target": "b.json"}}]}
            """
        files.pages = ["a.json": pageA, "b.json": #"{"scene": "wave"}"#]
        let player = try files.load(
            #"{"format": "playlist/1", "transition": {"kind": "cut"}, "items": [{"picture": "red.png", "duration": 1}, {"page": "a.json", "duration": 10}]}"#
        )
        let alone = try loadPageGraph(
            bytes: Array(pageA.utf8), name: "a.json", read: { Array(files.pages[$0]!.utf8) },
            loadImages: { _, _ in .none })
        let (frame, expected) = (PixelBuffer(width: 160, height: 90), PixelBuffer(width: 160, height: 90))
        for (shown, offset) in [(player, 1.0), (alone, 0.0)] {
            let target = shown === player ? frame : expected
            shown.render(at: offset, into: target.surface)
            shown.render(at: offset + 0.2, into: target.surface)
            shown.handle(TouchEvent(.began, finger: 0, x: 80, y: 45, time: offset + 0.5))
            shown.handle(TouchEvent(.ended, finger: 0, x: 80, y: 45, time: offset + 0.55))
            shown.render(at: offset + 0.9, into: target.surface)
        }
        #expect(frame.packedBytes() == expected.packedBytes(), "the wipe to b.json 0.35 s after the tap")
        // And the tap did something: page a untouched looks otherwise.
        let untouched = try loadPageGraph(
            bytes: Array(pageA.utf8), name: "a.json", read: { Array(files.pages[$0]!.utf8) },
            loadImages: { _, _ in .none })
        let still = PixelBuffer(width: 160, height: 90)
        for time in [0, 0.2, 0.9] { untouched.render(at: time, into: still.surface) }
        #expect(frame.packedBytes() != still.packedBytes())
    }

    @Test func tapNextMovesOnAtTheTapAndPauseHolds() throws {
        let (files, text) = colourPlaylist(tap: #"{"action": "next"}"#)
        let player = try files.load(text)
        let frame = PixelBuffer(width: 32, height: 18)
        #expect(middle(player, at: 0.2, in: frame) == red)
        player.handle(TouchEvent(.began, finger: 0, x: 5, y: 5, time: 0.5))
        player.handle(TouchEvent(.ended, finger: 0, x: 5, y: 5, time: 0.55))
        #expect(middle(player, at: 0.6, in: frame) == green)
        #expect(middle(player, at: 2.4, in: frame) == green)
        #expect(middle(player, at: 2.5, in: frame) == blue)  // 2 s from the tap

        let (pauseFiles, pauseText) = colourPlaylist(tap: #"{"action": "pause", "seconds": 3}"#)
        let paused = try pauseFiles.load(pauseText)
        paused.render(at: 0, into: frame.surface)
        paused.handle(TouchEvent(.began, finger: 0, x: 5, y: 5, time: 0.5))
        #expect(middle(paused, at: 3.4, in: frame) == red)
        #expect(middle(paused, at: 3.5, in: frame) == green)
        // A tap during a pause starts its seconds again.
        let again = try pauseFiles.load(pauseText)
        again.render(at: 0, into: frame.surface)
        again.handle(TouchEvent(.began, finger: 0, x: 5, y: 5, time: 0.5))
        again.handle(TouchEvent(.began, finger: 0, x: 5, y: 5, time: 3.0))
        #expect(middle(again, at: 5.9, in: frame) == red)
        #expect(middle(again, at: 6.0, in: frame) == green)
        // A pause never shortens a turn.
        let (longFiles, longText) = colourPlaylist([9, 2, 1.5], tap: #"{"action": "pause", "seconds": 3}"#)
        let long = try longFiles.load(longText)
        long.render(at: 0, into: frame.surface)
        long.handle(TouchEvent(.began, finger: 0, x: 5, y: 5, time: 0.5))
        #expect(middle(long, at: 8.9, in: frame) == red)
    }

    /// The same touches give the same bytes at a time, whichever frames were drawn before it.
    @Test func aFrameDependsOnlyOnTheTimeAndTheTouches() throws {
        let files = PlaylistTestFiles()
        files.pictures = ["a.png": red, "c.png": blue]
        files.pages = ["ripples.json": #"{"scene": "ripples"}"#, "wave.json": #"{"scene": "wave"}"#]
        let text = """
            {"format": "playlist/1", "tap": {"action": "next"}, "transition": {"kind": "wipe", "duration": 0.7},
             "items": [{"page": "ripples.json", "duration": 2}, {"picture": "a.png", "duration": 1.5,
                        "transition": {"kind": "crossfade", "duration": 0.6}},
                       {"page": "wave.json", "duration": 2}, {"picture": "c.png", "duration": 1}]}
            """
        let touches = [
            TouchEvent(.began, finger: 0, x: 20, y: 10, time: 0.3),
            TouchEvent(.ended, finger: 0, x: 20, y: 10, time: 0.4),
            TouchEvent(.began, finger: 1, x: 40, y: 20, time: 2.05),
            TouchEvent(.ended, finger: 1, x: 40, y: 20, time: 2.1),
        ]
        // The last three are many loops on: reached in one step, the turns between are passed
        // over by arithmetic (not loaded), and the frame is still the one of playing through.
        for target in [0.35, 0.5, 2.3, 2.9, 4.5, 5.1, 7.7, 40.4, 40.95, 97.6] {
            var frames: [[UInt8]] = []
            for step in [1.0 / 60, 0.37, .infinity] {
                let player = try files.load(text)
                var events = touches[...]
                let frame = PixelBuffer(width: 64, height: 36)
                var time = 0.0
                while time < target {
                    while let event = events.first, event.time <= time {
                        player.handle(event)
                        events.removeFirst()
                    }
                    player.render(at: time, into: frame.surface)
                    time += step
                }
                while let event = events.first, event.time <= target {
                    player.handle(event)
                    events.removeFirst()
                }
                player.render(at: target, into: frame.surface)
                frames.append(frame.packedBytes())
            }
            let same = frames[0] == frames[1] && frames[1] == frames[2]
            #expect(same, "at \(target) s")
        }
    }

    /// The renderer's threads and bands change no pixel of a playlist's frames, across a wipe and
    /// a crossfade.
    @Test func threadsChangeNoPixel() throws {
        let files = PlaylistTestFiles()
        files.pictures = ["a.png": red]
        files.pages = ["ripples.json": #"{"scene": "ripples"}"#, "wave.json": #"{"scene": "wave"}"#]
        let text = """
            {"format": "playlist/1", "transition": {"kind": "crossfade", "duration": 0.8},
             "items": [{"page": "wave.json", "duration": 1, "transition": {"kind": "wipe", "duration": 1}},
                       {"picture": "a.png", "duration": 1}, {"page": "ripples.json", "duration": 1}]}
            """
        let one = try loadPlaylist(bytes: Array(text.utf8), name: "list.json", threads: 1, loaders: files.loaders)
        let three = try loadPlaylist(bytes: Array(text.utf8), name: "list.json", threads: 3, loaders: files.loaders)
        let (a, b) = (PixelBuffer(width: 200, height: 120), PixelBuffer(width: 200, height: 120))
        for time in stride(from: 0.0, through: 3.6, by: 0.15) {
            for player in [one, three] {
                player.handle(TouchEvent(.began, finger: 0, x: 100, y: 60, time: time))
                player.handle(TouchEvent(.ended, finger: 0, x: 100, y: 60, time: time))
            }
            one.render(at: time, into: a.surface)
            three.render(at: time, into: b.surface)
            #expect(a.packedBytes() == b.packedBytes(), "at \(time) s")
        }
    }

    /// A crossfade frame is the outgoing item's frame at the change, at the faded alpha, over the
    /// incoming one's; a wipe's rows above the wave are the outgoing item's and those below the
    /// incoming one's. The items' frames are drawn by players of their own.
    @Test func transitionsCompositeTheTwoItemsFrames() throws {
        let files = PlaylistTestFiles()
        files.pages = ["flow.json": #"{"scene": "flow"}"#, "wave.json": #"{"scene": "wave"}"#]
        let text = """
            {"format": "playlist/1", "transition": {"kind": "crossfade", "duration": 1},
             "items": [{"page": "flow.json", "duration": 2, "transition": {"kind": "crossfade", "duration": 1}},
                       {"page": "wave.json", "duration": 2, "transition": {"kind": "wipe", "duration": 1}}]}
            """
        let player = try files.load(text)
        let (width, height) = (96, 54)
        let frame = PixelBuffer(width: width, height: height)
        player.render(at: 2.25, into: frame.surface)
        func alone(_ page: String, at time: Double) throws -> PixelBuffer {
            let scene = try loadSceneFile(bytes: Array(files.pages[page]!.utf8), name: page) { _ in .none }
            let buffer = PixelBuffer(width: width, height: height)
            scene.render(at: time, into: buffer.surface)
            return buffer
        }
        let outgoing = try alone("flow.json", at: 2)
        let incoming = try alone("wave.json", at: 0.25)
        var worst = 0
        for y in 0..<height {
            for x in 0..<width {
                let (o, i, f) = (outgoing.surface.row(y)[x], incoming.surface.row(y)[x], frame.surface.row(y)[x])
                for shift in [0, 8, 16] as [UInt32] {
                    let expected = 0.75 * Double((o >> shift) & 0xFF) + 0.25 * Double((i >> shift) & 0xFF)
                    worst = max(worst, Int(abs(expected - Double((f >> shift) & 0xFF)).rounded(.up)))
                }
            }
        }
        #expect(worst <= 1, "the crossfade differs from the composite by \(worst)")

        // The wipe from wave (at 2 s of its own) to flow (from 0), a quarter of the way.
        player.render(at: 4.25, into: frame.surface)
        let wave = try alone("wave.json", at: 2)
        let flow = try alone("flow.json", at: 0.25)
        let pct = TimingCurve.easeOut.value(at: 0.25)
        let mean = (1 - pct) * (Double(height) + 72) - 36
        for y in 0..<height where Double(y + 1) < mean - 36 || Double(y) > mean + 36 {
            let expected = Double(y) > mean ? flow : wave
            #expect(
                (0..<width).allSatisfy { frame.surface.row(y)[$0] == expected.surface.row(y)[$0] },
                "row \(y) of the wipe at pct \(pct)")
        }
    }

    @Test func anItemThatNoLongerLoadsIsSkippedWithOneLine() throws {
        let (files, text) = colourPlaylist()
        let player = try files.load(text)
        let frame = PixelBuffer(width: 32, height: 18)
        #expect(middle(player, at: 0, in: frame) == red)
        player.finishBackgroundWork()
        // Gone before its turn is prepared (when b's begins): c is passed over, once; a follows b.
        files.pictures["c.png"] = nil
        #expect(middle(player, at: 1.5, in: frame) == green)
        #expect(middle(player, at: 3.1, in: frame) == red)
        #expect(files.journal.count == 1)
        #expect(files.journal.first?.contains("list.json: skipping $.items[2]") == true, "\(files.journal)")
        // Back again: it plays at its next turn.
        player.finishBackgroundWork()
        files.pictures["c.png"] = blue
        #expect(middle(player, at: 4.2, in: frame) == green)
        // Nothing else loads: the last good item stays.
        player.finishBackgroundWork()
        files.pictures = ["c.png": blue]
        #expect(middle(player, at: 6.2, in: frame) == blue)
        player.finishBackgroundWork()
        files.pictures = [:]
        #expect(middle(player, at: 7.7, in: frame) == blue)
        #expect(middle(player, at: 30, in: frame) == blue)
    }

    @Test func aPictureItemIsIdleUntilItsTurnEnds() throws {
        let (files, text) = colourPlaylist([5, 2, 2], transition: #"{"kind": "crossfade", "duration": 0.5}"#)
        let player = try files.load(text)
        let frame = PixelBuffer(width: 32, height: 18)
        player.render(at: 0, into: frame.surface)
        #expect(player.isIdle(at: 0.1))
        #expect(player.nextWake(after: 0.1) == 5)
        player.render(at: 5.1, into: frame.surface)
        #expect(!player.isIdle(at: 5.2))
        #expect(player.isIdle(at: 5.6))
        #expect(player.nextWake(after: 5.6) == 7)
    }
}

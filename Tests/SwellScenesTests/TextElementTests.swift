import SwellRaster
import SwellScenes
import SwellText
import Testing

/// The `text` element: wrapping, ellipsis, alignment (from the rendered pixels), the clock.
@Suite struct TextElementTests {
    static func scene(_ values: [String: ParameterValue]) -> TextScene {
        var settings = TextScene.descriptor.defaultSettings()
        for (name, value) in values { settings.set(name, value) }
        return TextScene(settings)
    }

    /// Widths measured with a Typesetter of its own, not the element's.
    let reference = Typesetter()
    func measured(_ text: String, size: Double) -> Double {
        let font = try! reference.fonts.font(pattern: "DejaVu Sans")
        return reference.shape(text, font: font).advance * size
    }

    static let prose = "The quick brown fox jumps over the lazy dog while a well-known kiosk shows the menu of the day"

    @Test func linesFitTheWidthBreakOnlyAtSpacesOrHyphensAndKeepEveryWord() {
        let scene = Self.scene(["size": .number(30)])
        for width in [150.0, 260, 400, 777] {
            let lines = scene.lines(of: Self.prose, width: width)
            #expect(lines.count > 1, "\(width) px wraps")
            for line in lines {
                #expect(measured(line, size: 30) <= width, "\"\(line)\" fits \(width) px")
            }
            // Joined again (a line ending in a hyphen joins without a space) it is the text.
            let joined = lines.dropFirst().reduce(lines[0]) { $0.hasSuffix("-") ? $0 + $1 : $0 + " " + $1 }
            #expect(joined == Self.prose, "\(width) px")
            // Greedy: the next line's first word would not have fitted on this line.
            for (line, next) in zip(lines, lines.dropFirst()) where !line.hasSuffix("-") {
                let word = next.split(separator: " ").first.map(String.init) ?? ""
                let firstPiece = word.split(separator: "-").first.map(String.init) ?? word
                #expect(measured(line + " " + firstPiece, size: 30) > width, "\"\(line)\" + \(firstPiece)")
            }
        }
    }

    @Test func aWordWiderThanTheFrameIsBrokenBetweenCharacters() {
        let scene = Self.scene(["size": .number(30)])
        let word = "Donaudampfschifffahrtsgesellschaft"
        let lines = scene.lines(of: "a " + word, width: 200)
        #expect(lines.count >= 3)
        #expect(lines.joined() == "a" + word)
        for line in lines { #expect(measured(line, size: 30) <= 200, "\(line)") }
    }

    @Test func maxLinesCutsTheTextAndEndsTheLastLineInAnEllipsis() {
        let scene = Self.scene(["size": .number(30), "maxLines": .number(2)])
        let all = Self.scene(["size": .number(30)]).lines(of: Self.prose, width: 300)
        let lines = scene.lines(of: Self.prose, width: 300)
        #expect(all.count > 2)
        #expect(lines.count == 2)
        #expect(lines[0] == all[0])
        #expect(lines[1].hasSuffix("…") && measured(lines[1], size: 30) <= 300)
        #expect(all[1].hasPrefix(String(lines[1].dropLast())))
    }

    /// The ink's left and right columns of a one-line text placed at (x0, 0) in a 640 px screen.
    func ink(align: String) throws -> (left: Int, right: Int) {
        let text = """
            {"layers": [{"scene": "text", "frame": {"x": 100, "y": 20, "width": 400, "height": 100},
              "parameters": {"text": "Hamburg", "size": 40, "align": "\(align)", "valign": "center"}}]}
            """
        let player = try loadSceneFile(bytes: Array(text.utf8), name: "text.json") { _ in .none }
        let buffer = PixelBuffer(width: 640, height: 200)
        player.render(at: 0, into: buffer.surface)
        let columns = (0..<640).filter { x in
            (0..<200).contains { y in buffer.surface.pixel(x: x, y: y) & 0xFF_FFFF != 0xFF_FFFF }
        }
        return (columns.first ?? -1, columns.last ?? -1)
    }

    @Test func alignmentsPlaceTheInkAtTheFramesEdgesOrCentre() throws {
        let inkWidth = measured("Hamburg", size: 40)
        let left = try ink(align: "left")
        let right = try ink(align: "right")
        let centre = try ink(align: "center")
        #expect(left.left >= 100 && left.left <= 104, "left ink starts at the frame: \(left)")
        #expect(right.right <= 499 && right.right >= 495, "right ink ends at the frame: \(right)")
        // Right alignment moves the same ink by the frame's width less the line's advance.
        #expect(abs(Double(right.left - left.left) - (400 - inkWidth)) <= 1, "\(left) \(right) advance \(inkWidth)")
        let middle = Double(centre.left + centre.right) / 2
        #expect(abs(middle - 300) <= 3, "centred ink \(centre)")
    }

    // 1_700_000_000 is 2023-11-14 22:13:20 UTC; the fixed zone is UTC+1.
    static func clock(_ format: String) -> TextScene {
        var scene = Self.scene(["clock": .text(format)])
        scene.wallClock = WallClock(epochAtZero: 1_700_000_000.25, fixedOffset: 3600)
        return scene
    }

    @Test func theClockShowsTheInjectedTimeInItsZoneAndWakesAtTheMinute() {
        let scene = Self.clock("%Y-%m-%d %H:%M")
        #expect(scene.string(at: 0) == "2023-11-14 23:13")
        #expect(scene.nextWake(after: 0) == 39.75)
        #expect(scene.string(at: 39.74) == "2023-11-14 23:13")
        #expect(scene.string(at: 39.75) == "2023-11-14 23:14")
        #expect(scene.nextWake(after: 39.75) == 99.75)
    }

    @Test func aClockWithSecondsWakesAtEachSecond() {
        let scene = Self.clock("%H:%M:%S")
        #expect(scene.string(at: 0) == "23:13:20")
        #expect(scene.nextWake(after: 0) == 0.75)
        #expect(scene.string(at: 0.75) == "23:13:21")
        #expect(scene.nextWake(after: 0.75) == 1.75)
        #expect(Self.scene([:]).nextWake(after: 0) == nil, "plain text never wakes")
    }
}

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

    /// A width between the two texts' widths at `size`: the first fits, the second does not.
    func width(fitting fits: String, notFitting overflows: String, size: Double = 30) -> Double {
        let (low, high) = (measured(fits, size: size), measured(overflows, size: size))
        #expect(low < high, "\"\(fits)\" is narrower than \"\(overflows)\"")
        return (low + high) / 2
    }

    // The cases below are ones the old wrapper (spaces and hyphens only, then any character)
    // got wrong; the expected lines follow UAX #14 (rule named) and greedy fitting.

    @Test func anExclamationMarkAfterASpaceGoesWithItsWord() {
        // LB13: no break before "!" even after a space; the old wrapper left "!" alone on a line.
        let text = "Bonjour tout le monde !"
        let frame = width(fitting: "Bonjour tout le monde", notFitting: text)
        #expect(Self.scene(["size": .number(30)]).lines(of: text, width: frame) == ["Bonjour tout le", "monde !"])
    }

    @Test func ideographsFillALineAndClosingPunctuationStaysWithTheLastOne() {
        let scene = Self.scene(["size": .number(30)])
        // LB31: a break between any two ideographs, so the line after "Tokyo " is filled
        // (the old wrapper moved all of 東京都庁舎 to the next line).
        let wide = width(fitting: "Tokyo 東京", notFitting: "Tokyo 東京都")
        #expect(scene.lines(of: "Tokyo 東京都庁舎", width: wide) == ["Tokyo 東京", "都庁舎"])
        // LB13: no break before "。" or "…" (the old one cut between any characters here).
        let four = width(fitting: "東京都庁", notFitting: "東京都庁。")
        #expect(scene.lines(of: "東京都庁。", width: four) == ["東京都", "庁。"])
        #expect(scene.lines(of: "東京都庁…", width: width(fitting: "東京都庁", notFitting: "東京都庁…")) == ["東京都", "庁…"])
    }

    @Test func aURLWrapsAfterItsSlashesAsGreedyFittingOfTheStandardsPiecesSays() {
        // LB13 (× SY, × IS), LB29 (IS × AL), LB25 (SY × NU): these are the only pieces.
        let pieces = ["https://", "example.com/", "menu/2026/", "today"]
        let scene = Self.scene(["size": .number(30)])
        let widest = pieces.map { measured($0, size: 30) }.max()!
        for width in [widest + 1, widest + 60, widest + 150, 400] {
            // Greedy over the pieces, measured by the reference typesetter.
            var expected: [String] = []
            for piece in pieces {
                if let last = expected.last, measured(last + piece, size: 30) <= width {
                    expected[expected.count - 1] = last + piece
                } else {
                    expected.append(piece)
                }
            }
            #expect(scene.lines(of: pieces.joined(), width: width) == expected, "\(width) px")
        }
    }

    @Test func lineSeparatorsAndCRLFStartNewLinesAndANoBreakSpaceHolds() {
        let scene = Self.scene(["size": .number(30)])
        // LB4/LB5: U+2028 and CR LF are hard breaks (the old one split at "\n" only).
        let lines = scene.lines(of: "Line one\u{2028}Line two\r\nthree\n", width: 1000)
        #expect(lines == ["Line one", "Line two", "three", ""])
        // LB12: no break after a no-break space, so "10 min" moves down whole.
        let tram = width(fitting: "Tram in 10", notFitting: "Tram in 10\u{A0}min")
        #expect(scene.lines(of: "Tram in 10\u{A0}min", width: tram) == ["Tram in", "10\u{A0}min"])
        // LB25: no break inside a number.
        let pi = width(fitting: "π = 3.", notFitting: "π = 3.14159")
        #expect(scene.lines(of: "π = 3.14159", width: pi) == ["π =", "3.14159"])
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

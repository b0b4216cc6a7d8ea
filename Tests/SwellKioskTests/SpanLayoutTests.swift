import SwellDisplay
import SwellInput
import SwellLoop
import SwellRaster
import SwellService
import Testing

/// Where the outputs of a span lie on its canvas, and the layouts refused as usage errors.
@Suite struct SpanLayoutTests {
    typealias Output = SpanLayout.Output

    static let fullHD = [
        Output(name: "Virtual-1", width: 1920, height: 1080), Output(name: "Virtual-2", width: 1920, height: 1080),
    ]

    /// The spelling of `swell run`'s options, as the command words the problems.
    static let words = SpanLayout.Words(
        span: "--span", position: "--span-at NAME=X,Y", bezel: "--bezel", rotate: "--rotate", mode: "--mode")

    static func usageError(_ make: () throws(SpanLayout.Problem) -> SpanLayout) -> String? {
        do {
            _ = try make()
            return nil
        } catch {
            return SpanLayout.message(error, words)
        }
    }

    @Test func twoFullHDPanelsSideBySideWithABezelMakeOneCanvas() throws {
        let plain = try SpanLayout(outputs: Self.fullHD, arrangement: .row)
        #expect(plain.canvasWidth == 3840 && plain.canvasHeight == 1080)
        #expect(
            plain.tiles == [ClipRect(x0: 0, y0: 0, x1: 1920, y1: 1080), ClipRect(x0: 1920, y0: 0, x1: 3840, y1: 1080)])
        let bezel = try SpanLayout(outputs: Self.fullHD, arrangement: .row, bezel: 40)
        #expect(bezel.canvasWidth == 3880 && bezel.canvasHeight == 1080)
        #expect(bezel.tiles[1] == ClipRect(x0: 1960, y0: 0, x1: 3880, y1: 1080))
        #expect(bezel.viewport(1).rect == bezel.tiles[1] && bezel.viewport(1).canvasWidth == 3880)
        #expect(bezel.description == "3880x1080: Virtual-1 0,0 1920x1080, Virtual-2 1960,0 1920x1080")
    }

    @Test func aColumnStacksOutputsOfOneWidth() throws {
        let three = (1...3).map { Output(name: "HDMI-A-\($0)", width: 1080, height: 1920) }
        let layout = try SpanLayout(outputs: three, arrangement: .column, bezel: 12)
        #expect(layout.canvasWidth == 1080 && layout.canvasHeight == 3 * 1920 + 2 * 12)
        #expect(layout.tiles.map(\.y0) == [0, 1932, 3864])
    }

    @Test func differentHeightsInARowAreAUsageErrorThatSaysHowToStateALayout() {
        let mixed = [
            Output(name: "Virtual-1", width: 1280, height: 720), Output(name: "Virtual-2", width: 1024, height: 768),
        ]
        #expect(
            Self.usageError { () throws(SpanLayout.Problem) in try SpanLayout(outputs: mixed, arrangement: .row) }
                == "--span: outputs side by side (row) need one height, but they are Virtual-1 1280x720, Virtual-2 1024x768 "
                + "(after --rotate); say where each goes with --span-at NAME=X,Y (one per output), or choose modes of one "
                + "height with --mode")
        #expect(
            Self.usageError { () throws(SpanLayout.Problem) in try SpanLayout(outputs: mixed, arrangement: .column) }?
                .contains(
                    "one above the other (column) need one width") == true)
        // Stated positions take any sizes: the canvas is the box around them.
        let stated = try? SpanLayout(
            outputs: mixed,
            arrangement: .positions([
                SpanLayout.Position(name: "virtual-1", x: 0, y: 24),
                SpanLayout.Position(name: "Virtual-2", x: 1300, y: 0),
            ]))
        #expect(stated?.canvasWidth == 2324 && stated?.canvasHeight == 768)
        #expect(stated?.tiles[0] == ClipRect(x0: 0, y0: 24, x1: 1280, y1: 744))
    }

    @Test func badPositionsAreUsageErrors() {
        func positions(_ list: [(String, Int, Int)], bezel: Int = 0) -> String? {
            Self.usageError { () throws(SpanLayout.Problem) in
                try SpanLayout(
                    outputs: Self.fullHD,
                    arrangement: .positions(list.map { SpanLayout.Position(name: $0.0, x: $0.1, y: $0.2) }),
                    bezel: bezel)
            }
        }
        #expect(positions([("Virtual-1", 0, 0), ("Virtual-2", 1920, 0)]) == nil)
        #expect(positions([("Virtual-1", 0, 0)])?.contains("Virtual-2 needs exactly one position (given 0)") == true)
        #expect(
            positions([("Virtual-1", 0, 0), ("Virtual-2", 1920, 0), ("Virtual-2", 1930, 0)])?.contains("(given 2)")
                == true)
        #expect(
            positions([("Virtual-1", 0, 0), ("Virtual-2", 1920, 0), ("HDMI-A-1", 0, 1080)])?.contains(
                "HDMI-A-1 is not one of --span's outputs") == true)
        #expect(
            positions([("Virtual-1", 0, 0), ("Virtual-2", 1919, 0)])
                == "--span-at NAME=X,Y: Virtual-1 and Virtual-2 overlap on the canvas; move one")
        #expect(positions([("Virtual-1", 10, 0), ("Virtual-2", 1940, 0)])?.contains("starts at 0,0") == true)
        #expect(
            positions([("Virtual-1", 0, 0), ("Virtual-2", 1960, 0)], bezel: 40)?.contains("--bezel goes with") == true)
        #expect(
            Self.usageError { () throws(SpanLayout.Problem) in
                try SpanLayout(outputs: Self.fullHD, arrangement: .row, bezel: -1)
            }
                == "--bezel wants a number of pixels ≥ 0, not -1")
        // A kiosk file's author reads the members they wrote.
        let kioskFile = SpanLayout.Words(
            span: "\"span\"", position: "\"at\": [X, Y]", bezel: "\"bezel\"", rotate: "\"rotate\"", mode: "\"mode\"")
        #expect(
            SpanLayout.message(.positionCount(output: "DP-2", given: 0), kioskFile)
                == "\"at\": [X, Y]: DP-2 needs exactly one position (given 0); every output of \"span\" takes one")
    }
}

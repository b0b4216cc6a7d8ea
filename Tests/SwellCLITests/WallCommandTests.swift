import Foundation
import Testing

/// `--canvas` and `--viewport` (a video wall's tile) and `--clock realtime` as a user types them.
@Suite struct WallCommandTests {
    /// `swell dump` of the ripple example with a drag, whole at 97x53, and as three tiles of that
    /// canvas (cuts at x 41, y 27; none on a multiple of 8): each tile's raw frames are the whole
    /// frames' rectangle, byte for byte (the whole dump is the independent reference).
    @Test func dumpedTilesAreTheWholeCanvasRectangles() throws {
        let folder = try temporaryFolder()
        // A tap in each tile and one on the seams' crossing, in canvas pixels.
        let script = folder + "/taps.json"
        var events: [String] = []
        for (finger, (x, y)) in [(20, 13), (70, 13), (48, 40), (41, 27)].enumerated() {
            let time = 0.05 * Double(finger + 1)
            events.append(#"{"time": \#(time), "type": "down", "finger": \#(finger), "x": \#(x), "y": \#(y)}"#)
            events.append(#"{"time": \#(time + 0.02), "type": "up", "finger": \#(finger)}"#)
        }
        try Data(#"{"format": "touches/1", "events": [\#(events.joined(separator: ", "))]}"#.utf8).write(
            to: URL(fileURLWithPath: script))
        let common = [
            "dump", SceneCommandTests.examples + "/ripples.json", "--fps", "10", "--frames", "4..6", "--input", script,
        ]
        let whole = try SwellProcess.run(common + ["--size", "97x53", "-o", folder + "/whole"])
        #expect(whole.status == 0, "\(whole.stderr)")
        let tiles = [(0, 0, 41, 27), (41, 0, 56, 27), (0, 27, 97, 26)]
        for (index, tile) in tiles.enumerated() {
            let viewport = "\(tile.0),\(tile.1),\(tile.2),\(tile.3)"
            let run = try SwellProcess.run(
                common + ["--canvas", "97x53", "--viewport", viewport, "-o", folder + "/tile\(index)"])
            #expect(run.status == 0, "\(run.stderr)")
            for frame in 4...6 {
                let name = String(format: "frame-%06d.raw", frame)
                let wholeBytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/whole/" + name)))
                let tileBytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/tile\(index)/" + name)))
                var expected: [UInt8] = []
                for y in tile.1..<(tile.1 + tile.3) {
                    let start = (y * 97 + tile.0) * 4
                    expected += wholeBytes[start..<(start + tile.2 * 4)]
                }
                #expect(tileBytes == expected, "tile \(viewport), frame \(frame)")
                // Not trivially equal: the frames have ripples in them.
                #expect(Set(expected).count > 2, "frame \(frame) of tile \(viewport) is blank")
            }
        }
    }

    @Test(arguments: [
        (
            ["--canvas", "200x100", "--viewport", "150,0,60,100"],
            "--viewport 150,0,60,100 lies outside the 200x100 canvas"
        ),
        (["--canvas", "200x100", "--viewport", "0,-1,50,50"], "--viewport wants X,Y,W,H in whole pixels"),
        (["--canvas", "200x100", "--viewport", "0,0,50"], "--viewport wants X,Y,W,H in whole pixels"),
        (["--viewport", "0,0,50,50"], "--viewport 0,0,50,50 needs --canvas WxH"),
        (["--canvas", "200x100"], "--canvas needs --viewport X,Y,W,H"),
        (
            ["--canvas", "200x100", "--viewport", "0,0,50,50", "--size", "60x50"],
            "--viewport is 50x50 but --size is 60x50"
        ),
    ])
    func badViewportsAreUsageErrors(arguments: [String], message: String) throws {
        let folder = try temporaryFolder()
        let run = try SwellProcess.run(["dump", "wave", "--frames", "0", "-o", folder] + arguments)
        #expect(run.status == 64 && run.stderr.contains(message), "\(run.status) \(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1, "one line: \(run.stderr)")
    }

    @Test func runRefusesAViewportOfAnotherSizeThanTheDisplay() throws {
        let run = try SwellProcess.run([
            "run", "wave", "--output", "memory", "--size", "64x36", "--seconds", "0", "--canvas", "128x36",
            "--viewport", "64,0,60,36",
        ])
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stderr.contains("--viewport is 60x36 but the picture on memory"), "\(run.stderr)")
        #expect(run.stderr.contains("they must be the same size"))
    }

    @Test func runShowsATileOnTheRealtimeClock() throws {
        let run = try SwellProcess.run([
            "run", "wave", "--output", "memory", "--size", "64x36", "--seconds", "0.2", "--canvas", "128x36",
            "--viewport", "64,0,64,36", "--clock", "realtime", "--epoch", "2026-01-01T00:00:00Z", "--period", "600",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("swell: running wave"), "\(run.stdout)")
    }

    @Test(arguments: [
        (["--clock", "wall"], "--clock wants monotonic or realtime, not 'wall'"),
        (["--epoch", "0"], "--epoch and --period need --clock realtime"),
        (["--clock", "realtime", "--epoch", "2026-13-01T00:00:00Z"], "--epoch wants Unix seconds or a UTC time"),
        (["--clock", "realtime", "--period", "0"], "--period wants a number of seconds > 0"),
    ])
    func badClocksAreUsageErrors(arguments: [String], message: String) throws {
        let run = try SwellProcess.run(["run", "wave", "--output", "memory", "--seconds", "0"] + arguments)
        #expect(run.status == 64 && run.stderr.contains(message), "\(run.status) \(run.stderr)")
    }
}

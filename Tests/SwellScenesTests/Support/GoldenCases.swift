import SwellRaster
import SwellScenes

/// The golden file of case `name`'s frame at `time` (s): NAME-tMMMMMms.png.
func goldenFileName(_ name: String, time: Double) -> String {
    var ms = String(Int((time * 1000).rounded()))
    while ms.count < 5 { ms = "0" + ms }
    return "\(name)-t\(ms)ms.png"
}

/// A golden case's touch script (`touches/1` text), parsed; none: no touches.
func parsedScript(_ script: String?, name: String) throws -> TouchScript {
    guard let script else { return TouchScript(events: []) }
    return try parseTouchScript(bytes: Array(script.utf8), name: name + " script")
}

/// The scenes the golden tests pin down: a scene file, an optional touch script, and the times
/// of the frames to compare, all at 320x180.
struct GoldenCase: CustomStringConvertible, Sendable {
    let name: String
    let sceneFile: String
    let script: String?
    let times: [Double]

    var description: String { name }

    static let width = 320
    static let height = 180

    func goldenName(time: Double) -> String { goldenFileName(name, time: time) }

    /// A fresh player for this case (slideshow cases get three synthetic pictures).
    func makePlayer(threads: Int = 1) throws -> ScenePlayer {
        try loadSceneFile(bytes: Array(sceneFile.utf8), name: name, threads: threads) { _ in
            SceneImages(syntheticImages())
        }
    }

    func makeScript() throws -> TouchScript { try parsedScript(script, name: name) }

    /// Renders the case's frames in order into fresh buffers.
    func renderFrames(threads: Int = 1) throws -> [PixelBuffer] {
        var playback = ScriptedPlayback(player: try makePlayer(threads: threads), script: try makeScript())
        return times.map { time in
            let buffer = PixelBuffer(width: Self.width, height: Self.height)
            playback.render(at: time, into: buffer.surface)
            return buffer
        }
    }

    static let all: [GoldenCase] = [
        GoldenCase(
            name: "wave",
            sceneFile: #"{"format": "scene/1", "scene": "wave"}"#,
            script: #"{"events": [{"time": 0.5, "type": "down", "x": 10, "y": 10}, {"time": 0.6, "type": "up"}]}"#,
            times: [0, 1.5, 3.6, 6.0]),
        GoldenCase(
            name: "ripples",
            sceneFile: #"{"format": "scene/1", "scene": "ripples", "parameters": {"metrics": true}}"#,
            script: """
                {"format": "touches/1", "events": [
                  {"time": 0.2, "type": "down", "finger": 0, "x": 80, "y": 90},
                  {"time": 0.3, "type": "move", "finger": 0, "x": 95, "y": 92},
                  {"time": 0.4, "type": "move", "finger": 0, "x": 110, "y": 94},
                  {"time": 0.5, "type": "down", "finger": 1, "x": 240, "y": 60},
                  {"time": 0.7, "type": "up", "finger": 0},
                  {"time": 0.9, "type": "up", "finger": 1}]}
                """,
            times: [0.45, 1.0, 3.0, 8.0]),
        GoldenCase(
            name: "elastic",
            sceneFile: #"{"format": "scene/1", "scene": "elastic", "parameters": {"overshoot": 14}}"#,
            script: #"{"events": [{"time": 0.1, "type": "down", "x": 160, "y": 90}, {"time": 0.2, "type": "up"}]}"#,
            times: [0, 0.3, 0.4, 0.5, 1.0]),
        GoldenCase(
            name: "waveform",
            sceneFile: #"{"format": "scene/1", "scene": "waveform", "parameters": {"strength": 40}}"#,
            script: nil,
            times: [0, 0.25, 0.6]),
        GoldenCase(
            name: "flow",
            sceneFile: #"{"format": "scene/1", "scene": "flow"}"#,
            script: nil,
            times: [0, 0.5, 1.3]),
        GoldenCase(
            name: "slideshow",
            sceneFile:
                #"{"format": "scene/1", "scene": "slideshow", "parameters": {"interval": 2, "folder": "synthetic"}}"#,
            script: #"{"events": [{"time": 6.0, "type": "down", "x": 1, "y": 1}]}"#,
            times: [0.5, 2.4, 3.5, 5.5, 6.8]),
        GoldenCase(
            name: "layers",
            sceneFile: """
                {"format": "scene/1", "background": "#F4F1EA",
                 "layers": [{"scene": "flow", "parameters": {"level": 0.7}},
                            {"scene": "ripples", "parameters": {"opacity": 0.8, "width": 3}}]}
                """,
            script: #"{"events": [{"time": 0.1, "type": "down", "x": 160, "y": 70}, {"time": 0.2, "type": "up"}]}"#,
            times: [1.0]),
    ]
}

/// Three pictures made in code (no files): a colour ramp, a checkerboard and stripes, with
/// different aspect ratios so scale-to-fill crops both ways.
func syntheticImages() -> [PixelBuffer] {
    func image(_ width: Int, _ height: Int, _ pixel: (Int, Int) -> UInt32) -> PixelBuffer {
        let buffer = PixelBuffer(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width { buffer.surface.row(y)[x] = 0xFF00_0000 | pixel(x, y) }
        }
        return buffer
    }
    return [
        image(160, 120) { x, y in UInt32(255 * x / 159) << 16 | UInt32(255 * y / 119) << 8 | 0x80 },
        image(120, 160) { x, y in (x / 20 + y / 20) % 2 == 0 ? 0xF0C828 : 0x2828C8 },
        image(200, 100) { x, _ in (x / 25) % 2 == 0 ? 0x20A060 : 0xE8E8E8 },
    ]
}

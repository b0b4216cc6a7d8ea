import SwellOutput
import SwellRaster
import SwellScenes
import SwellText
import SwellVideo

#if canImport(Glibc)
    import Glibc
#endif

/// An example page (`examples/NAME.json`) pinned down at chosen times: rendered at 1920x1080,
/// the size the examples are laid out for (their frames, text sizes and bounces are in pixels
/// of a 1080p screen), with an optional touch script, and kept as a 480x270 reduction (the
/// mean of each 4x4 block) so the goldens stay small. A one-pixel shift of an edge or a changed
/// glyph still moves a reduced pixel by far more than the tolerance.
struct ExampleGoldenCase: CustomStringConvertible, Sendable {
    let name: String
    let script: String?
    let times: [Double]

    var description: String { name }

    /// Whether its frames show a video element's pictures (directly, or as a playlist's page),
    /// which FFmpeg's libswscale converts with architecture-dependent rounding (GoldenTests.videoTolerance).
    var showsVideo: Bool { ["video", "promo", "playlist"].contains(name) }

    static let width = 1920
    static let height = 1080
    static let reduction = 4

    static let examples = ExampleFileTests.examples

    func goldenName(time: Double) -> String { goldenFileName(name, time: time) }

    func makeScript() throws -> TouchScript { try parsedScript(script, name: name) }

    /// The example as `swell run` loads it: every page its buttons reach, its pictures from
    /// its folders (PNGs, read whole), and the dumps' fixed wall clock (12:00:00 UTC at 0 s).
    func makePlayer() throws -> ScenePlayer {
        let path = Self.examples + "/\(name).json"
        if isPlaylistDocument(ExampleFileTests.read(path)) {
            // A playlist's items as `swell run` loads them; its pictures read whole.
            let loaders = PlaylistLoaders(
                read: { ExampleFileTests.read($0) }, loadVideo: exampleVideo,
                loadImages: { _, folder in SceneImages(try pictures(in: Self.examples + "/" + folder)) },
                loadPicture: { file in SceneImages(names: [file]) { name, _ in try readPicture(path: name) } },
                journal: { _ in })
            let player = try loadPlaylist(bytes: ExampleFileTests.read(path), name: path, loaders: loaders)
            player.use(WallClock.dumpClock)
            return player
        }
        let player = try loadPageGraph(
            bytes: ExampleFileTests.read(path), name: path, read: { ExampleFileTests.read($0) },
            loadVideo: exampleVideo,
            loadImages: { _, folder in SceneImages(try pictures(in: Self.examples + "/" + folder)) })
        player.use(WallClock.dumpClock)
        return player
    }

    /// The case's frames in order, each reduced.
    func renderFrames() throws -> [PixelBuffer] {
        var playback = ScriptedPlayback(player: try makePlayer(), script: try makeScript())
        let frame = PixelBuffer(width: Self.width, height: Self.height)
        return times.map { time in
            playback.render(at: time, into: frame.surface)
            return reduced(frame, by: Self.reduction)
        }
    }

    /// A tap (down, up 0.05 s later) at each (time, x, y), in screen pixels.
    static func taps(_ taps: [(Double, Int, Int)]) -> String {
        let events = taps.map { time, x, y in
            """
            {"time": \(time), "type": "down", "finger": 0, "x": \(x), "y": \(y)},
            {"time": \(time + 0.05), "type": "up", "finger": 0}
            """
        }
        return #"{"format": "touches/1", "events": ["# + events.joined(separator: ",\n") + "]}"
    }

    /// Every example page. A new examples/*.json without a case here fails
    /// `everyExampleHasGoldens`.
    static let all: [ExampleGoldenCase] = [
        ExampleGoldenCase(name: "wave", script: taps([(0.5, 960, 540)]), times: [0, 2]),
        ExampleGoldenCase(
            name: "ripples",
            script: """
                {"format": "touches/1", "events": [
                  {"time": 0.1, "type": "down", "finger": 0, "x": 500, "y": 500},
                  {"time": 0.3, "type": "move", "finger": 0, "x": 700, "y": 520},
                  {"time": 0.4, "type": "down", "finger": 1, "x": 1400, "y": 300},
                  {"time": 0.5, "type": "up", "finger": 0},
                  {"time": 0.6, "type": "up", "finger": 1}]}
                """,
            times: [1.5]),
        ExampleGoldenCase(name: "elastic", script: taps([(0.1, 960, 540)]), times: [0, 0.3]),
        ExampleGoldenCase(name: "waveform", script: nil, times: [0, 0.25]),
        ExampleGoldenCase(name: "flow", script: nil, times: [0, 0.5]),
        ExampleGoldenCase(name: "slideshow", script: nil, times: [0.5, 6.5]),
        ExampleGoldenCase(name: "layers", script: taps([(0.1, 960, 400)]), times: [1]),
        ExampleGoldenCase(name: "strip", script: nil, times: [0.5]),
        ExampleGoldenCase(name: "strip-alone", script: nil, times: [0.5]),
        // The Animate button in the middle: mid-bounce, then the wave easing to its new shape.
        ExampleGoldenCase(name: "wave-button", script: taps([(0.5, 960, 540)]), times: [0, 0.7, 2]),
        ExampleGoldenCase(
            name: "ripple-counter", script: taps([(0.2, 400, 600), (0.4, 1200, 300), (0.6, 1500, 800)]), times: [1]),
        ExampleGoldenCase(name: "menu", script: nil, times: [0]),
        ExampleGoldenCase(name: "photo-tap", script: taps([(0.1, 960, 540)]), times: [0, 1]),
        // Start, then the wipe to wave-page.json, then that page alone.
        ExampleGoldenCase(name: "welcome", script: taps([(0.5, 960, 540)]), times: [0.3, 0.8, 2]),
        ExampleGoldenCase(name: "wave-page", script: taps([(0.5, 960, 540)]), times: [0, 2]),
        ExampleGoldenCase(
            name: "scroll-strip",
            script: """
                {"format": "touches/1", "events": [
                  {"time": 0.1, "type": "down", "finger": 0, "x": 960, "y": 900},
                  {"time": 0.2, "type": "move", "finger": 0, "x": 960, "y": 800},
                  {"time": 0.3, "type": "move", "finger": 0, "x": 960, "y": 600},
                  {"time": 0.35, "type": "up", "finger": 0}]}
                """,
            times: [0, 0.3, 1.5]),
        // Username, Password, LOGIN in turn, each seen mid-bounce.
        ExampleGoldenCase(
            name: "elastic-form", script: taps([(0.1, 900, 414), (0.6, 900, 534), (1.1, 1255, 660)]),
            times: [0, 0.3, 0.8, 1.3]),
        ExampleGoldenCase(name: "loading", script: nil, times: [0, 0.25]),
        // The clip's pictures at 0 s and 1.5 s (picture 37 of 25 fps), and again after a loop.
        ExampleGoldenCase(name: "video", script: nil, times: [0, 1.5, 5.5]),
        ExampleGoldenCase(name: "promo", script: nil, times: [0, 2.2]),
        // The menu page at 1.5 s of its turn, the wipe from it to the sunset a fifth of the way
        // (3.2 s), and the crossfade from the sunset to the promo page half way (6.4 s).
        ExampleGoldenCase(name: "playlist", script: nil, times: [1.5, 3.2, 6.4]),
    ]
}

/// A video element's pictures as `swell dump` has them: FFmpeg's decoder, each picture waited for.
func exampleVideo(_ request: SceneVideo.Request) throws -> SceneVideo {
    let playback = try VideoPlayback(
        decoder: try FFmpegDecoder(path: request.file), loops: request.loops,
        scaling: VideoScaling(request.fills ? .fill : .fit), background: request.background.opaquePixel,
        waitsForFrames: true)
    return SceneVideo { time, size in
        playback.frame(at: time, width: size.width, height: size.height).map { ($0.buffer, $0.end) }
    }
}

/// Each `factor` x `factor` block's mean, per channel, rounded (the frame's size divides evenly).
func reduced(_ frame: PixelBuffer, by factor: Int) -> PixelBuffer {
    let small = PixelBuffer(width: frame.width / factor, height: frame.height / factor)
    let cells = UInt32(factor * factor)
    for y in 0..<small.height {
        for x in 0..<small.width {
            var sums = (r: UInt32(0), g: UInt32(0), b: UInt32(0))
            for dy in 0..<factor {
                let row = frame.surface.row(y * factor + dy)
                for dx in 0..<factor {
                    let pixel = row[x * factor + dx]
                    sums.r += pixel >> 16 & 0xFF
                    sums.g += pixel >> 8 & 0xFF
                    sums.b += pixel & 0xFF
                }
            }
            let mean = { (sum: UInt32) in (sum + cells / 2) / cells }
            small.surface.row(y)[x] = 0xFF00_0000 | mean(sums.r) << 16 | mean(sums.g) << 8 | mean(sums.b)
        }
    }
    return small
}

/// The PNGs in `folder`, in name order (the examples' pictures are PNGs).
func pictures(in folder: String) throws -> [PixelBuffer] {
    try fileNames(in: folder).filter { $0.hasSuffix(".png") }.map { try readPNG(path: folder + "/" + $0) }
}

/// The names in `folder` (not hidden), sorted; empty when it cannot be read.
func fileNames(in folder: String) -> [String] {
    guard let directory = opendir(folder) else { return [] }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        if !name.hasPrefix(".") { names.append(name) }
    }
    return names.sorted()
}

/// The font files the examples' patterns resolve to on this machine, one line each: pattern,
/// file name, size and FNV-1a of the bytes. Goldens with text hold only with these fonts.
func exampleFontLines() -> [String] {
    let fonts = Typesetter().fonts
    return ["DejaVu Sans", "DejaVu Sans:bold", "Quicksand:bold"].map { pattern in
        guard let font = try? fonts.font(pattern: pattern) else { return "\(pattern)\tmissing" }
        let bytes = ExampleFileTests.read(font.file)
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        let file = font.file.split(separator: "/").last.map(String.init) ?? font.file
        return "\(pattern)\t\(file)\t\(bytes.count)\t\(String(hash, radix: 16))"
    }
}

import SwellRaster
import SwellScenes
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Every file in examples/ is valid and makes a player that renders.
@Suite struct ExampleFileTests {
    static let examples: String = {
        var path = "\(#filePath)"
        for _ in 0..<3 { path = String(path[..<path.lastIndex(of: "/")!]) }
        return path + "/examples"
    }()

    static func read(_ path: String) -> [UInt8] {
        guard let file = fopen(path, "rb") else { return [] }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = fread(&chunk, 1, chunk.count, file)
            bytes += chunk[0..<n]
            if n < chunk.count { return bytes }
        }
    }

    @Test(arguments: [
        "wave", "ripples", "elastic", "waveform", "flow", "slideshow", "layers", "strip", "wave-button",
        "ripple-counter", "menu", "photo-tap", "welcome", "wave-page", "scroll-strip", "elastic-form", "loading",
        "video", "promo",
    ])
    func exampleSceneFileLoadsAndRenders(_ name: String) throws {
        let bytes = Self.read(Self.examples + "/\(name).json")
        #expect(!bytes.isEmpty)
        var folders: [String] = []
        var texts: [String] = []
        let readText = { (path: String) -> [UInt8] in
            texts.append(path)
            return Self.read(Self.examples + "/" + path)
        }
        var videos: [String] = []
        let loadVideo = { (request: SceneVideo.Request) -> SceneVideo in
            videos.append(request.file)
            return try exampleVideo(
                SceneVideo.Request(
                    file: Self.examples + "/" + request.file, loops: request.loops, fills: request.fills,
                    background: request.background))
        }
        let player = try loadSceneFile(
            bytes: bytes, name: name + ".json", readFile: readText, loadVideo: loadVideo
        ) { folder in
            folders.append(folder)
            return SceneImages(syntheticImages())
        }
        #expect(
            folders
                == (name == "slideshow" || name == "photo-tap"
                    ? ["images"] : name == "strip" ? ["strip-background"] : []))
        #expect(texts == (name == "menu" ? ["menu.txt"] : []), "menu.json shows menu.txt, read once")
        #expect(videos == (name == "video" || name == "promo" ? ["video/waves.mp4"] : []))
        let buffer = PixelBuffer(width: 64, height: 36)
        player.render(at: 1, into: buffer.surface)
        withExtendedLifetime(buffer) {}
    }

    @Test(arguments: ["tap", "drag", "drag-up", "form-taps", "demo-1080p"])
    func exampleTouchScriptParses(_ name: String) throws {
        let script = try parseTouchScript(bytes: Self.read(Self.examples + "/input/\(name).json"), name: name)
        #expect(script.events.first?.phase == .began)
        #expect(script.events.last?.phase == .ended)
    }
}

import Foundation
import SwellDisplay
import SwellInput
import SwellLoop
import SwellPlayer
import SwellRaster
import SwellScenes
import SwellService
import SwellSystem
import Testing

/// The kiosk loop following a page's text file with inotify, as `swell run` does (its
/// SceneContent takes changed text files up with `ScenePlayer.takeUp` and journals its lines):
/// the file replaced by a rename shows its new text while the wave under it keeps its phase,
/// and the file deleted keeps the text on screen, with a line saying why.
@Suite struct FollowedTextFileTests {
    /// `swell run`'s content for a page (SceneContent), recording each frame and its journal;
    /// lets the test act on the files at a frame.
    final class RecordedContent: KioskContent {
        let scene: SceneContent
        let atFrame: (Int) -> Void
        private(set) var frames: [(time: Double, bytes: [UInt8])] = []
        private let lines = Lines()
        var journal: [String] { lines.lines }

        final class Lines { var lines: [String] = [] }

        init(_ player: ScenePlayer, name: String, watch: FileWatch, atFrame: @escaping (Int) -> Void) {
            self.atFrame = atFrame
            let lines = lines
            scene = SceneContent(
                player: player, name: name, load: FollowedTextFileTests.load, watch: watch,
                journal: { lines.lines.append($0) })
        }

        func render(at time: Double, into surface: PixelSurface) -> Damage {
            let damage = scene.render(at: time, into: surface)
            frames.append((time, FollowedTextFileTests.packed(surface)))
            atFrame(frames.count)
            return damage
        }
        func isIdle(at time: Double) -> Bool { scene.isIdle(at: time) }
        func nextWake(after time: Double) -> Double? { scene.nextWake(after: time) }
        func filesChanged(_ paths: [String], at time: Double) { scene.filesChanged(paths, at: time) }
    }

    static func load(_ path: String) throws -> ScenePlayer {
        try loadPageGraph(
            bytes: readWholeFile(path), name: path, read: { try readWholeFile($0) }, loadImages: { _, _ in .none })
    }

    static func packed(_ surface: PixelSurface) -> [UInt8] {
        (0..<surface.height).flatMap { y in
            Array(UnsafeRawBufferPointer(start: surface.base + y * surface.stride, count: surface.width * 4))
        }
    }

    static func page(_ text: String) -> String {
        """
        {"layers": [{"scene": "wave"}, {"scene": "text", "frame": {"x": 10, "y": 10, "width": 300, "height": 50},
          "parameters": {\(text), "size": 24}}]}
        """
    }

    /// The page with `text` inline, drawn alone at `time`: what the kiosk should show then.
    static func reference(_ text: String, at time: Double) throws -> [UInt8] {
        let player = try loadSceneFile(bytes: Array(page(#""text": "\#(text)""#).utf8), name: "r.json") { _ in .none }
        let buffer = PixelBuffer(width: 320, height: 180)
        player.render(at: time, into: buffer.surface)
        return buffer.packedBytes()
    }

    @Test func aRenamedOverFileShowsItsTextAndADeletedOneKeepsIt() throws {
        let folder = NSTemporaryDirectory() + "swell-followed-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let scene = folder + "/page.json"
        let menu = folder + "/menu.txt"
        try Data(Self.page(#""file": "menu.txt""#).utf8).write(to: URL(fileURLWithPath: scene))
        try Data("Soup 4.50\n".utf8).write(to: URL(fileURLWithPath: menu))
        let player = try Self.load(scene)
        // What swell run follows: the scene file, its pages and their text files.
        let watch = try #require(FileWatch(paths: [scene] + player.pageFiles + player.textFiles))
        #expect(watch.paths == [scene, menu])
        let observed = RecordedContent(player, name: scene, watch: watch) { frame in
            if frame == 2 {  // as rsync does: a temporary file renamed over the menu
                try? Data("Soup 4.80\n".utf8).write(to: URL(fileURLWithPath: folder + "/.menu.txt.tmp"))
                _ = rename(folder + "/.menu.txt.tmp", menu)
            }
            if frame == 30 { try? FileManager.default.removeItem(atPath: menu) }
        }
        let presenter = MemoryPresenter(panelWidth: 320, panelHeight: 180)
        let loop = try KioskLoop(
            presenter: presenter, input: nil, console: nil, notifier: nil, followsTheMachine: false)
        #expect(try loop.run(observed, seconds: 60, maximumFrames: 60, watch: watch) == .frameLimit)
        let first = observed.frames[0]
        #expect(first.bytes == (try Self.reference("Soup 4.50", at: first.time)))
        // The last frame: the new text, over a wave at the phase of a scene never restarted
        // (the scene's time is still the loop's), after the file was deleted.
        let last = observed.frames[observed.frames.count - 1]
        #expect(last.bytes == (try Self.reference("Soup 4.80", at: last.time)))
        #expect(last.bytes != (try Self.reference("Soup 4.50", at: last.time)))
        let changedAt = try #require(
            observed.frames.firstIndex { $0.bytes == (try? Self.reference("Soup 4.80", at: $0.time)) })
        #expect(changedAt >= 2 && changedAt < 30, "the rename was taken up before the deletion")
        #expect(
            observed.journal == [
                "\(menu) changed: showing its new text",
                "\(menu) changed but was not loaded (the previous text stays): No such file or directory",
            ])
    }
}

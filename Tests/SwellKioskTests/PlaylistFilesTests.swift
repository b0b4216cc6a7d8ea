import Foundation
import SwellPlayer
import SwellRaster
import SwellScenes
import SwellSystem
import Testing

/// A kiosk showing a playlist follows its files: the playlist file reloads the scene, as a page
/// file does; an item's file is taken up at the item's next turn (no reload); the text file of
/// the page item on screen changes its text at once.
@Suite struct PlaylistFilesTests {
    static func load(_ path: String) throws -> ScenePlayer {
        let loaders = PlaylistLoaders(
            read: { try readWholeFile($0) },
            loadPicture: { file in
                _ = try readWholeFile(file)
                return SceneImages(names: [file]) { _, _ in PixelBuffer(width: 4, height: 4) }
            },
            journal: { _ in })
        return try loadPlaylist(bytes: readWholeFile(path), name: path, loaders: loaders)
    }

    @Test func theKioskFollowsThePlaylistAndItsItems() throws {
        let folder = NSTemporaryDirectory() + "swell-playlist-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        func write(_ name: String, _ text: String) throws {
            try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/" + name))
        }
        try write(
            "page.json",
            #"{"layers": [{"scene": "text", "parameters": {"file": "note.txt", "font": "DejaVu Sans"}}]}"#)
        try write("note.txt", "Open today\n")
        try write("a.png", "a picture (read, not decoded, by this test's loader)")
        try write(
            "list.json",
            #"{"format": "playlist/1", "items": [{"page": "page.json", "duration": 5}, {"picture": "a.png", "duration": 5}]}"#
        )
        let list = folder + "/list.json"
        let player = try Self.load(list)
        #expect(
            SceneContent.files(of: player, list)
                == [list, folder + "/note.txt", folder + "/page.json", folder + "/a.png"])
        var lines: [String] = []
        let content = SceneContent(player: player, name: list, load: Self.load, journal: { lines.append($0) })
        let frame = PixelBuffer(width: 64, height: 36)
        _ = content.render(at: 0, into: frame.surface)
        // An item's file: no reload, taken up at its next turn.
        content.filesChanged([folder + "/a.png", folder + "/page.json"], at: 0.5)
        #expect(lines.isEmpty, "\(lines)")
        // The text file of the page on screen: its new text now.
        try write("note.txt", "Closed\n")
        content.filesChanged([folder + "/note.txt"], at: 0.6)
        #expect(lines == ["\(folder)/note.txt changed: showing its new text"], "\(lines)")
        // The playlist file: the scene reloads.
        content.filesChanged([list], at: 0.7)
        #expect(lines.last == "\(list) changed: running the new scene", "\(lines)")
        _ = content.render(at: 1, into: frame.surface)
    }
}

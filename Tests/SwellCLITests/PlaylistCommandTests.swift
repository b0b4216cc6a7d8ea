import Foundation
import Testing

/// A playlist file where a scene file goes (`swell dump`, `swell bench`), and a slideshow folder
/// holding a picture that does not load.
@Suite struct PlaylistCommandTests {
    static let examples = SceneCommandTests.examples

    /// The frames at and across the changes of examples/playlist.json, twice: the same bytes.
    @Test func aPlaylistDumpIsRepeatable() throws {
        let folder = try temporaryFolder()
        let arguments = [
            "dump", Self.examples + "/playlist.json", "--size", "96x54", "--fps", "5", "--frames", "0..80",
        ]
        let first = try SwellProcess.run(arguments + ["-o", folder + "/a"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(try SwellProcess.run(arguments + ["-o", folder + "/b"]).status == 0)
        let a = try String(contentsOfFile: folder + "/a/manifest.json", encoding: .utf8)
        let b = try String(contentsOfFile: folder + "/b/manifest.json", encoding: .utf8)
        let checksums = { (text: String) in text.split(separator: "\n").filter { $0.contains("checksum") } }
        #expect(checksums(a).count == 81 && checksums(a) == checksums(b))
        #expect(Set(checksums(a)).count > 10, "the items and their transitions differ")
    }

    @Test func aPlaylistWithAMissingItemIsRefusedNamingIt() throws {
        let folder = try temporaryFolder()
        let list = folder + "/list.json"
        // Inside the playlist's folder: its content folder.
        try FileManager.default.copyItem(
            atPath: Self.examples + "/images/1-sunset.png", toPath: folder + "/1-sunset.png")
        try Data(
            """
            {"format": "playlist/1", "items": [{"picture": "1-sunset.png", "duration": 2},
             {"page": "gone.json", "duration": 0}]}
            """.utf8
        ).write(to: URL(fileURLWithPath: list))
        let run = try SwellProcess.run(["dump", list, "--size", "32x18", "--frames", "0..0", "-o", folder + "/out"])
        #expect(run.status == 65)
        #expect(run.stderr.contains("$.items[1].duration: "), "\(run.stderr)")
        try Data(
            """
            {"format": "playlist/1", "items": [{"picture": "1-sunset.png", "duration": 2},
             {"page": "gone.json", "duration": 1}]}
            """.utf8
        ).write(to: URL(fileURLWithPath: list))
        let missing = try SwellProcess.run(["dump", list, "--size", "32x18", "--frames", "0..0", "-o", folder + "/out"])
        #expect(missing.status == 65)
        #expect(
            missing.stderr.contains("list.json: $.items[1].page: \(folder)/gone.json: cannot read: "),
            "\(missing.stderr)")
    }

    @Test func aSlideshowFolderWithAnUnreadablePicturePlaysTheOthers() throws {
        let folder = try temporaryFolder()
        try FileManager.default.createDirectory(atPath: folder + "/pics", withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: Self.examples + "/images/1-sunset.png", toPath: folder + "/pics/1-sunset.png")
        try Data("not a picture".utf8).write(to: URL(fileURLWithPath: folder + "/pics/2-broken.png"))
        try Data(#"{"scene": "slideshow", "parameters": {"folder": "pics"}}"#.utf8)
            .write(to: URL(fileURLWithPath: folder + "/show.json"))
        let run = try SwellProcess.run([
            "dump", folder + "/show.json", "--size", "32x18", "--frames", "0..0", "-o", folder + "/out",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("2-broken.png") && run.stderr.contains("skipping"), "\(run.stderr)")
        // Nothing playable: refused, with the reason.
        try FileManager.default.removeItem(atPath: folder + "/pics/1-sunset.png")
        let none = try SwellProcess.run([
            "dump", folder + "/show.json", "--size", "32x18", "--frames", "0..0", "-o", folder + "/out",
        ])
        #expect(none.status == 65)
        #expect(none.stderr.contains("no picture in folder") && none.stderr.contains("2-broken.png"), "\(none.stderr)")
    }
}

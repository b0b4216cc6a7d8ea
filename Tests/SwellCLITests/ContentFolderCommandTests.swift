import Foundation
import Testing

/// Content confinement as the commands apply it (issue 39): a scene file's files lie in its own
/// folder unless a content folder that holds them is given (`swell run --content-folder`, a kiosk
/// file's "contentFolder"), which must hold the scene files too.
@Suite struct ContentFolderCommandTests {
    /// A fresh folder holding `root/page.json` (a text element showing `file`), `outside.txt`
    /// beside `root/`, and `elsewhere/scene.json`; its path, links resolved.
    static func files(file: String = "../outside.txt") throws -> String {
        let base = URL(fileURLWithPath: try temporaryFolder()).resolvingSymlinksInPath().path
        for folder in ["root", "elsewhere"] {
            try FileManager.default.createDirectory(atPath: base + "/" + folder, withIntermediateDirectories: true)
        }
        try Data("secret".utf8).write(to: URL(fileURLWithPath: base + "/outside.txt"))
        try Data("inside".utf8).write(to: URL(fileURLWithPath: base + "/root/inside.txt"))
        let page = """
            {"layers": [{"scene": "wave"}, {"scene": "text", "frame": {"x": 4, "y": 4, "width": 56, "height": 20},
              "parameters": {"file": "\(file)", "size": 12}}]}
            """
        try Data(page.utf8).write(to: URL(fileURLWithPath: base + "/root/page.json"))
        try Data(#"{"scene": "wave"}"#.utf8).write(to: URL(fileURLWithPath: base + "/elsewhere/scene.json"))
        return base
    }

    static func dump(_ scene: String, _ base: String) throws -> (status: Int32, stdout: String, stderr: String) {
        try SwellProcess.run(["dump", scene, "--size", "64x36", "--frames", "0..0", "-o", base + "/out"])
    }

    /// `swell dump` holds a scene file to its own folder: a text file above it is refused, naming
    /// the JSON path, the file and the fix; one inside shows.
    @Test func aSceneFileCannotShowAFileAboveItsFolder() throws {
        let base = try Self.files()
        let run = try Self.dump(base + "/root/page.json", base)
        #expect(run.status == 65, "\(run.stderr)")
        #expect(
            run.stderr.contains(
                #"page.json: $.layers[1].parameters.file: "../outside.txt" is outside the content folder \#(base)/root; "#
                    + #"name a file inside it, or give the kiosk file a "contentFolder" that holds both"#),
            "\(run.stderr)")
        #expect(!run.stderr.contains("secret"))
        let inside = try Self.files(file: "inside.txt")
        let shown = try Self.dump(inside + "/root/page.json", inside)
        #expect(shown.status == 0, "\(shown.stderr)")
    }

    /// `--content-folder DIR` lets a scene show what DIR holds, and refuses a scene file outside DIR.
    @Test func runsContentFolderWidensTheRootAndMustHoldTheScene() throws {
        let base = try Self.files()
        let memory = ["--output", "memory", "--size", "64x36", "--seconds", "0.2"]
        let confined = try SwellProcess.run(["run", base + "/root/page.json"] + memory)
        #expect(confined.status == 65, "\(confined.stderr)")
        #expect(confined.stderr.contains("is outside the content folder \(base)/root;"), "\(confined.stderr)")
        let widened = try SwellProcess.run(["run", base + "/root/page.json", "--content-folder", base] + memory)
        #expect(widened.status == 0, "\(widened.stderr)")
        let outside = try SwellProcess.run(
            ["run", base + "/elsewhere/scene.json", "--content-folder", base + "/root"] + memory)
        #expect(outside.status == 65, "\(outside.stderr)")
        #expect(
            outside.stderr.contains("\(base)/elsewhere/scene.json is outside the content folder \(base)/root"),
            "\(outside.stderr)")
    }

    /// A kiosk file's "contentFolder" (relative to it) holds every output's scene and widens
    /// what its scenes reach.
    @Test func aKioskFilesContentFolderHoldsItsScenes() throws {
        let base = try Self.files()
        let kiosk = base + "/kiosk.json"
        func check(_ text: String) throws -> (status: Int32, stdout: String, stderr: String) {
            try Data(text.utf8).write(to: URL(fileURLWithPath: kiosk))
            return try SwellProcess.run(["run", "--kiosk", kiosk, "--check"])
        }
        let wide = try check(
            #"{"format": "kiosk/1", "outputs": [{"content": "root/page.json"}], "contentFolder": "."}"#)
        #expect(wide.status == 0, "\(wide.stderr)")
        let narrow = try check(
            #"{"format": "kiosk/1", "outputs": [{"content": "root/page.json"}], "contentFolder": "root"}"#)
        #expect(narrow.status == 65, "\(narrow.stderr)")
        #expect(narrow.stderr.contains(#""../outside.txt" is outside the content folder \#(base)/root"#))
        let sceneOutside = try check(
            #"{"format": "kiosk/1", "outputs": [{"content": "elsewhere/scene.json"}], "contentFolder": "root"}"#)
        #expect(sceneOutside.status == 65, "\(sceneOutside.stderr)")
        #expect(
            sceneOutside.stderr.contains(
                #"kiosk.json: $.outputs[0].content: "\#(base)/elsewhere/scene.json" is outside the content folder \#(base)/root"#
            ), "\(sceneOutside.stderr)")
        let missing = try check(
            #"{"format": "kiosk/1", "outputs": [{"content": "root/page.json"}], "contentFolder": "gone"}"#)
        #expect(missing.status == 66, "\(missing.stderr)")
        #expect(missing.stderr.contains(#"$.contentFolder: "\#(base)/gone": no such folder"#), "\(missing.stderr)")
    }

    /// A picture in the slideshow's folder that links to outside is left out, with a line; the
    /// others play.
    @Test func aSlideshowPictureLinkingOutsideIsSkipped() throws {
        let base = try Self.files()
        let pictures = base + "/root/pictures"
        try FileManager.default.createDirectory(atPath: pictures, withIntermediateDirectories: true)
        let sunset = SceneCommandTests.examples + "/images/1-sunset.png"
        try FileManager.default.copyItem(atPath: sunset, toPath: pictures + "/1-sunset.png")
        try FileManager.default.copyItem(atPath: sunset, toPath: base + "/2-outside.png")
        try FileManager.default.createSymbolicLink(
            atPath: pictures + "/2-outside.png", withDestinationPath: "../../2-outside.png")
        try Data(#"{"scene": "slideshow", "parameters": {"folder": "pictures"}}"#.utf8)
            .write(to: URL(fileURLWithPath: base + "/root/show.json"))
        let run = try Self.dump(base + "/root/show.json", base)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stderr.contains("skipping \(pictures)/2-outside.png: it lies outside the content folder \(base)/root"),
            "\(run.stderr)")
        #expect(!run.stderr.contains("1-sunset.png"), "\(run.stderr)")
    }
}

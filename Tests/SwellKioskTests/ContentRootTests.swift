import SwellPlayer
import SwellScenes
import SwellSystem
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Content confinement (issue 39): every file a scene reaches — a text element's `file`, a
/// slideshow's `folder`, a video's `file`, a page action's `target`, a playlist's items — lies
/// in the content folder once its links are followed, or the scene is refused naming the JSON
/// path, the file and the fix; a wider content folder that holds them lets them load.
@Suite struct ContentRootTests {
    /// A fresh folder holding `root/` (the scene files' folder), with beside it `outside.txt`,
    /// `other.json` (a page), `pictures/`, and in `root/` `link.txt`, a link to `../outside.txt`, and
    /// `dangling.txt`, a link to `../not-yet.txt`.
    struct Files {
        let base: String
        var root: String { base + "/root" }

        init() throws {
            base = canonicalPath("/tmp")! + "/swell-confine-\(currentProcessID())-\(UInt32.random(in: 0...UInt32.max))"
            try makeDirectory(base)
            try makeDirectory(base + "/root")
            try makeDirectory(base + "/root/sub")
            try makeDirectory(base + "/pictures")
            try write("secret", to: base + "/outside.txt")
            try write(#"{"scene": "wave"}"#, to: base + "/other.json")
            try write(#"{"scene": "wave"}"#, to: base + "/root/next.json")
            try write("inside", to: base + "/root/inside.txt")
            try write("below", to: base + "/root/sub/below.txt")
            guard symlink("../outside.txt", base + "/root/link.txt") == 0,
                symlink("../not-yet.txt", base + "/root/dangling.txt") == 0
            else { throw Errno.current }
        }

        func write(_ text: String, to path: String) throws {
            try Array(text.utf8).withUnsafeBytes { try writeFileAtomically($0, toPath: path) }
        }

        func remove() {
            for name in [
                "root/sub/below.txt", "root/inside.txt", "root/next.json", "root/link.txt", "root/dangling.txt",
                "other.json",
            ] {
                try? removeFile(base + "/" + name)
            }
            try? removeFile(base + "/outside.txt")
            for folder in ["root/sub", "root", "pictures", ""] { _ = rmdir(base + "/" + folder) }
        }

        /// The folder `path` as a content folder, resolved as `swell run` resolves it.
        func folder(_ path: String) -> ContentRoot {
            ContentRoot(path: canonicalPath(path)!, locate: { resolvedLocation($0) })
        }
    }

    /// A page of a wave and one element (layer 1) with `parameters`.
    static func page(_ scene: String, _ parameters: String) -> String {
        #"{"layers": [{"scene": "wave"}, {"scene": "\#(scene)", "frame": {"x": 10, "y": 10, "width": 300, "height": 50}, "#
            + #""parameters": {\#(parameters)}}]}"#
    }

    final class Reads { var paths: [String] = [] }

    /// Loads `text` as the page `name` with `content`; the files it read (also in `reads`).
    static func load(
        _ text: String, name: String, content: ContentRoot, reads: Reads = Reads()
    ) throws(SceneFileError) -> (player: ScenePlayer, read: [String]) {
        let player = try loadPageGraph(
            bytes: Array(text.utf8), name: name, content: content,
            read: { path in
                reads.paths.append(path)
                return try readWholeFile(path)
            },
            loadVideo: { _ in .none }, loadImages: { _, _ in .none })
        return (player, reads.paths)
    }

    /// The problems loading `text` as `root/page.json` within `root/` reports, or nil if it loads.
    static func refusal(_ text: String, _ files: Files) -> String? {
        do {
            _ = try load(text, name: files.root + "/page.json", content: files.folder(files.root))
            return nil
        } catch {
            return error.problems.joined(separator: "\n")
        }
    }

    static func fix(_ kind: String) -> String {
        "; name a \(kind) inside it, or give the kiosk file a \"contentFolder\" that holds both"
    }

    @Test func aTextFileOutsideTheSceneFolderIsRefusedUnread() throws {
        let files = try Files()
        defer { files.remove() }
        let root = files.root
        let relative = Self.refusal(Self.page("text", #""file": "../outside.txt""#), files)
        #expect(
            relative
                == #"\#(files.root)/page.json: $.layers[1].parameters.file: "../outside.txt" is outside the content folder \#(root)"#
                + Self.fix("file"))
        let absolute = Self.refusal(Self.page("text", #""file": "\#(files.base)/outside.txt""#), files)
        #expect(
            absolute
                == #"\#(files.root)/page.json: $.layers[1].parameters.file: "\#(files.base)/outside.txt" is outside the content folder \#(root)"#
                + Self.fix("file"))
        // Nothing outside was read on the way to the refusal.
        let reads = Reads()
        #expect(throws: SceneFileError.self) {
            try Self.load(
                Self.page("text", #""file": "../outside.txt""#), name: root + "/page.json",
                content: files.folder(root), reads: reads)
        }
        #expect(reads.paths.isEmpty, "\(reads.paths)")
    }

    /// A link inside the folder is followed: one that leads outside is refused, whether its
    /// target is there or not.
    @Test func aLinkInsideLeadingOutsideIsRefused() throws {
        let files = try Files()
        defer { files.remove() }
        let problem = Self.refusal(Self.page("text", #""file": "link.txt""#), files)
        #expect(
            problem
                == #"\#(files.root)/page.json: $.layers[1].parameters.file: "link.txt" is outside the content folder \#(files.root)"#
                + Self.fix("file"))
        // A link whose target is not there (yet) lies where the target would.
        let dangling = Self.refusal(Self.page("text", #""file": "dangling.txt""#), files)
        #expect(dangling?.contains(#""dangling.txt" is outside the content folder"#) == true, "\(dangling ?? "loaded")")
    }

    @Test func aSlideshowFolderAndAVideoOutsideAreRefused() throws {
        let files = try Files()
        defer { files.remove() }
        let slideshow = Self.refusal(Self.page("slideshow", #""folder": "../pictures""#), files)
        #expect(
            slideshow
                == #"\#(files.root)/page.json: $.layers[1].parameters.folder: "../pictures" is outside the content folder \#(files.root)"#
                + Self.fix("folder"))
        let video = Self.refusal(Self.page("video", #""file": "/dev/zero""#), files)
        #expect(
            video
                == #"\#(files.root)/page.json: $.layers[1].parameters.file: "/dev/zero" is outside the content folder \#(files.root)"#
                + Self.fix("file"))
    }

    @Test func aPageTargetOutsideIsRefused() throws {
        let files = try Files()
        defer { files.remove() }
        let button = #""action": "page", "target": "../other.json""#
        let page = files.root + "/page.json"
        let problem = Self.refusal(Self.page("button", button), files)
        #expect(
            problem
                == #"\#(page): $.layers[1].parameters.target: "../other.json" is outside the content folder \#(files.root)"#
                + Self.fix("page"))
        // A target inside loads.
        #expect(Self.refusal(Self.page("button", #""action": "page", "target": "next.json""#), files) == nil)
    }

    /// The same files load with a content folder that holds them (the kiosk file's
    /// "contentFolder"), each read from where it lies.
    @Test func aContentFolderThatHoldsThemLetsThemLoad() throws {
        let files = try Files()
        defer { files.remove() }
        let wide = files.folder(files.base)
        let page = files.root + "/page.json"
        for (scene, parameters) in [
            ("text", #""file": "../outside.txt""#), ("text", #""file": "\#(files.base)/outside.txt""#),
            ("text", #""file": "link.txt""#), ("slideshow", #""folder": "../pictures""#),
            ("button", #""action": "page", "target": "../other.json""#),
        ] {
            let loaded = try Self.load(Self.page(scene, parameters), name: page, content: wide)
            if scene == "text" {
                #expect(loaded.read.count == 1 && loaded.player.textFiles.count == 1, "\(parameters)")
            }
            if scene == "button" { #expect(loaded.read == [files.base + "/other.json"]) }
        }
    }

    /// `..` that stays inside the folder is inside.
    @Test func aPathThroughDotDotThatStaysInsideIsAllowed() throws {
        let files = try Files()
        defer { files.remove() }
        let root = files.folder(files.root)
        let loaded = try Self.load(
            Self.page("text", #""file": "sub/../inside.txt""#), name: files.root + "/page.json", content: root)
        #expect(loaded.read == [files.root + "/inside.txt"])
        let below = try Self.load(
            Self.page("text", #""file": "../sub/below.txt""#), name: files.root + "/sub/page.json", content: root)
        #expect(below.read == [files.root + "/sub/below.txt"])
        #expect(root.holds(files.root + "/sub/../inside.txt"))
        #expect(root.holds(files.root + "/not-yet-there.txt"), "a file not there yet, inside")
        #expect(!root.holds(files.root + "/../outside.txt"))
        #expect(!root.holds(files.base + "/root-sibling.txt"), "a name that begins as the folder's is not in it")
    }

    /// A playlist's items are held to the folder as its pages are.
    @Test func aPlaylistItemOutsideIsRefused() throws {
        let files = try Files()
        defer { files.remove() }
        let list =
            #"{"format": "playlist/1", "items": [{"page": "next.json", "duration": 1}, "#
            + #"{"picture": "../pictures/a.png", "duration": 1}]}"#
        let name = files.root + "/list.json"
        #expect(throws: Never.self) { try parsePlaylistFile(bytes: Array(list.utf8), name: name) }
        do {
            _ = try parsePlaylistFile(bytes: Array(list.utf8), name: name, content: files.folder(files.root))
            Issue.record("accepted")
        } catch {
            #expect(
                error.problems
                    == [
                        #"$.items[1].picture: "../pictures/a.png" is outside the content folder \#(files.root)"#
                            + Self.fix("file")
                    ])
        }
        let wide = try parsePlaylistFile(bytes: Array(list.utf8), name: name, content: files.folder(files.base))
        #expect(wide.items.map(\.content.file) == [files.root + "/next.json", files.base + "/pictures/a.png"])
    }

    /// A followed text file replaced by a link to outside keeps the old text, with a line saying why.
    @Test func aFollowedTextFileThatBecomesALinkOutsideIsNotTakenUp() throws {
        let files = try Files()
        defer { files.remove() }
        let loaded = try Self.load(
            Self.page("text", #""file": "inside.txt""#), name: files.root + "/page.json",
            content: files.folder(files.root))
        let path = files.root + "/inside.txt"
        try removeFile(path)
        guard symlink("../outside.txt", path) == 0 else { throw Errno.current }
        let lines = loaded.player.takeUp(changedTextFiles: [path], read: { try readWholeFile($0) })
        #expect(lines.count == 1 && lines[0].contains("now lies outside the content folder \(files.root)"), "\(lines)")
    }

    /// The kiosk file's "contentFolder" is named relative to the kiosk file's folder.
    @Test func theKioskFilesContentFolderIsRelativeToIt() throws {
        let text = #"{"format": "kiosk/1", "outputs": [{"content": "cafe/menu.json"}], "contentFolder": "cafe"}"#
        let plan = try parseKioskFile(bytes: Array(text.utf8), name: "/etc/swell/kiosk.json")
        #expect(plan.contentFolder == "/etc/swell/cafe")
        let absolute = try parseKioskFile(
            bytes: Array(text.replacing(#""contentFolder": "cafe""#, with: #""contentFolder": "/data/cafe""#).utf8),
            name: "/etc/swell/kiosk.json")
        #expect(absolute.contentFolder == "/data/cafe")
        #expect(absolute.differences(from: plan) == ["contentFolder"])
        let none = try parseKioskFile(
            bytes: Array(#"{"format": "kiosk/1", "outputs": [{"content": "menu.json"}]}"#.utf8), name: "k.json")
        #expect(none.contentFolder == nil)
    }
}

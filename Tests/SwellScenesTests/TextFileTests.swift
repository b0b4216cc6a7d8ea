import SwellRaster
import SwellScenes
import Testing

/// Text elements whose string is a text file's (`file`, `column`): reading, checking and taking
/// up a changed file without restarting the page.
@Suite struct TextFileTests {
    struct Missing: Error, CustomStringConvertible {
        var description: String { "No such file or directory" }
    }

    /// Files in memory, by the path the page graph asks for.
    final class Files {
        var contents: [String: [UInt8]]
        private(set) var reads: [String] = []
        init(_ contents: [String: String]) { self.contents = contents.mapValues { Array($0.utf8) } }
        func read(_ path: String) throws -> [UInt8] {
            reads.append(path)
            guard let bytes = contents[path] else { throw Missing() }
            return bytes
        }
    }

    static func page(dishes: String, prices: String) -> String {
        """
        {"layers": [{"scene": "text", "frame": {"x": 10, "y": 10, "width": 200, "height": 150},
           "parameters": {\(dishes), "size": 18, "lineHeight": 1.5}},
          {"scene": "text", "frame": {"x": 220, "y": 10, "width": 90, "height": 150},
           "parameters": {\(prices), "size": 18, "lineHeight": 1.5, "align": "right", "tabular": true}}]}
        """
    }

    static let filePage = page(
        dishes: #""file": "menu.txt", "column": 1"#, prices: #""file": "menu.txt", "column": 2"#)

    /// The same page with the strings written inline: the independent reference.
    static func inlinePage(_ dishes: [String], _ prices: [String]) -> String {
        page(
            dishes: #""text": "\#(dishes.joined(separator: "\\n"))""#,
            prices: #""text": "\#(prices.joined(separator: "\\n"))""#)
    }

    static func frame(_ player: ScenePlayer, at time: Double = 0) -> [UInt8] {
        let buffer = PixelBuffer(width: 320, height: 180)
        player.render(at: time, into: buffer.surface)
        return buffer.packedBytes()
    }

    static func load(_ text: String, name: String = "kiosk/page.json", files: Files) throws(SceneFileError)
        -> ScenePlayer
    {
        try loadPageGraph(
            bytes: Array(text.utf8), name: name, read: files.read, loadImages: { _, _ in .none })
    }

    @Test func decodingDropsTheByteOrderMarkWindowsLineEndsAndTrailingNewlines() throws {
        #expect(try TextFileContents.decode(Array("\u{FEFF}Soup | 4.50\r\nBread\r\n\n".utf8)) == "Soup | 4.50\nBread")
        #expect(try TextFileContents.decode([]) == "")
        #expect(try TextFileContents.decode(Array("Crème brûlée\n".utf8)) == "Crème brûlée")
    }

    /// Each bad sequence is found where it starts (the prefix before it is valid UTF-8, which
    /// the standard library's own validation confirms), and the message names byte and offset.
    @Test func notUTF8IsRefusedNamingTheFirstBadByte() {
        let prefix = Array("Soupe à l'oignon ".utf8)
        for bad: [UInt8] in [[0xFF], [0xC3], [0xE2, 0x82], [0xED, 0xA0, 0x80], [0xC0, 0xAF], [0x80]] {
            #expect(String(validating: prefix, as: UTF8.self) != nil)
            #expect(String(validating: prefix + bad, as: UTF8.self) == nil)
            do {
                _ = try TextFileContents.decode(prefix + bad + Array("x".utf8))
                Issue.record("accepted \(bad)")
            } catch {
                let byte = String(bad[0], radix: 16, uppercase: true)
                #expect(error.description.contains("byte 0x\(byte) at offset \(prefix.count)"), "\(error)")
            }
        }
        #expect(throws: TextFileContents.Problem.self) {
            try TextFileContents.decode([UInt8](repeating: 65, count: TextFileContents.limit + 1))
        }
    }

    @Test func columnsSplitAtBarsTrimmedWithEmptyCellsKeepingRowsAligned() {
        let text = "Soups\nTomato | 4.50\nLentil curry |9.80| new\n"
        #expect(TextFileContents.column(0, of: text) == text)
        #expect(TextFileContents.column(1, of: text) == "Soups\nTomato\nLentil curry\n")
        #expect(TextFileContents.column(2, of: text) == "\n4.50\n9.80\n")
        #expect(TextFileContents.column(3, of: text) == "\n\nnew\n")
    }

    /// Dishes and prices from one file, relative to the page's folder, read once: the frame is
    /// the frame of the page with the same strings inline.
    @Test func aFilesColumnsShowAsTheSameStringsInlineWould() throws {
        let files = Files(["kiosk/menu.txt": "Soup | 4.50\nCurry and rice | 9.80\nCrumble | 3.90\n"])
        let player = try Self.load(Self.filePage, files: files)
        #expect(files.reads == ["kiosk/menu.txt"])
        #expect(player.textFiles == ["kiosk/menu.txt"] && player.pageFiles == ["kiosk/page.json"])
        let inline = try Self.load(
            Self.inlinePage(["Soup", "Curry and rice", "Crumble"], ["4.50", "9.80", "3.90"]), files: files)
        #expect(Self.frame(player) == Self.frame(inline))
        let other = try Self.load(
            Self.inlinePage(["Soup", "Curry", "Crumble"], ["4.50", "9.80", "3.90"]), files: files)
        #expect(Self.frame(player) != Self.frame(other), "the comparison sees one changed word")
    }

    /// A missing, a non-UTF-8 file, and `file` with `text`: refused at load, with their paths.
    @Test func badTextFilesAreRefusedAtLoadWithTheirJSONPaths() {
        let files = Files(["kiosk/bad.txt": ""])
        files.contents["kiosk/bad.txt"] = [0x41, 0xFE]
        let text = """
            {"layers": [{"scene": "text", "parameters": {"file": "gone.txt"}},
              {"scene": "text", "parameters": {"file": "bad.txt"}}]}
            """
        do {
            _ = try Self.load(text, files: files)
            Issue.record("accepted")
        } catch {
            #expect(
                error.problems == [
                    "kiosk/page.json: $.layers[0].parameters.file: cannot show \"kiosk/gone.txt\": No such file or directory",
                    "kiosk/page.json: $.layers[1].parameters.file: cannot show \"kiosk/bad.txt\": "
                        + "not UTF-8 text (byte 0xFE at offset 1); save it as UTF-8",
                ])
        }
        let both = #"{"scene": "text", "parameters": {"file": "a.txt", "text": "Soup"}}"#
        #expect(throws: SceneFileError.self) { try Self.load(both, files: Files(["kiosk/a.txt": "x"])) }
    }

    /// A changed file changes its elements' text and nothing else: the frame is the page with the
    /// new strings inline, while a wave on the page keeps its phase (its rows equal a player that
    /// never saw a change). A file that then fails to load keeps the frame's bytes.
    @Test func aChangedFileChangesOnlyItsTextAndAFailedOneKeepsThePrevious() throws {
        let files = Files(["kiosk/menu.txt": "Soup | 4.50\nCrumble | 3.90\n"])
        let player = try Self.load(Self.filePage, files: files)
        _ = Self.frame(player, at: 0)
        files.contents["kiosk/menu.txt"] = Array("Soup | 4.80\nCrumble | 3.90\nTart | 4.10\n".utf8)
        let lines = player.takeUp(changedTextFiles: ["kiosk/page.json", "kiosk/menu.txt"], read: files.read)
        #expect(lines == ["kiosk/menu.txt changed: showing its new text"])
        let updated = Self.frame(player, at: 1)
        let reference = try Self.load(
            Self.inlinePage(["Soup", "Crumble", "Tart"], ["4.80", "3.90", "4.10"]), files: files)
        #expect(updated == Self.frame(reference, at: 1))
        files.contents["kiosk/menu.txt"] = nil
        let failed = player.takeUp(changedTextFiles: ["kiosk/menu.txt"], read: files.read)
        #expect(
            failed == ["kiosk/menu.txt changed but was not loaded (the previous text stays): No such file or directory"]
        )
        #expect(Self.frame(player, at: 2) == updated)
        files.contents["kiosk/menu.txt"] = [0xFF]
        #expect(player.takeUp(changedTextFiles: ["kiosk/menu.txt"], read: files.read)[0].contains("not UTF-8"))
        #expect(Self.frame(player, at: 3) == updated)
    }

    @Test func aChangedFileKeepsAWavesPhase() throws {
        let text = """
            {"layers": [{"scene": "wave"}, {"scene": "text", "frame": {"x": 10, "y": 10, "width": 300, "height": 40},
              "parameters": {"file": "note.txt", "size": 20}}]}
            """
        let files = Files(["kiosk/note.txt": "Open"])
        let player = try Self.load(text, files: files)
        let untouched = try Self.load(text, files: files)
        for time in [0.0, 0.5] {
            _ = Self.frame(player, at: time)
            _ = Self.frame(untouched, at: time)
        }
        files.contents["kiosk/note.txt"] = Array("Closed".utf8)
        _ = player.takeUp(changedTextFiles: ["kiosk/note.txt"], read: files.read)
        let changed = Self.frame(player, at: 1.25)
        let reference = Self.frame(untouched, at: 1.25)
        let rowBytes = 320 * 4
        // Below the text's frame the rows are the wave's alone, as if nothing had changed.
        #expect(changed[(60 * rowBytes)...] == reference[(60 * rowBytes)...])
        #expect(changed[..<(60 * rowBytes)] != reference[..<(60 * rowBytes)], "the text did change")
    }

    /// A text file shown on another page of the graph is followed too: changed while the first
    /// page is shown, the other page shows the new text when it comes up.
    @Test func textFilesOfEveryPageAreFollowed() throws {
        let first = """
            {"layers": [{"scene": "button", "frame": {"x": 0, "y": 0, "width": 100, "height": 50},
              "parameters": {"action": "page", "target": "second.json"}}]}
            """
        let second = #"{"layers": [{"scene": "text", "parameters": {"file": "notes/today.txt"}}]}"#
        let files = Files(["kiosk/second.json": second, "kiosk/notes/today.txt": "Closed on Monday"])
        let player = try Self.load(first, name: "kiosk/first.json", files: files)
        #expect(player.pageFiles == ["kiosk/first.json", "kiosk/second.json"])
        #expect(player.textFiles == ["kiosk/notes/today.txt"])
        _ = Self.frame(player)
        files.contents["kiosk/notes/today.txt"] = Array("Open on Monday".utf8)
        #expect(player.takeUp(changedTextFiles: ["kiosk/notes/today.txt"], read: files.read).count == 1)
        #expect(player.show(page: "kiosk/second.json"))
        #expect(player.pageName == "kiosk/second.json" && !player.show(page: "kiosk/none.json"))
        let reference = try Self.load(
            #"{"layers": [{"scene": "text", "parameters": {"text": "Open on Monday"}}]}"#, files: files)
        let old = try Self.load(
            #"{"layers": [{"scene": "text", "parameters": {"text": "Closed on Monday"}}]}"#, files: files)
        #expect(Self.frame(player, at: 1) == Self.frame(reference, at: 1))
        #expect(Self.frame(reference, at: 1) != Self.frame(old, at: 1))
    }
}

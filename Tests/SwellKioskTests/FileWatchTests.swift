import Foundation
import SwellDisplay
import SwellInput
import SwellLoop
import SwellRaster
import SwellService
import Testing

/// Following a file's new content with inotify: the ways signage files get replaced.
@Suite struct FileWatchTests {
    static func folder() throws -> String {
        let path = NSTemporaryDirectory() + "swell-watch-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func write(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    /// Waits for the change a write made to reach `watch`: the paths reported, once they include
    /// `expected` (or whatever came when nothing more does). Why wait: inotify reports a close
    /// only when the file's last reference goes, and another test's child process (`Process`,
    /// posix_spawn) may hold a copy of this process's descriptors for a moment, so the event can
    /// come after `close` has returned. A missing change still fails: the wait gives up after
    /// about 20 s without it. Not a time limit on the code under test.
    static func awaitChangedPaths(_ watch: FileWatch, including expected: [String]) -> [String] {
        var seen: [String] = []
        for _ in 0..<200 {
            for path in watch.drainChangedPaths() where !seen.contains(path) { seen.append(path) }
            if expected.allSatisfy(seen.contains) { break }
            var ready = pollfd(fd: watch.fd.rawValue, events: Int16(POLLIN), revents: 0)
            _ = poll(&ready, 1, 100)
        }
        return watch.paths.filter(seen.contains)
    }

    /// Whether the watch reports a change to its first path, waiting for it as above.
    static func awaitChange(_ watch: FileWatch) -> Bool {
        awaitChangedPaths(watch, including: [watch.path]).contains(watch.path)
    }

    @Test func writesRenamesAndSymlinksCountOtherFilesDoNot() throws {
        let folder = try Self.folder()
        let path = folder + "/scene.json"
        try Self.write("one", to: path)
        let watch = try #require(FileWatch(path: path))
        #expect(!watch.drainChanged(), "nothing happened yet")
        // Written in place (open, write, close).
        try Self.write("two", to: path)
        #expect(Self.awaitChange(watch))
        #expect(!watch.drainChanged(), "drained")
        // Another file in the folder, and one whose name starts like it.
        try Self.write("x", to: folder + "/other.json")
        try Self.write("x", to: folder + "/scene.json.part")
        #expect(!watch.drainChanged())
        // Renamed over (rsync, sed -i).
        try FileManager.default.moveItem(atPath: folder + "/scene.json.part", toPath: folder + "/scene.json.new")
        #expect(rename(folder + "/scene.json.new", path) == 0)
        #expect(Self.awaitChange(watch))
        // A symbolic link swapped in (ln -sf: remove, then create the link).
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: folder + "/other.json")
        #expect(Self.awaitChange(watch))
    }

    /// Day parts: scene.json links to a file in another folder; editing that file counts, and
    /// after the link is swapped the new file is followed and the old one no longer.
    @Test func aLinkedFileIsFollowedWhereItLivesAndAcrossSwaps() throws {
        let folder = try Self.folder()
        let scenes = try Self.folder()
        try Self.write("breakfast", to: scenes + "/breakfast.json")
        try Self.write("lunch", to: scenes + "/lunch.json")
        let path = folder + "/scene.json"
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: scenes + "/breakfast.json")
        let watch = try #require(FileWatch(path: path))
        try Self.write("breakfast, new prices", to: scenes + "/breakfast.json")
        #expect(Self.awaitChange(watch), "the linked file edited in place")
        try Self.write("lunch, new prices", to: scenes + "/lunch.json")
        #expect(!watch.drainChanged(), "a file the link does not name")
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: scenes + "/lunch.json")
        #expect(Self.awaitChange(watch), "the link swapped")
        try Self.write("breakfast again", to: scenes + "/breakfast.json")
        #expect(!watch.drainChanged(), "the old target no longer")
        try Self.write("lunch, later", to: scenes + "/lunch.json")
        #expect(Self.awaitChange(watch), "the new target")
        // The target written anew from empty counts once it is closed, as the path itself does.
        try FileManager.default.removeItem(atPath: scenes + "/lunch.json")
        #expect(Self.awaitChange(watch), "the target deleted: the content finds it gone and says so")
        let fd = open(scenes + "/lunch.json", O_CREAT | O_WRONLY, 0o644)
        #expect(fd >= 0)
        #expect(!watch.drainChanged(), "the target created, still empty")
        close(fd)
        #expect(Self.awaitChange(watch), "the target closed after writing")
    }

    @Test func aFileCreatedEmptyCountsOnceItIsClosed() throws {
        let folder = try Self.folder()
        let path = folder + "/menu.png"
        let watch = try #require(FileWatch(path: path))
        let fd = open(path, O_CREAT | O_WRONLY, 0o644)
        #expect(fd >= 0)
        #expect(!watch.drainChanged(), "created but still empty")
        _ = "content".withCString { Glibc.write(fd, $0, 7) }
        #expect(!watch.drainChanged(), "still being written")
        close(fd)
        #expect(Self.awaitChange(watch))
    }

    /// A page and its text files in two folders, one instance: each change names its own path,
    /// and after `follow` drops a path its changes no longer count (its folder's other file's do).
    @Test func severalPathsEachReportTheirOwnChangesUntilDropped() throws {
        let folder = try Self.folder()
        let texts = try Self.folder()
        let (page, menu, prices) = (folder + "/page.json", texts + "/menu.txt", texts + "/prices.txt")
        for path in [page, menu, prices] { try Self.write("one", to: path) }
        let watch = try #require(FileWatch(paths: [page, menu, prices, menu]))
        #expect(watch.paths == [page, menu, prices])
        try Self.write("two", to: prices)
        try Self.write("two", to: page)
        #expect(Self.awaitChangedPaths(watch, including: [page, prices]) == [page, prices], "in the order followed")
        try FileManager.default.removeItem(atPath: menu)
        #expect(Self.awaitChangedPaths(watch, including: [menu]) == [menu], "deleted")
        #expect(watch.follow([page, prices]))
        try Self.write("three", to: menu)
        #expect(watch.drainChangedPaths() == [], "no longer followed")
        try Self.write("three", to: prices)
        let stillWatched = Self.awaitChangedPaths(watch, including: [prices])
        #expect(stillWatched == [prices], "the folder is still watched for the other file")
        #expect(!watch.follow([page, "/nonexistent-swell-folder/menu.txt"]))
        #expect(watch.paths == [page])
    }

    @Test func aFolderThatCannotBeWatchedGivesNoWatch() {
        #expect(FileWatch(path: "/nonexistent-swell-folder/scene.json") == nil)
        #expect(FileWatch(path: "/tmp/") == nil)
    }

    /// The loop sleeps on the watch like on a touch: an idle scene whose file changes gets the
    /// change handed over and one new frame.
    @Test func anIdleLoopWakesForItsFileAndDrawsAFrame() throws {
        let folder = try Self.folder()
        let path = folder + "/scene.json"
        try Self.write("one", to: path)
        let watch = try #require(FileWatch(path: path))
        let presenter = MemoryPresenter(panelWidth: 4, panelHeight: 4)
        let loop = try KioskLoop(
            presenter: presenter, input: nil, console: nil, notifier: nil, followsTheMachine: false)
        var renders = 0
        var changes = 0
        let content = TestContent(
            idle: { _ in true }, changed: { _ in changes += 1 },
            render: { _, _ in
                renders += 1
                // While the first frame is drawn, someone replaces the file.
                if renders == 1 { try? Self.write("two", to: path) }
            })
        let end = try loop.run(content, seconds: 30, maximumFrames: 2, watch: watch)
        #expect(end == .frameLimit && renders == 2 && changes == 1)
    }
}

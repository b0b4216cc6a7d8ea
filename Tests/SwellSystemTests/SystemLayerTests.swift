import SwellSystem
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The wrappers issue 36 moved into SwellSystem: folders and file status, atomic writes, inotify,
/// sockets, the lock and the process's own facts.
@Suite struct SystemLayerTests {
    /// A fresh, empty folder under /tmp; its path.
    private func temporaryFolder() throws -> String {
        let path = "/tmp/swell-system-\(currentProcessID())-\(UInt32.random(in: 0...UInt32.max))"
        try makeDirectory(path)
        return path
    }

    private func removeFolder(_ path: String) {
        for name in (try? directoryNames(path)) ?? [] { try? removeFile(path + "/" + name) }
        _ = rmdir(path)
    }

    @Test func aFolderIsMadeOnceAndAMissingFileIsNotRemoved() throws {
        let folder = try temporaryFolder()
        defer { removeFolder(folder) }
        #expect(isDirectory(atPath: folder))
        #expect(throws: Errno.exists) { try makeDirectory(folder) }
        #expect(throws: Errno.noEntry) { try removeFile(folder + "/missing") }
        #expect(throws: Errno.noEntry) { try makeDirectory(folder + "/missing/inner") }
    }

    @Test func anAtomicWriteLeavesTheWholeFileAndNoTemporaryOne() throws {
        let folder = try temporaryFolder()
        defer { removeFolder(folder) }
        let path = folder + "/frame.raw"
        let bytes = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        try bytes.withUnsafeBytes { try writeFileAtomically($0, toPath: path) }
        #expect(try readWholeFile(path) == bytes)
        #expect(try directoryNames(folder) == ["frame.raw"])
        #expect(!isDirectory(atPath: path))
    }

    @Test func anAtomicWriteIntoAMissingFolderSaysWhichStepFailed() {
        let bytes: [UInt8] = [1, 2, 3]
        #expect {
            try bytes.withUnsafeBytes { try writeFileAtomically($0, toPath: "/nonexistent/folder/file") }
        } throws: { error in
            guard let error = error as? AtomicWriteError, case .cannotCreate(let errno) = error else { return false }
            return errno == .noEntry && error.description == "cannot create: No such file or directory"
        }
    }

    @Test func aFileVersionChangesWhenTheFileIsRewritten() throws {
        let folder = try temporaryFolder()
        defer { removeFolder(folder) }
        let path = folder + "/picture.png"
        #expect(fileVersion(path: path) == nil)
        try [UInt8](repeating: 1, count: 10).withUnsafeBytes { try writeFileAtomically($0, toPath: path) }
        let first = try #require(fileVersion(path: path))
        #expect(first.size == 10)
        #expect(fileVersion(path: path) == first)
        // Replaced by a rename: another inode, whatever the clock's resolution.
        try [UInt8](repeating: 2, count: 10).withUnsafeBytes { try writeFileAtomically($0, toPath: path) }
        #expect(fileVersion(path: path) != first)
    }

    @Test func aSymbolicLinkIsToldFromItsTarget() throws {
        let folder = try temporaryFolder()
        defer { removeFolder(folder) }
        try [UInt8]([1]).withUnsafeBytes { try writeFileAtomically($0, toPath: folder + "/winter.json") }
        #expect(symlink("winter.json", folder + "/scene.json") == 0)
        #expect(isSymbolicLink(atPath: folder + "/scene.json"))
        #expect(!isSymbolicLink(atPath: folder + "/winter.json"))
        #expect(symbolicLinkContents(atPath: folder + "/scene.json") == "winter.json")
        #expect(symbolicLinkContents(atPath: folder + "/winter.json") == nil)
        #expect(canonicalPath(folder + "/scene.json")?.hasSuffix("/winter.json") == true)
    }

    /// Where a path lies, its links and `..` resolved, also for a file not there yet and through
    /// a link whose target is missing (what content confinement asks).
    @Test func aPathsLocationFollowsLinksAlsoWhereNothingIsYet() throws {
        let folder = try temporaryFolder()
        defer { removeFolder(folder) }
        try makeDirectory(folder + "/sub")
        defer { _ = rmdir(folder + "/sub") }
        let real = try #require(canonicalPath(folder))
        let parent = String(real[..<real.lastIndex(of: "/")!])
        #expect(resolvedLocation(folder + "/sub") == real + "/sub")
        #expect(resolvedLocation(folder + "/sub/../new.txt") == real + "/new.txt")
        #expect(symlink("/nonexistent-swell-target/x", folder + "/dangling") == 0)
        #expect(resolvedLocation(folder + "/dangling") == "/nonexistent-swell-target/x")
        #expect(resolvedLocation(folder + "/dangling/y.txt") == "/nonexistent-swell-target/x/y.txt")
        #expect(symlink("../elsewhere.txt", folder + "/up") == 0)
        #expect(resolvedLocation(folder + "/up") == parent + "/elsewhere.txt")
        #expect(symlink("loop", folder + "/loop") == 0)
        #expect(resolvedLocation(folder + "/loop") == nil)
    }

    @Test func sortedNamesHidesDotFilesAndSaysWhyAFolderCannotBeRead() throws {
        let folder = try temporaryFolder()
        defer { removeFolder(folder) }
        for name in ["b.png", "a.png", ".a.png.partial", "notes.txt"] {
            try [UInt8]([0]).withUnsafeBytes { try writeFileAtomically($0, toPath: folder + "/" + name) }
        }
        #expect(sortedNames(in: folder) { $0.hasSuffix(".png") } == ["a.png", "b.png"])
        #expect(sortedNames(in: folder + "/missing") { _ in true } == nil)
        #expect(Errno.current == .noEntry)
        #expect(throws: Errno.noEntry) { try directoryNames(folder + "/missing") }
    }

    @Test func inotifyReportsAFileRenamedIntoAWatchedFolder() throws {
        let folder = try temporaryFolder()
        defer { removeFolder(folder) }
        let inotify = try Inotify.open()
        defer { inotify.close() }
        let watch = try inotify.watch(folder, for: [.closedAfterWriting, .movedIn])
        #expect(throws: Errno.noEntry) { try inotify.watch(folder + "/missing", for: .created) }
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: 4096, alignment: 8)
        defer { buffer.deallocate() }
        #expect(inotify.read(into: buffer, count: 4096) == 0)  // nothing yet, and no blocking
        try [UInt8]([1]).withUnsafeBytes { try writeFileAtomically($0, toPath: folder + "/scene.json") }
        #expect(inotify.fd.waitReadable(timeoutMilliseconds: 1000))
        let count = inotify.read(into: buffer, count: 4096)
        var names: [String] = []
        Inotify.forEachEvent(in: UnsafeRawBufferPointer(start: buffer, count: count)) { event in
            #expect(event.watch == watch)
            if event.events.contains(.movedIn) {
                names.append(String(decoding: event.name.prefix(while: { $0 != 0 }), as: UTF8.self))
            }
        }
        #expect(names == ["scene.json"])
        inotify.removeWatch(watch)
    }

    @Test func aDatagramReachesAUnixSocketAndABadAddressIsRefused() throws {
        let socket = try FileDescriptor.openUnixDatagramSocket()
        defer { socket.close() }
        let message: [UInt8] = Array("READY=1".utf8)
        message.withUnsafeBytes { raw in
            #expect(throws: Errno.invalid) { try socket.send(raw, toUnixSocket: "relative") }
            let long = "/" + String(repeating: "x", count: 200)
            #expect(throws: Errno(rawValue: ENAMETOOLONG)) { try socket.send(raw, toUnixSocket: long) }
            #expect(throws: Errno.noEntry) { try socket.send(raw, toUnixSocket: "/nonexistent/notify") }
        }
    }

    @Test func aLockKeepsTwoThreadsCountsApart() throws {
        final class Counter: @unchecked Sendable {
            var value = 0
        }
        let lock = Lock()
        let counter = Counter()
        let threads = try (0..<2).map { _ in
            try Thread {
                for _ in 0..<20_000 { lock.withLock { counter.value += 1 } }
            }
        }
        for thread in threads { thread.join() }
        #expect(counter.value == 40_000)
    }

    @Test func theProcessKnowsItsIdItsEnvironmentAndItsCores() {
        #expect(currentProcessID() == getpid())
        #expect(processEnvironment()["PATH"] == String(cString: getenv("PATH")))
        #expect(onlineProcessorCount() >= 1)
        #expect(localTime(unixSeconds: 0).tm_year + 1900 >= 1969)
    }
}

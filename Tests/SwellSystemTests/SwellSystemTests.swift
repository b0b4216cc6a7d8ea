import SwellSystem
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A fresh file under /tmp holding `bytes`; its path.
private func temporaryFile(_ bytes: [UInt8]) throws -> String {
    var template = Array("/tmp/swell-system-XXXXXX".utf8CString)
    let fd = mkstemp(&template)
    try #require(fd >= 0)
    let file = FileDescriptor(rawValue: fd)
    try file.writeAll(bytes)
    file.close()
    return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

@Test func aWholeFileIsReadByteForByte() throws {
    let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    let path = try temporaryFile(bytes)
    defer { unlink(path) }
    #expect(try readWholeFile(path) == bytes)
    let empty = try temporaryFile([])
    defer { unlink(empty) }
    #expect(try readWholeFile(empty).isEmpty)
}

@Test func aMissingFileOrAFolderSaysWhy() {
    #expect {
        try readWholeFile("/nonexistent/file")
    } throws: { error in
        (error as? FileReadError)?.description == "No such file or directory"
            && (error as? FileReadError)?.errno == .noEntry
    }
    #expect { try readWholeFile("/tmp") } throws: { error in
        (error as? FileReadError)?.description == "not a regular file"
    }
}

@Test func aFileOverTheLimitIsRefused() throws {
    let path = try temporaryFile([UInt8](repeating: 7, count: 3 << 20))
    defer { unlink(path) }
    #expect { try readWholeFile(path, limit: 2 << 20) } throws: { error in
        (error as? FileReadError)?.description == "larger than 2 MiB"
    }
}

@Test func aPipeIsReadToItsEnd() throws {
    // Not a regular file: no size to go by, so the reader grows its buffer until end of file.
    var ends: [Int32] = [0, 0]
    try #require(pipe(&ends) == 0)
    let bytes = (0..<50_000).map { UInt8(truncatingIfNeeded: $0) }
    try FileDescriptor(rawValue: ends[1]).writeAll(bytes)
    FileDescriptor(rawValue: ends[1]).close()
    defer { FileDescriptor(rawValue: ends[0]).close() }
    #expect(try readWholeFile("/proc/self/fd/\(ends[0])") == bytes)
}

@Test func errnoNamesAndMessagesComeFromTheCLibrary() {
    #expect(Errno.accessDenied.name == "EACCES")
    #expect(Errno.accessDenied.description == "Permission denied (EACCES)")
    #expect(Errno(rawValue: 4095).name == "errno 4095")
}

@Test func theMonotonicClockNeverGoesBackAndSleepsToADeadline() {
    let start = monotonicSeconds()
    sleepUntil(monotonic: start + 0.02)
    let end = monotonicSeconds()
    #expect(end >= start + 0.02)
}

@Test func aMappingWritesThroughToTheFile() throws {
    let path = try temporaryFile([UInt8](repeating: 0, count: 8192))
    defer { unlink(path) }
    let fd = try FileDescriptor.open(path, O_RDWR)
    defer { fd.close() }
    let mapping = try MappedMemory.map(fd, length: 8192)
    mapping.base.storeBytes(of: 0xAB, toByteOffset: 5000, as: UInt8.self)
    try mapping.synchronize(offset: 4999, count: 2)
    mapping.unmap()
    #expect(try readWholeFile(path)[5000] == 0xAB)
}

@Test func waitReadableSeesDataAndTimesOut() throws {
    var ends: [Int32] = [0, 0]
    try #require(pipe(&ends) == 0)
    let reader = FileDescriptor(rawValue: ends[0])
    let writer = FileDescriptor(rawValue: ends[1])
    defer {
        reader.close()
        writer.close()
    }
    #expect(!reader.waitReadable(timeoutMilliseconds: 0))
    try writer.writeAll([1])
    #expect(reader.waitReadable(timeoutMilliseconds: 0))
    #expect(waitForReadable([writer, reader], timeoutMilliseconds: 0) == [1])
}

/// A thread started with `Thread` runs its body, and `join` returns only after it has: the body
/// waits on the condition lock for the caller's go and then writes its result, so a `join` that
/// did not wait, or a `broadcast` lost between the body's check and its sleep, would fail (or
/// hang) here.
@Test func aThreadRunsItsBodyAndJoinWaitsForIt() throws {
    final class Shared: @unchecked Sendable {
        let lock = ConditionLock(conditions: 2)
        var go = false
        var started = false
        var result = 0
    }
    let shared = Shared()
    let thread = try SwellSystem.Thread {
        shared.lock.withLock { shared.started = true }
        shared.lock.broadcast(1)
        shared.lock.wait(on: 0) { !shared.go }
        // Written outside the lock, after a wait: only `join` orders it before the reads below.
        for step in 1...1000 { shared.result += step }
    }
    shared.lock.wait(on: 1) { !shared.started }
    #expect(shared.result == 0)
    shared.lock.withLock { shared.go = true }
    shared.lock.broadcast(0)
    thread.join()
    #expect(shared.result == 500_500)
    thread.join()  // a second join returns at once
}

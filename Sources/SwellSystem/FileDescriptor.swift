#if canImport(Glibc)
    import Glibc
#endif

/// An open file descriptor. A plain value: whoever opened it closes it (exactly once).
public struct FileDescriptor: Equatable, Sendable {
    public let rawValue: Int32

    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// Opens `path` close-on-exec; `flags` are O_RDWR, O_RDONLY, O_NONBLOCK and so on.
    public static func open(_ path: String, _ flags: Int32) throws(Errno) -> FileDescriptor {
        let fd = try retryingInterrupts { systemOpen(path, flags | O_CLOEXEC) }
        return FileDescriptor(rawValue: fd)
    }

    /// Creates (with O_CREAT) or opens `path` close-on-exec, a new file getting `permissions`
    /// (less the umask).
    public static func open(_ path: String, _ flags: Int32, permissions: UInt32) throws(Errno) -> FileDescriptor {
        let fd = try retryingInterrupts { systemOpenCreating(path, flags | O_CLOEXEC, mode_t(permissions)) }
        return FileDescriptor(rawValue: fd)
    }

    /// The descriptors every process starts with.
    public static let standardInput = FileDescriptor(rawValue: 0)
    public static let standardOutput = FileDescriptor(rawValue: 1)
    public static let standardError = FileDescriptor(rawValue: 2)

    public func close() {
        _ = systemClose(rawValue)
    }

    /// Closes the descriptor and says whether the last writes failed (NFS and some other file
    /// systems report them only here). The descriptor is closed either way.
    public func closeReportingErrors() throws(Errno) {
        guard systemClose(rawValue) == 0 else { throw Errno.current }
    }

    /// Flushes the file's data and metadata to the disk (fsync(2)).
    public func synchronize() throws(Errno) {
        _ = try retryingInterrupts { systemFsync(rawValue) }
    }

    /// Reads up to `count` bytes; returns 0 at end of file. Throws EAGAIN on an empty non-blocking fd.
    public func read(into buffer: UnsafeMutableRawPointer, count: Int) throws(Errno) -> Int {
        try retryingInterrupts { systemRead(rawValue, buffer, count) }
    }

    /// Writes all of `bytes` (retrying short writes and interruptions).
    public func writeAll(_ bytes: UnsafeRawBufferPointer) throws(Errno) {
        var offset = 0
        while offset < bytes.count {
            let written = try retryingInterrupts {
                systemWrite(rawValue, bytes.baseAddress! + offset, bytes.count - offset)
            }
            guard written > 0 else { throw Errno(rawValue: EIO) }
            offset += written
        }
    }

    /// Writes all of `bytes` (retrying short writes and interruptions).
    public func writeAll(_ bytes: [UInt8]) throws(Errno) {
        let result: Result<Void, Errno> = bytes.withUnsafeBytes { raw in
            Result { () throws(Errno) in try writeAll(raw) }
        }
        try result.get()
    }

    /// Whether the descriptor refers to a terminal.
    public var isTerminal: Bool { systemIsatty(rawValue) == 1 }

    /// The file's status (size, type).
    public func status() throws(Errno) -> stat {
        var info = stat()
        _ = try retryingInterrupts { systemFstat(rawValue, &info) }
        return info
    }

    /// Waits up to `timeoutMilliseconds` (-1: forever) for this descriptor to become readable (or
    /// hung up). False on timeout or when a signal arrived. Allocates nothing: it runs every frame.
    public func waitReadable(timeoutMilliseconds: Int32) -> Bool {
        var entry = pollfd(fd: rawValue, events: Int16(POLLIN), revents: 0)
        return systemPoll(&entry, 1, timeoutMilliseconds) > 0
    }
}

/// Waits for any of `descriptors` to become readable, up to `timeoutMilliseconds` (-1: forever).
/// Returns the indices of the readable (or hung-up) ones; an empty array on timeout or on a signal.
public func waitForReadable(_ descriptors: [FileDescriptor], timeoutMilliseconds: Int32) -> [Int] {
    var entries = descriptors.map { pollfd(fd: $0.rawValue, events: Int16(POLLIN), revents: 0) }
    let count = entries.withUnsafeMutableBufferPointer { systemPoll($0.baseAddress!, $0.count, timeoutMilliseconds) }
    guard count > 0 else { return [] }
    return entries.indices.filter { entries[$0].revents != 0 }
}

/// The descriptors a loop waits on, gathered anew each round into storage kept between rounds:
/// `waitForReadable` allocates its arrays, and a kiosk loop that waits for a page flip every
/// frame must not.
public final class PollSet {
    private var entries: UnsafeMutablePointer<pollfd>
    private var capacity: Int
    public private(set) var count = 0

    public init(capacity: Int = 16) {
        self.capacity = max(capacity, 1)
        entries = .allocate(capacity: self.capacity)
    }

    deinit { entries.deallocate() }

    /// Empties the set (keeping its storage).
    public func removeAll() { count = 0 }

    /// Adds `descriptor` (twice is harmless: poll reports it twice).
    public func add(_ descriptor: FileDescriptor) {
        if count == capacity {
            let larger = UnsafeMutablePointer<pollfd>.allocate(capacity: capacity * 2)
            larger.moveInitialize(from: entries, count: count)
            entries.deallocate()
            entries = larger
            capacity *= 2
        }
        (entries + count).initialize(to: pollfd(fd: descriptor.rawValue, events: Int16(POLLIN), revents: 0))
        count += 1
    }

    /// Waits up to `timeoutMilliseconds` (-1: forever) for one of the descriptors to become
    /// readable (or hung up); false on timeout or when a signal arrived.
    @discardableResult
    public func wait(timeoutMilliseconds: Int32) -> Bool {
        systemPoll(entries, count, timeoutMilliseconds) > 0
    }
}

#if canImport(Glibc)
    import Glibc
#endif

/// An open file descriptor. A plain value: whoever opened it closes it (exactly once).
public struct FileDescriptor: Equatable, Sendable {
    public let rawValue: Int32

    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// Opens `path` close-on-exec; `flags` are O_RDWR, O_RDONLY, O_NONBLOCK and so on.
    public static func open(_ path: String, _ flags: Int32) throws(Errno) -> FileDescriptor {
        let fd = try retryingInterrupts { Glibc.open(path, flags | O_CLOEXEC) }
        return FileDescriptor(rawValue: fd)
    }

    public func close() {
        _ = Glibc.close(rawValue)
    }

    /// Reads up to `count` bytes; returns 0 at end of file. Throws EAGAIN on an empty non-blocking fd.
    public func read(into buffer: UnsafeMutableRawPointer, count: Int) throws(Errno) -> Int {
        try retryingInterrupts { Glibc.read(rawValue, buffer, count) }
    }

    /// Writes all of `bytes` (retrying short writes and interruptions).
    public func writeAll(_ bytes: [UInt8]) throws(Errno) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { raw in
                Glibc.write(rawValue, raw.baseAddress! + offset, raw.count - offset)
            }
            if written < 0 {
                let error = Errno.current
                if error == .interrupted { continue }
                throw error
            }
            offset += written
        }
    }

    /// Whether the descriptor refers to a terminal.
    public var isTerminal: Bool { isatty(rawValue) == 1 }
}

/// Waits for any of `descriptors` to become readable, up to `timeoutMilliseconds` (-1: forever).
/// Returns the indices of the readable (or hung-up) ones; an empty array on timeout or on a signal.
public func waitForReadable(_ descriptors: [FileDescriptor], timeoutMilliseconds: Int32) -> [Int] {
    var entries = descriptors.map { pollfd(fd: $0.rawValue, events: Int16(POLLIN), revents: 0) }
    let count = entries.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), timeoutMilliseconds) }
    guard count > 0 else { return [] }
    return entries.indices.filter { entries[$0].revents != 0 }
}

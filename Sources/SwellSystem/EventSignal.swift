#if canImport(Glibc)
    import Glibc
#endif

/// A wake-up another thread can give a thread that sleeps in `poll` (an eventfd): `notify` from
/// any thread makes `fd` readable until the sleeper `drain`s it. Notifications before a drain
/// merge into one, so a burst of them costs one wake.
public final class EventSignal: @unchecked Sendable {
    public let fd: FileDescriptor

    public init() throws(Errno) {
        let raw = systemEventfd()
        guard raw >= 0 else { throw Errno.current }
        fd = FileDescriptor(rawValue: raw)
    }

    deinit { fd.close() }

    /// Makes `fd` readable (safe from any thread).
    public func notify() {
        var one: UInt64 = 1
        _ = withUnsafeBytes(of: &one) { try? fd.writeAll($0) }
    }

    /// Makes `fd` unreadable again; true when it had been notified.
    @discardableResult
    public func drain() -> Bool {
        var count: UInt64 = 0
        let read = (try? withUnsafeMutableBytes(of: &count) { try fd.read(into: $0.baseAddress!, count: 8) }) ?? 0
        return read == 8 && count > 0
    }
}

/// The space of the file system holding `path` (statvfs(3)): bytes free to an unprivileged
/// writer and bytes in all; nil when it cannot be read.
public func fileSystemSpace(_ path: String) -> (free: Int64, total: Int64)? {
    var info = statvfs()
    guard systemStatvfs(path, &info) == 0 else { return nil }
    let block = Int64(info.f_frsize)
    return (Int64(info.f_bavail) * block, Int64(info.f_blocks) * block)
}

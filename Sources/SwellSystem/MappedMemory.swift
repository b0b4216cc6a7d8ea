/// A shared read-write mapping of a device's memory (a DRM dumb buffer, a framebuffer): `mmap`,
/// `msync` and `munmap` behind one value. Whoever maps it unmaps it (exactly once).
public struct MappedMemory {
    public let base: UnsafeMutableRawPointer
    public let length: Int

    /// Maps `length` bytes of `fd` at `offset` (the offset a driver gave for the buffer).
    public static func map(_ fd: FileDescriptor, length: Int, offset: Int64 = 0) throws(Errno) -> MappedMemory {
        guard let base = systemMmap(length, fd.rawValue, offset) else { throw Errno.current }
        return MappedMemory(base: base, length: length)
    }

    public func unmap() { _ = systemMunmap(base, length) }

    /// Writes `count` bytes from `offset` back to the device now (`msync`, widened to whole
    /// pages): deferred-I/O framebuffers copy to the panel only then, or ~50 ms later.
    public func synchronize(offset: Int, count: Int) throws(Errno) {
        let pageSize = Self.pageSize
        let start = offset / pageSize * pageSize
        let end = min(length, offset + count)
        guard end > start else { return }
        guard systemMsync(base + start, end - start) == 0 else { throw Errno.current }
    }

    /// The system's memory page size in bytes.
    public static let pageSize = systemPageSize()
}

#if canImport(Glibc)
    import Glibc
#endif

/// An inotify instance (non-blocking, close-on-exec): the kernel's events for files in watched
/// folders, read from `fd` (which a loop can wait on with its other descriptors). A plain value,
/// like `FileDescriptor`: whoever opened it closes it (exactly once).
public struct Inotify: Sendable {
    public let fd: FileDescriptor

    /// What a watch reports (inotify's IN_* bits).
    public struct Events: OptionSet, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        /// A file open for writing was closed (`cp`, `cat >`, an editor saving in place).
        public static let closedAfterWriting = Events(rawValue: UInt32(IN_CLOSE_WRITE))
        /// An entry was renamed into the folder (rsync, `sed -i`, an editor's safe save).
        public static let movedIn = Events(rawValue: UInt32(IN_MOVED_TO))
        public static let created = Events(rawValue: UInt32(IN_CREATE))
        public static let deleted = Events(rawValue: UInt32(IN_DELETE))
        /// Permissions, owner or times changed (a device node's permissions set after it appeared).
        public static let attributesChanged = Events(rawValue: UInt32(IN_ATTRIB))
        /// The kernel's queue overflowed: events were lost (reported with watch -1).
        public static let queueOverflowed = Events(rawValue: UInt32(IN_Q_OVERFLOW))
    }

    /// One event: the watch it came from, what happened, and the entry's NUL-padded name in the
    /// folder (empty for an event on the folder itself). The name points into the read buffer.
    public struct Event {
        public let watch: Int32
        public let events: Events
        public let name: UnsafeRawBufferPointer
    }

    public init(fd: FileDescriptor) { self.fd = fd }

    /// A new instance; throws its errno (ENOSYS without inotify, EMFILE over the user's limit).
    public static func open() throws(Errno) -> Inotify {
        let instance = systemInotifyInit()
        guard instance >= 0 else { throw Errno.current }
        return Inotify(fd: FileDescriptor(rawValue: instance))
    }

    public func close() { fd.close() }

    /// Watches `path` (a folder: its entries' events) for `events`; returns the watch, the same
    /// for the same folder however often it is added. Throws ENOENT for a missing folder.
    public func watch(_ path: String, for events: Events) throws(Errno) -> Int32 {
        let watch = systemInotifyAddWatch(fd.rawValue, path, events.rawValue)
        guard watch >= 0 else { throw Errno.current }
        return watch
    }

    /// Stops a watch (a watch already gone, its folder deleted, is ignored).
    public func removeWatch(_ watch: Int32) { _ = systemInotifyRemoveWatch(fd.rawValue, watch) }

    /// Reads the queued events into `buffer` without blocking; the bytes read, 0 when none are
    /// queued. `buffer` must hold at least one event with its name (16 bytes and NAME_MAX + 1).
    public func read(into buffer: UnsafeMutableRawPointer, count: Int) -> Int {
        (try? fd.read(into: buffer, count: count)) ?? 0
    }

    /// Calls `body` with each event in `bytes` (what `read` returned).
    public static func forEachEvent(in bytes: UnsafeRawBufferPointer, _ body: (Event) -> Void) {
        var offset = 0
        // struct inotify_event: wd, mask, cookie, len (4 bytes each), then len bytes of name.
        while offset + 16 <= bytes.count {
            let watch = bytes.load(fromByteOffset: offset, as: Int32.self)
            let mask = bytes.load(fromByteOffset: offset + 4, as: UInt32.self)
            let length = Int(bytes.load(fromByteOffset: offset + 12, as: UInt32.self))
            let name = UnsafeRawBufferPointer(rebasing: bytes[(offset + 16)..<min(bytes.count, offset + 16 + length)])
            body(Event(watch: watch, events: Events(rawValue: mask), name: name))
            offset += 16 + length
        }
    }
}

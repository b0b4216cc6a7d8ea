#if canImport(Glibc)
    import Glibc
#endif

/// Watches one file for new content, with inotify on its folder (so a file replaced by a rename
/// is still followed): written in place and closed (IN_CLOSE_WRITE: `cp`, `cat >`, an editor
/// saving in place), renamed over (IN_MOVED_TO: rsync, `sed -i`, most editors' safe save) or a
/// symbolic link put in its place (`ln -sf winter.json scene.json`). A file created empty and then
/// written counts once, when it is closed. Costs nothing while nothing happens: the kiosk loop
/// sleeps on `fd` with its other descriptors.
public final class FileWatch {
    public let fd: FileDescriptor
    /// The file as given, and its name within the watched folder.
    public let path: String
    private let name: [UInt8]
    private let folder: String
    private let buffer: UnsafeMutableRawPointer
    /// Room for many events at once (each is 16 bytes and the NUL-padded name).
    private static let capacity = 16 * 1024

    /// Nil when the folder cannot be watched (no inotify, or the folder is missing): the file is
    /// then read once, as before.
    public init?(path: String) {
        let slash = path.lastIndex(of: "/")
        folder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        name = Array((slash.map { String(path[path.index(after: $0)...]) } ?? path).utf8)
        guard !name.isEmpty else { return nil }
        let watch = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard watch >= 0 else { return nil }
        guard inotify_add_watch(watch, folder, UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE)) >= 0 else {
            close(watch)
            return nil
        }
        fd = FileDescriptor(rawValue: watch)
        self.path = path
        buffer = .allocate(byteCount: Self.capacity, alignment: 8)
    }

    deinit {
        fd.close()
        buffer.deallocate()
    }

    /// Reads every queued event without blocking; true if one of them gave the file new content.
    public func drainChanged() -> Bool {
        var changed = false
        while true {
            let count = read(fd.rawValue, buffer, Self.capacity)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return changed }
            var offset = 0
            // struct inotify_event: wd, mask, cookie, len (4 bytes each), then len bytes of name.
            while offset + 16 <= count {
                let mask = buffer.load(fromByteOffset: offset + 4, as: UInt32.self)
                let length = Int(buffer.load(fromByteOffset: offset + 12, as: UInt32.self))
                let eventName = UnsafeRawBufferPointer(start: buffer + offset + 16, count: length)
                if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                    changed = true  // events were lost; any of them may have been ours
                } else if Self.names(eventName, name) && isChange(mask) {
                    changed = true
                }
                offset += 16 + length
            }
        }
    }

    /// A created entry counts only when it is a symbolic link (complete when it appears); a
    /// created regular file is still empty, and counts when it is closed after writing.
    private func isChange(_ mask: UInt32) -> Bool {
        guard mask & UInt32(IN_CREATE) != 0 else { return true }
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
    }

    /// Whether an event's NUL-padded name is `name`.
    static func names(_ eventName: UnsafeRawBufferPointer, _ name: [UInt8]) -> Bool {
        guard eventName.count >= name.count else { return false }
        for index in name.indices where eventName[index] != name[index] { return false }
        return eventName.count == name.count || eventName[name.count] == 0
    }
}

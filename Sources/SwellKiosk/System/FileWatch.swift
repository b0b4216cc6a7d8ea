import SwellSystem

#if canImport(Glibc)
    import Glibc
#endif

/// Watches one file for new content, with inotify on its folder (so a file replaced by a rename
/// is still followed): written in place and closed (IN_CLOSE_WRITE: `cp`, `cat >`, an editor
/// saving in place), renamed over (IN_MOVED_TO: rsync, `sed -i`, most editors' safe save) or a
/// symbolic link put in its place (`ln -sf winter.json scene.json`). When the path is a symbolic
/// link, the file it names is watched in its own folder too (the day-part scene being edited),
/// and again after the link is swapped. A file created empty and then written counts once, when
/// it is closed. Costs nothing while nothing happens: the kiosk loop sleeps on `fd` with its
/// other descriptors.
public final class FileWatch {
    public let fd: FileDescriptor
    /// The file as given.
    public let path: String
    /// The watched files: the path's own, and its link target's when it is a symbolic link, each
    /// with its folder's watch (the same watch when both are in one folder: inotify keeps one per
    /// folder) and its name there.
    private var entries: [(watch: Int32, name: [UInt8], file: String)] = []
    private let buffer: UnsafeMutableRawPointer
    /// Room for many events at once (each is 16 bytes and the NUL-padded name).
    private static let capacity = 16 * 1024
    private static let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE)

    /// Nil when the folder cannot be watched (no inotify, or the folder is missing): the file is
    /// then read once, as before.
    public init?(path: String) {
        let instance = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard instance >= 0 else { return nil }
        fd = FileDescriptor(rawValue: instance)
        self.path = path
        buffer = .allocate(byteCount: Self.capacity, alignment: 8)
        guard let own = watchFolder(of: path) else { return nil }
        entries = [own]
        followLinkTarget()
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
            guard count > 0 else { break }
            var offset = 0
            // struct inotify_event: wd, mask, cookie, len (4 bytes each), then len bytes of name.
            while offset + 16 <= count {
                let watch = buffer.load(fromByteOffset: offset, as: Int32.self)
                let mask = buffer.load(fromByteOffset: offset + 4, as: UInt32.self)
                let length = Int(buffer.load(fromByteOffset: offset + 12, as: UInt32.self))
                let eventName = UnsafeRawBufferPointer(start: buffer + offset + 16, count: length)
                if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                    changed = true  // events were lost; any of them may have been ours
                } else if let entry = entries.first(where: { $0.watch == watch && Self.names(eventName, $0.name) }),
                    Self.isChange(mask, of: entry.file)
                {
                    changed = true
                }
                offset += 16 + length
            }
        }
        // The link may name another file now.
        if changed { followLinkTarget() }
        return changed
    }

    /// Whether an event on `file` gave it new content. A created entry counts only when it is a
    /// symbolic link (complete when it appears); a created regular file is still empty, and
    /// counts when it is closed after writing.
    private static func isChange(_ mask: UInt32, of file: String) -> Bool {
        guard mask & UInt32(IN_CREATE) != 0 else { return true }
        var info = stat()
        return lstat(file, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
    }

    /// Watches the folder of `file`; its entry, or nil.
    private func watchFolder(of file: String) -> (watch: Int32, name: [UInt8], file: String)? {
        let slash = file.lastIndex(of: "/")
        let folder = slash.map { $0 == file.startIndex ? "/" : String(file[..<$0]) } ?? "."
        let name = Array((slash.map { String(file[file.index(after: $0)...]) } ?? file).utf8)
        guard !name.isEmpty else { return nil }
        let watch = inotify_add_watch(fd.rawValue, folder, Self.mask)
        return watch >= 0 ? (watch, name, file) : nil
    }

    /// Replaces the link target's entry with the file `path` resolves to now (none when it is not
    /// a link). The target's folder watch is removed unless the path's own entry shares it.
    private func followLinkTarget() {
        if entries.count > 1 {
            let old = entries.removeLast()
            if old.watch != entries[0].watch { inotify_rm_watch(fd.rawValue, old.watch) }
        }
        guard let resolved = realpath(path, nil) else { return }
        defer { free(resolved) }
        let target = String(cString: resolved)
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK, let entry = watchFolder(of: target)
        else { return }
        entries.append(entry)
    }

    /// Whether an event's NUL-padded name is `name`.
    static func names(_ eventName: UnsafeRawBufferPointer, _ name: [UInt8]) -> Bool {
        guard eventName.count >= name.count else { return false }
        for index in name.indices where eventName[index] != name[index] { return false }
        return eventName.count == name.count || eventName[name.count] == 0
    }
}

import SwellDisplay
import SwellInput
import SwellService
import SwellSystem

/// Watches files for new content, with inotify on their folders (so a file replaced by a rename
/// is still followed): written in place and closed (IN_CLOSE_WRITE: `cp`, `cat >`, an editor
/// saving in place), renamed over (IN_MOVED_TO: rsync, `sed -i`, most editors' safe save), a
/// symbolic link put in its place (`ln -sf winter.json scene.json`) or deleted (IN_DELETE: the
/// content finds it cannot load it, and says so). When a path is a symbolic link, the file it
/// names is watched in its own folder too (the day-part scene being edited), and again after the
/// link is swapped. A file created empty and then written counts once, when it is closed. One
/// inotify instance follows every path (a scene file, its pages, the text files they show), so
/// the kiosk loop sleeps on one `fd` with its other descriptors and costs nothing meanwhile.
public final class FileWatch {
    public var fd: FileDescriptor { inotify.fd }
    private let inotify: Inotify
    /// The files followed, as given; the first is the one `init(path:)` was given.
    public private(set) var paths: [String] = []
    public var path: String { paths[0] }
    /// A watched name: a followed path's own, or its link target's, each with its folder's watch
    /// (inotify keeps one watch per folder, shared by every entry there) and the followed path
    /// whose change it means.
    private struct Entry {
        let watch: Int32
        let name: [UInt8]
        let file: String
        let followed: String
        let isLinkTarget: Bool
    }
    private var entries: [Entry] = []
    private let buffer: UnsafeMutableRawPointer
    /// Room for many events at once (each is 16 bytes and the NUL-padded name).
    private static let capacity = 16 * 1024
    private static let events: Inotify.Events = [.closedAfterWriting, .movedIn, .created, .deleted]

    /// Nil when the folder cannot be watched (no inotify, or the folder is missing): the file is
    /// then read once, as before.
    public convenience init?(path: String) {
        self.init(paths: [path])
    }

    /// Nil when there is no path or a folder cannot be watched (see `init(path:)`).
    public init?(paths: [String]) {
        guard let inotify = try? Inotify.open() else { return nil }
        self.inotify = inotify
        buffer = .allocate(byteCount: Self.capacity, alignment: 8)
        guard !paths.isEmpty, follow(paths) else { return nil }
    }

    deinit {
        inotify.close()
        buffer.deallocate()
    }

    /// Follows exactly `paths` from now on (a reloaded scene names other text files or pages):
    /// new ones are watched, the others dropped. False if a new one's folder cannot be watched
    /// (the others are followed all the same).
    @discardableResult
    public func follow(_ paths: [String]) -> Bool {
        var unique: [String] = []
        for path in paths where !unique.contains(path) { unique.append(path) }
        var watchedAll = true
        for path in unique where !self.paths.contains(path) {
            guard let own = watchFolder(of: path, for: path, isLinkTarget: false) else {
                watchedAll = false
                continue
            }
            entries.append(own)
            self.paths.append(path)
            followLinkTarget(of: path)
        }
        for path in self.paths where !unique.contains(path) { drop { $0.followed == path } }
        self.paths = self.paths.filter(unique.contains)
        return watchedAll
    }

    /// Reads every queued event without blocking; true if one of them gave a file new content.
    public func drainChanged() -> Bool { !drainChangedPaths().isEmpty }

    /// Reads every queued event without blocking; the followed paths given new content, in
    /// `paths` order (empty, and nothing allocated, when none was).
    public func drainChangedPaths() -> [String] {
        var changed: [String] = []
        func note(_ path: String) { if !changed.contains(path) { changed.append(path) } }
        while true {
            let count = inotify.read(into: buffer, count: Self.capacity)
            guard count > 0 else { break }
            Inotify.forEachEvent(in: UnsafeRawBufferPointer(start: buffer, count: count)) { event in
                if event.events.contains(.queueOverflowed) {
                    paths.forEach(note)  // events were lost; any of them may have been ours
                } else {
                    for entry in entries where entry.watch == event.watch && Self.names(event.name, entry.name) {
                        if Self.isChange(event.events, of: entry.file) { note(entry.followed) }
                    }
                }
            }
        }
        // A link may name another file now.
        for path in changed { followLinkTarget(of: path) }
        return paths.filter(changed.contains)
    }

    /// Whether an event on `file` gave it new content. A created entry counts only when it is a
    /// symbolic link (complete when it appears); a created regular file is still empty, and
    /// counts when it is closed after writing.
    private static func isChange(_ events: Inotify.Events, of file: String) -> Bool {
        guard events.contains(.created) else { return true }
        return isSymbolicLink(atPath: file)
    }

    /// Watches the folder of `file`; its entry, or nil.
    private func watchFolder(of file: String, for followed: String, isLinkTarget: Bool) -> Entry? {
        let slash = file.lastIndex(of: "/")
        let folder = slash.map { $0 == file.startIndex ? "/" : String(file[..<$0]) } ?? "."
        let name = Array((slash.map { String(file[file.index(after: $0)...]) } ?? file).utf8)
        guard !name.isEmpty else { return nil }
        guard let watch = try? inotify.watch(folder, for: Self.events) else { return nil }
        return Entry(watch: watch, name: name, file: file, followed: followed, isLinkTarget: isLinkTarget)
    }

    /// Removes the entries `matching` says, and each folder watch no other entry still uses.
    private func drop(where matching: (Entry) -> Bool) {
        let gone = entries.filter(matching)
        entries.removeAll(where: matching)
        for watch in Set(gone.map(\.watch)) where !entries.contains(where: { $0.watch == watch }) {
            inotify.removeWatch(watch)
        }
    }

    /// Replaces `path`'s link target entry with the file it resolves to now (none when it is not
    /// a link).
    private func followLinkTarget(of path: String) {
        drop { $0.followed == path && $0.isLinkTarget }
        guard isSymbolicLink(atPath: path), let target = Self.linkTarget(of: path),
            let entry = watchFolder(of: target, for: path, isLinkTarget: true)
        else { return }
        entries.append(entry)
    }

    /// The file the link `path` names in the end, or, while that file is gone (deleted before
    /// it is written anew), the name the link holds, so its folder is still watched.
    private static func linkTarget(of path: String) -> String? {
        if let resolved = canonicalPath(path) { return resolved }
        guard let target = symbolicLinkContents(atPath: path) else { return nil }
        guard !target.hasPrefix("/"), let slash = path.lastIndex(of: "/") else { return target }
        return String(path[...slash]) + target
    }

    /// Whether an event's NUL-padded name is `name`.
    static func names(_ eventName: UnsafeRawBufferPointer, _ name: [UInt8]) -> Bool {
        guard eventName.count >= name.count else { return false }
        for index in name.indices where eventName[index] != name[index] { return false }
        return eventName.count == name.count || eventName[name.count] == 0
    }
}

#if canImport(Glibc)
    import Glibc
#endif

/// What tells one version of a file from the next: its modification time (ns), size and inode,
/// one of which changes when the file is rewritten in place (`cp` over it) or replaced (an
/// rsync's or `mv`'s rename). Only ever compared.
public struct FileVersion: Equatable, Sendable {
    public let modified: Int64
    public let size: Int64
    public let identity: UInt64

    public init(modified: Int64, size: Int64, identity: UInt64) {
        self.modified = modified
        self.size = size
        self.identity = identity
    }
}

/// The version of the file at `path` (stat(2), following links); nil if it cannot be read
/// (removed, say).
public func fileVersion(path: String) -> FileVersion? {
    var info = stat()
    guard systemStat(path, &info) == 0 else { return nil }
    return FileVersion(
        modified: Int64(info.st_mtim.tv_sec) &* 1_000_000_000 &+ Int64(info.st_mtim.tv_nsec),
        size: Int64(info.st_size), identity: UInt64(info.st_ino))
}

/// Whether `path` is a directory (following links); false when it does not exist.
public func isDirectory(atPath path: String) -> Bool {
    var info = stat()
    return systemStat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
}

/// Whether `path` itself is a symbolic link (lstat(2): not followed).
public func isSymbolicLink(atPath path: String) -> Bool {
    var info = stat()
    return systemLstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
}

/// The name the symbolic link `path` holds, as written (relative or absolute; readlink(2));
/// nil when `path` is not a link or cannot be read.
public func symbolicLinkContents(atPath path: String) -> String? {
    var name = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let length = name.withUnsafeMutableBufferPointer { systemReadlink(path, $0.baseAddress!, $0.count - 1) }
    guard length > 0 else { return nil }
    return String(decoding: name[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// Creates the directory `path` (mkdir(2)). Throws EEXIST when something is there already.
public func makeDirectory(_ path: String, permissions: UInt32 = 0o755) throws(Errno) {
    guard systemMkdir(path, mode_t(permissions)) == 0 else { throw Errno.current }
}

/// Removes the file `path` (unlink(2)). Throws ENOENT when there is none.
public func removeFile(_ path: String) throws(Errno) {
    guard systemUnlink(path) == 0 else { throw Errno.current }
}

/// Renames `source` to `destination`, replacing it at once (rename(2): never half of either).
public func renameFile(_ source: String, to destination: String) throws(Errno) {
    guard systemRename(source, destination) == 0 else { throw Errno.current }
}

/// Why an atomic write failed: which step, with the errno.
public enum AtomicWriteError: Error, Sendable, CustomStringConvertible {
    /// The temporary file could not be created (a missing or read-only folder).
    case cannotCreate(Errno)
    /// Writing the bytes failed (ENOSPC, EIO).
    case writeFailed(Errno)
    /// Flushing, closing or renaming failed.
    case cannotFinish(Errno)

    public var errno: Errno {
        switch self {
        case .cannotCreate(let error), .writeFailed(let error), .cannotFinish(let error): error
        }
    }

    /// "cannot create: Permission denied" and the like.
    public var description: String {
        switch self {
        case .cannotCreate(let error): "cannot create: \(error.message)"
        case .writeFailed(let error): "write failed: \(error.message)"
        case .cannotFinish(let error): "cannot finish writing: \(error.message)"
        }
    }
}

/// Writes `bytes` to `path` so that the file either appears complete or not at all: the data
/// goes to a hidden temporary file in the same folder, is flushed to disk, and is renamed over
/// `path` only when every byte is written. On failure the temporary file is removed.
public func writeFileAtomically(_ bytes: UnsafeRawBufferPointer, toPath path: String) throws(AtomicWriteError) {
    let slash = path.lastIndex(of: "/")
    let folder = slash.map { String(path[..<$0]) } ?? "."
    let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
    let temporary = (folder.isEmpty ? "" : folder + "/") + ".\(name).partial-\(currentProcessID())"
    let fd: FileDescriptor
    do {
        fd = try FileDescriptor.open(temporary, O_WRONLY | O_CREAT | O_TRUNC, permissions: 0o644)
    } catch {
        throw .cannotCreate(error)
    }
    do {
        try fd.writeAll(bytes)
    } catch {
        fd.close()
        try? removeFile(temporary)
        throw .writeFailed(error)
    }
    var failure: Errno? = nil
    do {
        try fd.synchronize()
    } catch {
        // EINVAL: a file system without fsync (pipes, some FUSE), with nothing to flush.
        if error != .invalid { failure = error }
    }
    do {
        try fd.closeReportingErrors()
    } catch {
        failure = failure ?? error
    }
    if failure == nil {
        do {
            try renameFile(temporary, to: path)
            return
        } catch {
            failure = error
        }
    }
    try? removeFile(temporary)
    throw .cannotFinish(failure!)
}

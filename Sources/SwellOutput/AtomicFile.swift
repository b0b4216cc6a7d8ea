import SwellSystem

#if canImport(Glibc)
    import Glibc
#endif

/// Writes `bytes` to `path` so that the file either appears complete or not at all: the data
/// goes to a hidden temporary file in the same folder, is flushed to disk, and is renamed over
/// `path` only when every byte is written. On failure the temporary file is removed.
public func writeFileAtomically(_ bytes: UnsafeRawBufferPointer, to path: String) throws(OutputError) {
    let slash = path.lastIndex(of: "/")
    let folder = slash.map { String(path[..<$0]) } ?? "."
    let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
    let temporary = (folder.isEmpty ? "" : folder + "/") + ".\(name).partial-\(getpid())"
    let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard fd >= 0 else {
        throw OutputError(path: path, reason: "cannot create: \(Errno.current.message)")
    }
    var written = 0
    while written < bytes.count {
        let n = write(fd, bytes.baseAddress! + written, bytes.count - written)
        if n < 0 && errno == EINTR { continue }
        if n <= 0 {
            let reason = n < 0 ? Errno.current.message : "no progress"
            close(fd)
            unlink(temporary)
            throw OutputError(path: path, reason: "write failed: \(reason)")
        }
        written += n
    }
    let synced = fsync(fd) == 0 || errno == EINVAL  // EINVAL: a file system without fsync (pipes, some FUSE)
    let closed = close(fd) == 0
    guard synced, closed, rename(temporary, path) == 0 else {
        let reason = Errno.current.message
        unlink(temporary)
        throw OutputError(path: path, reason: "cannot finish writing: \(reason)")
    }
}

/// Writes a byte array atomically (see `writeFileAtomically(_:to:)`).
public func writeFileAtomically(_ bytes: [UInt8], to path: String) throws(OutputError) {
    let result: Result<Void, OutputError> = bytes.withUnsafeBytes { buffer in
        Result { () throws(OutputError) in try writeFileAtomically(buffer, to: path) }
    }
    try result.get()
}

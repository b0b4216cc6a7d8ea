#if canImport(Glibc)
    import Glibc
#endif

/// Why a whole-file read failed: the C library's message ("No such file or directory") or the
/// limit passed, and the errno when a system call failed.
public struct FileReadError: Error, Sendable, CustomStringConvertible {
    public let reason: String
    public let errno: Errno?

    public init(_ errno: Errno) {
        self.reason = errno.message
        self.errno = errno
    }

    public init(reason: String) {
        self.reason = reason
        self.errno = nil
    }

    public var description: String { reason }
}

/// Reads a whole file (scene files, draw lists, touch scripts, manifests, raw frames) with one
/// `read` loop; a regular file's size sizes the buffer at once, a pipe or device is read to its
/// end. Refuses directories and files over `limit` bytes.
public func readWholeFile(_ path: String, limit: Int = 256 << 20) throws(FileReadError) -> [UInt8] {
    let fd: FileDescriptor
    do {
        fd = try FileDescriptor.open(path, O_RDONLY)
    } catch {
        throw FileReadError(error)
    }
    defer { fd.close() }
    let info: stat
    do {
        info = try fd.status()
    } catch {
        throw FileReadError(error)
    }
    guard (info.st_mode & S_IFMT) != S_IFDIR else { throw FileReadError(reason: "not a regular file") }
    let regular = (info.st_mode & S_IFMT) == S_IFREG
    guard !regular || Int(info.st_size) <= limit else { throw FileReadError(reason: "larger than \(limit >> 20) MiB") }
    var bytes = [UInt8](repeating: 0, count: regular ? max(Int(info.st_size), 1) : 65536)
    var done = 0
    while true {
        if done == bytes.count {
            guard bytes.count < limit else { throw FileReadError(reason: "larger than \(limit >> 20) MiB") }
            bytes += [UInt8](repeating: 0, count: min(bytes.count, limit - bytes.count + 1))
        }
        let read = bytes.withUnsafeMutableBytes { raw in
            Result { () throws(Errno) in try fd.read(into: raw.baseAddress! + done, count: raw.count - done) }
        }
        let count: Int
        switch read {
        case .success(let n): count = n
        case .failure(let error): throw FileReadError(error)
        }
        if count == 0 { break }
        done += count
    }
    bytes.removeLast(bytes.count - done)
    return bytes
}

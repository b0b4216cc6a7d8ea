#if canImport(Glibc)
    import Glibc
#endif

struct ReadFailure: Error {
    let reason: String
}

/// Reads a whole regular file with POSIX calls (no Foundation), refusing directories and
/// absurd sizes.
func readWholeFile(_ path: String) throws(ReadFailure) -> [UInt8] {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw ReadFailure(reason: String(cString: strerror(errno))) }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw ReadFailure(reason: String(cString: strerror(errno))) }
    guard (info.st_mode & S_IFMT) == S_IFREG else { throw ReadFailure(reason: "not a regular file") }
    guard info.st_size <= 256 << 20 else { throw ReadFailure(reason: "larger than 256 MiB") }
    var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
    var done = 0
    while done < bytes.count {
        let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + done, $0.count - done) }
        if n < 0 {
            if errno == EINTR { continue }
            throw ReadFailure(reason: String(cString: strerror(errno)))
        }
        if n == 0 { break }
        done += n
    }
    return Array(bytes[0..<done])
}

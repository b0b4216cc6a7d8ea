import SwellScenes

#if canImport(Glibc)
    import Glibc
#endif

/// The names of the entries of `folder` that `keep` accepts, sorted; hidden names (a leading
/// dot: rsync's and editors' temporary files) are never listed. nil if the folder cannot be read
/// (errno says why).
func sortedNames(in folder: String, where keep: (String) -> Bool) -> [String]? {
    guard let directory = opendir(folder) else { return nil }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) {
            String(cString: $0.bindMemory(to: CChar.self).baseAddress!)
        }
        if !name.hasPrefix(".") && keep(name) { names.append(name) }
    }
    return names.sorted()
}

/// The version of the file at `path` as the slideshow compares it: modification time (ns), size
/// and inode, so rewriting a picture in place (`cp` over it) or replacing it (`rsync`, `mv`)
/// is seen. nil if it cannot be read (e.g. removed).
func fileVersion(path: String) -> PictureVersion? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return PictureVersion(
        modified: Int64(info.st_mtim.tv_sec) &* 1_000_000_000 &+ Int64(info.st_mtim.tv_nsec),
        size: Int64(info.st_size), identity: UInt64(info.st_ino))
}

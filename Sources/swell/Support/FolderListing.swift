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

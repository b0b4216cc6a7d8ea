#if canImport(Glibc)
    import Glibc
#endif

/// The names in the directory `path` (without "." and ".."), in the order the file system gives
/// them; throws why it cannot be read (ENOENT, EACCES, ENOTDIR).
public func directoryNames(_ path: String) throws(Errno) -> [String] {
    guard let directory = systemOpendir(path) else { throw Errno.current }
    defer { _ = systemClosedir(directory) }
    var names: [String] = []
    while let entry = systemReaddir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
            String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
        if name != "." && name != ".." { names.append(name) }
    }
    return names
}

/// The names in a directory (without "." and ".."), sorted naturally so card2 comes before card10;
/// empty when it cannot be read.
public func directoryEntries(_ path: String) -> [String] {
    ((try? directoryNames(path)) ?? []).sorted(by: naturalOrder)
}

/// The names of the entries of `folder` that `keep` accepts, sorted (plain order); hidden names
/// (a leading dot: rsync's and editors' temporary files) are never listed. nil if the folder
/// cannot be read (`Errno.current` says why).
public func sortedNames(in folder: String, where keep: (String) -> Bool) -> [String]? {
    do {
        return try directoryNames(folder).filter { !$0.hasPrefix(".") && keep($0) }.sorted()
    } catch {
        systemSetErrno(error.rawValue)
        return nil
    }
}

/// Whether `path` names something that exists, readable or not (access F_OK).
public func fileExists(_ path: String) -> Bool { systemAccess(path, F_OK) == 0 }

/// Nil when this process may read `path`; otherwise why it may not (access R_OK), for messages
/// that tell a missing file from a forbidden one.
public func readError(_ path: String) -> Errno? { systemAccess(path, R_OK) == 0 ? nil : .current }

/// The first line of a small text file (a sysfs attribute), without its newline; nil if it
/// cannot be read.
public func firstLine(ofFile path: String) -> String? {
    guard let fd = try? FileDescriptor.open(path, O_RDONLY) else { return nil }
    defer { fd.close() }
    var line = [UInt8](repeating: 0, count: 256)
    let read = line.withUnsafeMutableBytes { raw in
        Result { () throws(Errno) in try fd.read(into: raw.baseAddress!, count: raw.count) }
    }
    guard case .success(let count) = read, count > 0 else { return nil }
    let text = line.prefix(count).prefix(while: { $0 != UInt8(ascii: "\n") && $0 != 0 })
    return String(decoding: text, as: UTF8.self)
}

/// "card2" < "card10": compares the trailing numbers as numbers when the prefixes agree.
public func naturalOrder(_ a: String, _ b: String) -> Bool {
    let aPrefix = a.prefix(while: { !$0.isNumber })
    let bPrefix = b.prefix(while: { !$0.isNumber })
    if aPrefix == bPrefix, let aNumber = Int(a.dropFirst(aPrefix.count)), let bNumber = Int(b.dropFirst(bPrefix.count))
    {
        return aNumber < bNumber
    }
    return a < b
}

/// `path` with every symbolic link and `..` resolved (realpath(3)): /dev/input/by-id/…-event-if00
/// gives /dev/input/event3. Nil when it does not resolve (no such file).
public func canonicalPath(_ path: String) -> String? {
    guard let resolved = systemRealpath(path) else { return nil }
    defer { systemFree(resolved) }
    return String(cString: resolved)
}

/// Where `path` lies with every symbolic link and `..` resolved, as `canonicalPath`, also when
/// it does not exist (yet): its deepest folder that does, resolved, with the rest of its names
/// after it (`..` taking one off). A link whose target is missing is followed all the same, so a
/// dangling link lies where its target would. Nil when not even that resolves (a relative path
/// in a working folder that was removed, links in a loop).
public func resolvedLocation(_ path: String) -> String? {
    resolvedLocation(path, links: 0)
}

private func resolvedLocation(_ path: String, links: Int) -> String? {
    if let resolved = canonicalPath(path) { return resolved }
    guard links < 40 else { return nil }
    var head = path.split(separator: "/").map(String.init)
    var rest: [String] = []
    while let last = head.popLast() {
        rest.insert(last, at: 0)
        let folder = (path.hasPrefix("/") ? "/" : "") + head.joined(separator: "/")
        guard let resolved = canonicalPath(folder.isEmpty ? "." : folder) else { continue }
        let base = resolved == "/" ? "" : resolved
        // The first name below it is missing, or a link whose target is: follow the link.
        if let target = symbolicLinkContents(atPath: base + "/" + rest[0]) {
            let below = rest.dropFirst().map { "/" + $0 }.joined()
            return resolvedLocation((target.hasPrefix("/") ? target : base + "/" + target) + below, links: links + 1)
        }
        var names = base.split(separator: "/").map(String.init)
        for name in rest where name != "." {
            if name == ".." {
                _ = names.popLast()
            } else {
                names.append(name)
            }
        }
        return "/" + names.joined(separator: "/")
    }
    return nil
}

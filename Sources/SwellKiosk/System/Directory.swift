#if canImport(Glibc)
    import Glibc
#endif

/// The names in a directory (without "." and ".."), sorted naturally so card2 comes before card10;
/// empty when it cannot be read.
func directoryEntries(_ path: String) -> [String] {
    guard let directory = opendir(path) else { return [] }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
            String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
        if name != "." && name != ".." { names.append(name) }
    }
    return names.sorted(by: naturalOrder)
}

/// The first line of a small text file (a sysfs attribute), without its newline; nil if it
/// cannot be read.
func firstLine(ofFile path: String) -> String? {
    guard let file = fopen(path, "r") else { return nil }
    defer { fclose(file) }
    var line = [CChar](repeating: 0, count: 256)
    guard fgets(&line, Int32(line.count), file) != nil else { return nil }
    let text = String(decoding: line.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return text.hasSuffix("\n") ? String(text.dropLast()) : text
}

/// "card2" < "card10": compares the trailing numbers as numbers when the prefixes agree.
func naturalOrder(_ a: String, _ b: String) -> Bool {
    let aPrefix = a.prefix(while: { !$0.isNumber })
    let bPrefix = b.prefix(while: { !$0.isNumber })
    if aPrefix == bPrefix, let aNumber = Int(a.dropFirst(aPrefix.count)), let bNumber = Int(b.dropFirst(bPrefix.count))
    {
        return aNumber < bNumber
    }
    return a < b
}

/// Writes one line to standard error at once (diagnostics must not be lost on a crash).
public func kioskWarn(_ message: String) {
    var bytes = Array(("swell: " + message + "\n").utf8)
    _ = write(2, &bytes, bytes.count)
    // The same line is what `systemctl status` shows as the kiosk's state.
    ServiceNotifier.current?.status(message)
}

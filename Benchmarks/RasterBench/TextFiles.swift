import Glibc

/// Plain file I/O on Glibc (the bench keeps Foundation out of everything but the interim loader).
struct FileError: Error, CustomStringConvertible {
    var description: String
}

func readTextFile(_ path: String) throws(FileError) -> String {
    guard let file = fopen(path, "rb") else {
        throw FileError(description: "cannot open \(path): \(String(cString: strerror(errno)))")
    }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let got = fread(&chunk, 1, chunk.count, file)
        if got == 0 { break }
        bytes.append(contentsOf: chunk[0..<got])
    }
    if ferror(file) != 0 { throw FileError(description: "cannot read \(path)") }
    return String(decoding: bytes, as: UTF8.self)
}

func writeTextFile(_ path: String, _ text: String) throws(FileError) {
    guard let file = fopen(path, "wb") else {
        throw FileError(description: "cannot create \(path): \(String(cString: strerror(errno)))")
    }
    let bytes = Array(text.utf8)
    let written = fwrite(bytes, 1, bytes.count, file)
    if fclose(file) != 0 || written != bytes.count { throw FileError(description: "cannot write \(path)") }
}

/// The `*.json` files directly inside `directory`, sorted by list name ("waves" before "waves-4k").
func jsonFiles(in directory: String) throws(FileError) -> [String] {
    guard let stream = opendir(directory) else {
        throw FileError(description: "cannot list \(directory): \(String(cString: strerror(errno)))")
    }
    defer { closedir(stream) }
    var names: [String] = []
    while let entry = readdir(stream) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
            String(cString: raw.baseAddress!.assumingMemoryBound(to: CChar.self))
        }
        if name.hasSuffix(".json") && !name.hasPrefix(".") { names.append(name) }
    }
    let base = directory.hasSuffix("/") ? directory : directory + "/"
    return names.sorted { listName(ofPath: $0) < listName(ofPath: $1) }.map { base + $0 }
}

/// "dir/waves-4k.json" → "waves-4k".
func listName(ofPath path: String) -> String {
    let file = path.split(separator: "/").last.map(String.init) ?? path
    return file.hasSuffix(".json") ? String(file.dropLast(5)) : file
}

/// Progress and errors go to standard error, so stdout carries only the report.
func printError(_ message: String) {
    writeAll(2, message + "\n")
}

/// The report on standard output, written at once (not held in a buffer until exit, which
/// would put it after later messages on stderr).
func printOutput(_ text: String) {
    writeAll(1, text + "\n")
}

private func writeAll(_ descriptor: Int32, _ text: String) {
    let bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
        if written <= 0 { return }
        offset += written
    }
}

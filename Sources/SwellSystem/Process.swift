#if canImport(Glibc)
    import Glibc
#endif

/// This process's id (getpid(2)).
public func currentProcessID() -> Int32 { systemGetpid() }

/// The number of online CPU cores (at least 1).
public func onlineProcessorCount() -> Int { max(1, systemOnlineProcessors()) }

/// The process's environment as a dictionary.
public func processEnvironment() -> [String: String] {
    var result: [String: String] = [:]
    guard var entry = systemEnvironment() else { return result }
    while let pointer = entry.pointee {
        let pair = String(cString: pointer)
        if let equals = pair.firstIndex(of: "=") {
            result[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
        }
        entry += 1
    }
    return result
}

/// Writes `text` to standard error at once, unbuffered (so it is never lost on exit); failures
/// are ignored (there is nowhere left to report them).
public func writeToStandardError(_ text: String) {
    try? FileDescriptor.standardError.writeAll(Array(text.utf8))
}

import SwellSystem

/// Writes `bytes` to `path` so that the file either appears complete or not at all (SwellSystem's
/// `writeFileAtomically(_:toPath:)`: a hidden temporary file in the same folder, flushed, then
/// renamed over `path`), with the path in the error.
public func writeFileAtomically(_ bytes: UnsafeRawBufferPointer, to path: String) throws(OutputError) {
    do {
        try writeFileAtomically(bytes, toPath: path)
    } catch {
        throw OutputError(path: path, reason: error.description)
    }
}

/// Writes a byte array atomically (see `writeFileAtomically(_:to:)`).
public func writeFileAtomically(_ bytes: [UInt8], to path: String) throws(OutputError) {
    let result: Result<Void, OutputError> = bytes.withUnsafeBytes { buffer in
        Result { () throws(OutputError) in try writeFileAtomically(buffer, to: path) }
    }
    try result.get()
}

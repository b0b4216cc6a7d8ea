import SwellRaster
import SwellSystem

/// The picture formats `swell show` and the slideshow read, told apart by file name.
public enum PictureFormat: Sendable {
    case png
    case jpeg

    /// .png, or .jpg/.jpeg (any case); nil for anything else.
    public init?(fileName: String) {
        let name = fileName.lowercased()
        if name.hasSuffix(".png") {
            self = .png
        } else if name.hasSuffix(".jpg") || name.hasSuffix(".jpeg") {
            self = .jpeg
        } else {
            return nil
        }
    }
}

/// Reads only the header of a PNG or JPEG (by its name) and returns the size it is shown at:
/// a cheap check that the file is a picture Swell can show.
public func readPictureSize(path: String) throws(OutputError) -> (width: Int, height: Int) {
    switch PictureFormat(fileName: path) {
    case .png: try readPNGSize(path: path)
    case .jpeg: try readJPEGSize(path: path)
    case nil: throw OutputError(path: path, reason: "not a picture Swell reads: name it .png, .jpg or .jpeg")
    }
}

/// Decodes a PNG or JPEG (by its name) into an XRGB8888 buffer, upright. With `covering`, a
/// picture much larger than that size may come back reduced, never below it (see `readPNG`,
/// `readJPEG`).
public func readPicture(path: String, covering: (width: Int, height: Int)? = nil) throws(OutputError) -> PixelBuffer {
    switch PictureFormat(fileName: path) {
    case .png: try readPNG(path: path, covering: covering)
    case .jpeg: try readJPEG(path: path, covering: covering)
    case nil: throw OutputError(path: path, reason: "not a picture Swell reads: name it .png, .jpg or .jpeg")
    }
}

/// Why a picture's header could not be read: the file is missing or unreadable (exit status 66),
/// or it is not a `format` file the decoder accepts, with the decoder's `reason`.
func unreadablePicture(path: String, format: String, reason: String) -> OutputError {
    let error = readError(path)
    return OutputError(
        path: path,
        reason: error.map { "cannot read: \($0.message)" } ?? "not a readable \(format): \(reason)",
        isMissingInput: error != nil)
}

/// Throws unless both sides are 1...16384 (a 1 GiB buffer), so a damaged or hostile header
/// cannot ask for any size.
func checkPictureSides(_ width: Int, _ height: Int, path: String) throws(OutputError) {
    guard (1...16384).contains(width), (1...16384).contains(height) else {
        throw OutputError(path: path, reason: "image is \(width)x\(height); sides must be 1...16384")
    }
}

/// A C library's fixed-size, NUL-terminated message buffer (a tuple of CChar) as a String.
func messageString<Buffer>(_ buffer: Buffer) -> String {
    var copy = buffer
    return withUnsafeBytes(of: &copy) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
}

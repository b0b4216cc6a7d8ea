import SwellRaster

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

/// Decodes a PNG or JPEG (by its name) into an XRGB8888 buffer, upright. With `covering`, a JPEG
/// much larger than that size may come back reduced, never below it (see `readJPEG`).
public func readPicture(path: String, covering: (width: Int, height: Int)? = nil) throws(OutputError) -> PixelBuffer {
    switch PictureFormat(fileName: path) {
    case .png: try readPNG(path: path)
    case .jpeg: try readJPEG(path: path, covering: covering)
    case nil: throw OutputError(path: path, reason: "not a picture Swell reads: name it .png, .jpg or .jpeg")
    }
}

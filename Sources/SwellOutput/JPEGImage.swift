import CJPEG
import SwellRaster

/// Checks that `path` is a JPEG that `readJPEG` accepts, reading only its header, and returns
/// the size it is shown at (after its EXIF orientation: a portrait photo stored sideways reports
/// its upright size).
public func readJPEGSize(path: String) throws(OutputError) -> (width: Int, height: Int) {
    let image = try jpegHeader(path: path)
    return image.orientation >= 5
        ? (Int(image.height), Int(image.width)) : (Int(image.width), Int(image.height))
}

/// Reads a JPEG (colour or grey; baseline or progressive) into an XRGB8888 buffer, turned upright
/// as its EXIF orientation says (cameras and phones store portrait photos sideways and set it).
/// A file that is cut short or corrupt is an error, not a picture with grey rows.
///
/// With `covering`, a picture that is at least twice as large as that size on both sides (after
/// turning upright) is decoded reduced 2, 4 or 8 times in libjpeg's DCT, as far as it still covers
/// the size: a 12-megapixel photo for a 1080p screen decodes at 2000x1500, in about a third of the
/// time and a quarter of the memory, and the slideshow shrinks that the rest of the way.
public func readJPEG(path: String, covering: (width: Int, height: Int)? = nil) throws(OutputError) -> PixelBuffer {
    var image = try jpegHeader(path: path)
    let storedWidth = Int(image.width)
    let storedHeight = Int(image.height)
    let sideways = image.orientation >= 5
    var denominator = 1
    if let covering {
        let (uprightWidth, uprightHeight) = sideways ? (storedHeight, storedWidth) : (storedWidth, storedHeight)
        for candidate in [8, 4, 2] {
            let reducedWidth = (uprightWidth + candidate - 1) / candidate
            let reducedHeight = (uprightHeight + candidate - 1) / candidate
            if reducedWidth >= covering.width && reducedHeight >= covering.height {
                denominator = candidate
                break
            }
        }
    }
    let width = (storedWidth + denominator - 1) / denominator
    let height = (storedHeight + denominator - 1) / denominator
    let stored = PixelBuffer(width: width, height: height)
    guard
        swell_jpeg_decode(
            path, Int32(denominator), stored.surface.base, stored.stride, Int32(width), Int32(height), &image)
            == 0
    else {
        throw OutputError(path: path, reason: "JPEG decoding failed: \(message(of: image))")
    }
    return upright(stored, orientation: Int(image.orientation))
}

/// The header of `path` (sides checked by `checkPictureSides`).
private func jpegHeader(path: String) throws(OutputError) -> swell_jpeg_image {
    var image = swell_jpeg_image()
    guard swell_jpeg_read_header(path, &image) == 0 else {
        throw unreadablePicture(path: path, format: "JPEG", reason: message(of: image))
    }
    try checkPictureSides(Int(image.width), Int(image.height), path: path)
    return image
}

private func message(of image: swell_jpeg_image) -> String { messageString(image.message) }

/// `stored` turned as EXIF orientation `orientation` (1...8) says: the pixel shown at (x, y)
/// comes from the stored one given by the tag's meaning (2 mirrored, 3 turned 180°, 4 flipped,
/// 5 transposed, 6 to be turned 90° clockwise, 7 transversed, 8 to be turned 90° anticlockwise).
func upright(_ stored: PixelBuffer, orientation: Int) -> PixelBuffer {
    guard (2...8).contains(orientation) else { return stored }
    let w = stored.width
    let h = stored.height
    // The stored (column, row) of shown (x, y) is (column0 + x·dcx + y·dcy, row0 + x·drx + y·dry).
    let (column0, dcx, dcy, row0, drx, dry): (Int, Int, Int, Int, Int, Int) =
        switch orientation {
        case 2: (w - 1, -1, 0, 0, 0, 1)
        case 3: (w - 1, -1, 0, h - 1, 0, -1)
        case 4: (0, 1, 0, h - 1, 0, -1)
        case 5: (0, 0, 1, 0, 1, 0)
        case 6: (0, 0, 1, h - 1, -1, 0)
        case 7: (w - 1, 0, -1, h - 1, -1, 0)
        default: (w - 1, 0, -1, 0, 1, 0)
        }
    let shown = orientation >= 5 ? PixelBuffer(width: h, height: w) : PixelBuffer(width: w, height: h)
    let words = stored.stride / 4
    let base = stored.surface.base.assumingMemoryBound(to: UInt32.self)
    let step = drx * words + dcx
    for y in 0..<shown.height {
        let row = shown.surface.row(y)
        var index = (row0 + y * dry) * words + column0 + y * dcy
        for x in 0..<shown.width {
            row[x] = base[index]
            index += step
        }
    }
    return shown
}

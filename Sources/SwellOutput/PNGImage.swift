import CPNG
import SwellRaster

#if canImport(Glibc)
    import Glibc
#endif

// PNG through libpng's simplified API (png_image_*), which reports errors in the struct
// instead of longjmp-ing through Swift frames.

/// Writes the surface as an 8-bit RGB PNG (the X byte is dropped). Atomic.
public func writePNG(_ surface: PixelSurface, to path: String) throws(OutputError) {
    try writeFileAtomically(try encodePNG(surface, path: path), to: path)
}

/// Encodes the surface as an 8-bit RGB PNG in memory. `path` only names the image in errors.
public func encodePNG(_ surface: PixelSurface, path: String = "image") throws(OutputError) -> [UInt8] {
    // libpng wants tightly packed RGB rows; the XRGB→RGB repack happens once per written image.
    let width = surface.width
    let height = surface.height
    var rgb = [UInt8](repeating: 0, count: width * height * 3)
    rgb.withUnsafeMutableBufferPointer { out in
        for y in 0..<height {
            let row = surface.row(y)
            var o = y * width * 3
            for x in 0..<width {
                let p = row[x]
                out[o] = UInt8(truncatingIfNeeded: p >> 16)
                out[o + 1] = UInt8(truncatingIfNeeded: p >> 8)
                out[o + 2] = UInt8(truncatingIfNeeded: p)
                o += 3
            }
        }
    }
    var image = png_image()
    image.version = png_uint_32(PNG_IMAGE_VERSION)
    image.width = png_uint_32(width)
    image.height = png_uint_32(height)
    image.format = png_uint_32(PNG_FORMAT_RGB)
    var size: png_alloc_size_t = 0
    // First call measures, second writes.
    guard png_image_write_to_memory(&image, nil, &size, 0, rgb, png_int_32(width * 3), nil) != 0 else {
        throw OutputError(path: path, reason: "PNG encoding failed: \(message(of: image))")
    }
    var encoded = [UInt8](repeating: 0, count: Int(size))
    let ok = encoded.withUnsafeMutableBytes { buffer in
        png_image_write_to_memory(&image, buffer.baseAddress, &size, 0, rgb, png_int_32(width * 3), nil)
    }
    guard ok != 0 else { throw OutputError(path: path, reason: "PNG encoding failed: \(message(of: image))") }
    png_image_free(&image)
    return Array(encoded[0..<Int(size)])
}

/// Checks that `path` is a PNG that `readPNG` accepts, reading only its header (no pixels), and
/// returns its size: a slideshow checks a whole folder this way at start-up and decodes each
/// picture only when it is about to be shown.
public func readPNGSize(path: String) throws(OutputError) -> (width: Int, height: Int) {
    try withPNGHeader(path: path) { image throws(OutputError) in (Int(image.pointee.width), Int(image.pointee.height)) }
}

/// Reads any PNG (grey, palette, RGB, with or without alpha, 8 or 16 bits) into an XRGB8888
/// buffer; transparent pixels are composited over black.
public func readPNG(path: String) throws(OutputError) -> PixelBuffer {
    let buffer = try withPNGHeader(path: path) { image throws(OutputError) in
        image.pointee.format = png_uint_32(PNG_FORMAT_BGRA)
        let buffer = PixelBuffer(width: Int(image.pointee.width), height: Int(image.pointee.height))
        guard png_image_finish_read(image, nil, buffer.surface.base, png_int_32(buffer.stride), nil) != 0 else {
            throw OutputError(path: path, reason: "PNG decoding failed: \(message(of: image.pointee))")
        }
        return buffer
    }
    // BGRA in memory is 0xAARRGGBB: composite over black and set X to 0xFF.
    for y in 0..<buffer.height {
        let row = buffer.surface.row(y)
        for x in 0..<buffer.width {
            let p = row[x]
            let a = p >> 24
            if a == 255 {
                row[x] = p
                continue
            }
            func scaled(_ c: UInt32) -> UInt32 { (c * a + 127) / 255 }
            row[x] = 0xFF00_0000 | scaled((p >> 16) & 0xFF) << 16 | scaled((p >> 8) & 0xFF) << 8 | scaled(p & 0xFF)
        }
    }
    return buffer
}

/// Opens `path`, reads its PNG header and runs `body` with the image, then frees it (sides
/// checked by `checkPictureSides`).
/// The `png_image` lives on the heap: libpng keeps its address for error reports (a longjmp out
/// of a failed read), so it must not move between the calls, as a copy or a Swift local may.
private func withPNGHeader<Result>(
    path: String, _ body: (UnsafeMutablePointer<png_image>) throws(OutputError) -> Result
) throws(OutputError) -> Result {
    let image = UnsafeMutablePointer<png_image>.allocate(capacity: 1)
    image.initialize(to: png_image())
    defer { image.deallocate() }
    image.pointee.version = png_uint_32(PNG_IMAGE_VERSION)
    guard png_image_begin_read_from_file(image, path) != 0 else {
        throw unreadablePicture(path: path, format: "PNG", reason: message(of: image.pointee))
    }
    defer { png_image_free(image) }
    try checkPictureSides(Int(image.pointee.width), Int(image.pointee.height), path: path)
    return try body(image)
}

private func message(of image: png_image) -> String { messageString(image.message) }

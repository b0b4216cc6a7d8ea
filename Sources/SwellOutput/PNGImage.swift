import CPNG
import CPNGRows
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
/// `fast`: zlib's fastest setting (libpng's PNG_IMAGE_FLAG_FAST), for pictures made often and
/// kept briefly (the management API's screenshots); the pixels are the same either way.
public func encodePNG(_ surface: PixelSurface, path: String = "image", fast: Bool = false) throws(OutputError)
    -> [UInt8]
{
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
    if fast { image.flags = png_uint_32(PNG_IMAGE_FLAG_FAST) }
    // One pass into a buffer of the largest size the PNG can have (png.h's PNG_IMAGE_PNG_SIZE_MAX,
    // a macro Swift cannot call): zlib's bound on the filtered rows, the chunks' framing.
    let filtered = width * height * 3 + height
    let compressed = filtered + (filtered + 7) >> 3 + (filtered + 63) >> 6 + 11
    var size = png_alloc_size_t(8 + 25 + 16 + 44 + 12 + 12 + 12 * (compressed / 8192 + 1) + compressed)
    var encoded = [UInt8](repeating: 0, count: Int(size))
    let ok = encoded.withUnsafeMutableBytes { buffer in
        png_image_write_to_memory(&image, buffer.baseAddress, &size, 0, rgb, png_int_32(width * 3), nil)
    }
    guard ok != 0 else { throw OutputError(path: path, reason: "PNG encoding failed: \(message(of: image))") }
    png_image_free(&image)
    encoded.removeLast(encoded.count - Int(size))
    return encoded
}

/// Checks that `path` is a PNG that `readPNG` accepts, reading only its header (no pixels), and
/// returns its size: a slideshow checks a whole folder this way at start-up and decodes each
/// picture only when it is about to be shown.
public func readPNGSize(path: String) throws(OutputError) -> (width: Int, height: Int) {
    try withPNGHeader(path: path) { image throws(OutputError) in (Int(image.pointee.width), Int(image.pointee.height)) }
}

/// Reads any PNG (grey, palette, RGB, with or without alpha, 8 or 16 bits) into an XRGB8888
/// buffer; transparent pixels are composited over black.
///
/// With `covering`, a PNG at least twice as large as that size on both sides is read a row at a
/// time and shrunk as it is read by the largest whole factor that still covers the size (each
/// pixel the mean of a factor x factor box), so it never takes more memory than the shrunk
/// picture and a row: a 16384x16384 PNG for a 1080p screen decodes into 16 MB (2048x2048) instead
/// of 1 GiB; an 8K one (7680x4320) into 8 MB, the slideshow's peak RSS 44 MB instead of 166 MB,
/// its first frame 0.34 s instead of 0.37 s (inflating dominates). (Only
/// files libpng's simplified API would read without colour conversion: 8 bits, not interlaced,
/// sRGB gamma; the others, and smaller ones, are decoded whole.)
public func readPNG(path: String, covering: (width: Int, height: Int)? = nil) throws(OutputError) -> PixelBuffer {
    if let covering, let reduced = try readPNGReduced(path: path, covering: covering) { return reduced }
    return try readWholePNG(path: path)
}

/// The PNG shrunk as it is read (see `readPNG`), or nil when it is not worth it or the file is
/// one to decode whole (its errors are then reported by the whole decode).
private func readPNGReduced(path: String, covering: (width: Int, height: Int)) throws(OutputError) -> PixelBuffer? {
    var info = swell_png_rows_info()
    guard swell_png_rows_header(path, &info) == 0, info.reducible != 0 else { return nil }
    let width = Int(info.width)
    let height = Int(info.height)
    try checkPictureSides(width, height, path: path)
    let factor = min(width / max(1, covering.width), height / max(1, covering.height))
    guard factor >= 2 else { return nil }
    let reduced = PixelBuffer(width: (width + factor - 1) / factor, height: (height + factor - 1) / factor)
    guard
        swell_png_rows_decode_reduced(
            path, Int32(factor), reduced.surface.base, reduced.stride, Int32(reduced.width), Int32(reduced.height),
            &info) == 0
    else {
        throw OutputError(path: path, reason: "PNG decoding failed: \(messageString(info.message))")
    }
    return reduced
}

private func readWholePNG(path: String) throws(OutputError) -> PixelBuffer {
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

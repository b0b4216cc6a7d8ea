import CCairo
import SwellRaster

/// Writes an XRGB8888 surface as a PNG through Cairo's PNG writer (for looking at what the
/// renderers drew; `--save-images DIR`).
func savePNG(_ surface: PixelSurface, to path: String) throws(FileError) {
    guard surface.stride == Int(cairo_format_stride_for_width(CAIRO_FORMAT_RGB24, Int32(surface.width))),
        let image = cairo_image_surface_create_for_data(
            surface.base.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_RGB24, Int32(surface.width),
            Int32(surface.height), Int32(surface.stride))
    else { throw FileError(description: "cannot wrap a \(surface.width)x\(surface.height) surface for PNG output") }
    defer { cairo_surface_destroy(image) }
    let status = cairo_surface_write_to_png(image, path)
    guard status == CAIRO_STATUS_SUCCESS else {
        throw FileError(description: "cannot write \(path): \(String(cString: cairo_status_to_string(status)))")
    }
}

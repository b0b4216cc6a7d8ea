// JPEG files through libjpeg(-turbo), for the slideshow's photographs. libjpeg reports errors by
// calling a function that must not return (the default one exits the process); Swift cannot
// longjmp, so these wrappers own the setjmp and turn every error into -1 and a message.
// Strict: libjpeg's warnings about corrupt data (a file cut short, as one still being copied)
// are errors here too, where libjpeg would fill the missing rows with grey and succeed.
#ifndef SWELL_CJPEG_H
#define SWELL_CJPEG_H

#include <stddef.h>

typedef struct {
    int width;
    int height;
    /// The EXIF orientation (1...8, how the stored picture must be turned to be upright), 1 if
    /// the file has none or an unreadable one.
    int orientation;
    /// Why a call failed, NUL-terminated.
    char message[200];
} swell_jpeg_image;

/// Reads the header of the JPEG file at `path`: size as stored and EXIF orientation.
/// Returns 0, or -1 with `image->message` set.
int swell_jpeg_read_header(const char *path, swell_jpeg_image *image);

/// Decodes the JPEG at `path` reduced 1, 2, 4 or 8 times (`denominator`: libjpeg scales in the
/// DCT, far cheaper than decoding whole and shrinking) into `pixels`: `height` rows `stride` bytes
/// apart, each pixel B, G, R, 255 (grey pictures too). `width` x `height` must be the reduced size,
/// ceil(stored / denominator) per side, and `image` hold what `swell_jpeg_read_header` gave; a file
/// whose size changed in between fails. Returns 0, or -1 with a message.
int swell_jpeg_decode(const char *path, int denominator, void *pixels, size_t stride, int width, int height,
                      swell_jpeg_image *image);

/// Writes B, G, R, X pixels as a baseline JPEG of `quality` (1...100) with an EXIF orientation
/// tag if `orientation` is 1...8 (0: no EXIF). For tests and tools. Returns 0, or -1 with a
/// message in `status`.
int swell_jpeg_write(const char *path, const void *pixels, size_t stride, int width, int height, int quality,
                     int orientation, swell_jpeg_image *status);

#endif

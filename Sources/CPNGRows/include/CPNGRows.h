// PNG files read a row at a time through libpng's classic API, for pictures far larger than the
// screen: the slideshow needs them shrunk, and decoding them whole first can take more memory
// than a kiosk has (a 10000x7000 poster is 280 MB of pixels). libpng reports errors by longjmp,
// which Swift cannot take, so the setjmp lives here and every error becomes -1 and a message.
#ifndef SWELL_CPNGROWS_H
#define SWELL_CPNGROWS_H

#include <stddef.h>

typedef struct {
    int width;
    int height;
    /// 1 when the reduced decoder reads this file the way libpng's simplified API (readPNG) does:
    /// 8 bits per channel, not interlaced, and no gamma other than sRGB's. Other files are
    /// decoded whole.
    int reducible;
    /// Why a call failed, NUL-terminated.
    char message[200];
} swell_png_rows_info;

/// Reads the header of the PNG at `path`. Returns 0, or -1 with `info->message` set.
int swell_png_rows_header(const char *path, swell_png_rows_info *info);

/// Decodes the PNG at `path` (which must be `reducible`, with the size `info` holds) shrunk
/// `factor` times per side into `pixels` (`height` rows `stride` bytes apart, `width` x `height` =
/// ceil(size / factor)): each output pixel is the rounded mean of a factor x factor box of source
/// pixels (fewer at the right and bottom edges), each composited over black first (X = 255), as
/// readPNG composites them. Memory: the output and one row. Returns 0, or -1 with a message.
int swell_png_rows_decode_reduced(const char *path, int factor, void *pixels, size_t stride, int width, int height,
                                  swell_png_rows_info *info);

#endif

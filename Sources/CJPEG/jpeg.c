#include "CJPEG.h"

#include <errno.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

#include <jpeglib.h>

// MARK: errors

struct strict_errors {
    struct jpeg_error_mgr base;
    jmp_buf jump;
    char *message;
};

static void fail(j_common_ptr info) {
    struct strict_errors *errors = (struct strict_errors *)info->err;
    char text[JMSG_LENGTH_MAX];
    (*info->err->format_message)(info, text);
    snprintf(errors->message, sizeof ((swell_jpeg_image *)0)->message, "%s", text);
    longjmp(errors->jump, 1);
}

// Level -1 is a warning about corrupt data (e.g. "Premature end of JPEG file"): fatal here.
// Higher levels are trace messages: ignored.
static void message(j_common_ptr info, int level) {
    if (level < 0) fail(info);
}

static void use_strict_errors(struct strict_errors *errors, char *message_buffer) {
    jpeg_std_error(&errors->base);
    errors->base.error_exit = fail;
    errors->base.emit_message = message;
    errors->message = message_buffer;
    message_buffer[0] = 0;
}

// MARK: EXIF orientation

static unsigned read16(const unsigned char *p, int big) { return big ? (p[0] << 8 | p[1]) : (p[1] << 8 | p[0]); }

static unsigned long read32(const unsigned char *p, int big) {
    return big ? ((unsigned long)p[0] << 24 | (unsigned long)p[1] << 16 | (unsigned long)p[2] << 8 | p[3])
               : ((unsigned long)p[3] << 24 | (unsigned long)p[2] << 16 | (unsigned long)p[1] << 8 | p[0]);
}

// Tag 0x0112 (a SHORT) of IFD0 in an APP1 "Exif\0\0" segment; 1 when absent or malformed.
static int exif_orientation(const unsigned char *data, unsigned length) {
    if (length < 14 || memcmp(data, "Exif\0\0", 6) != 0) return 1;
    const unsigned char *tiff = data + 6;
    unsigned long size = length - 6;
    int big;
    if (tiff[0] == 'M' && tiff[1] == 'M') big = 1;
    else if (tiff[0] == 'I' && tiff[1] == 'I') big = 0;
    else return 1;
    if (read16(tiff + 2, big) != 42) return 1;
    unsigned long ifd = read32(tiff + 4, big);
    if (ifd > size - 2) return 1;
    unsigned count = read16(tiff + ifd, big);
    for (unsigned i = 0; i < count; i++) {
        unsigned long entry = ifd + 2 + 12ul * i;
        if (entry + 12 > size) return 1;
        if (read16(tiff + entry, big) == 0x0112 && read16(tiff + entry + 2, big) == 3) {
            unsigned value = read16(tiff + entry + 8, big);
            return value >= 1 && value <= 8 ? (int)value : 1;
        }
    }
    return 1;
}

// MARK: reading

// Opens `path` and reads its header (keeping APP1 for the orientation). On failure returns -1
// with the message set and nothing left open.
static int begin(const char *path, struct jpeg_decompress_struct *info, struct strict_errors *errors, FILE **file,
                 swell_jpeg_image *image) {
    use_strict_errors(errors, image->message);
    *file = fopen(path, "rb");
    if (!*file) {
        snprintf(image->message, sizeof image->message, "cannot open: %s", strerror(errno));
        return -1;
    }
    info->err = &errors->base;
    jpeg_create_decompress(info);
    jpeg_stdio_src(info, *file);
    jpeg_save_markers(info, JPEG_APP0 + 1, 0xFFFF);
    jpeg_read_header(info, TRUE);
    image->orientation = 1;
    for (jpeg_saved_marker_ptr marker = info->marker_list; marker; marker = marker->next) {
        if (marker->marker == JPEG_APP0 + 1) {
            image->orientation = exif_orientation(marker->data, marker->data_length);
            if (image->orientation != 1) break;
        }
    }
    return 0;
}

// Each entry point repeats its setjmp block: setjmp cannot move into a helper, whose frame would
// be gone when libjpeg longjmps to it.
int swell_jpeg_read_header(const char *path, swell_jpeg_image *image) {
    struct jpeg_decompress_struct info;
    struct strict_errors errors;
    FILE *volatile file = NULL;
    if (setjmp(errors.jump)) {
        jpeg_destroy_decompress(&info);
        if (file) fclose(file);
        return -1;
    }
    if (begin(path, &info, &errors, (FILE **)&file, image) != 0) return -1;
    image->width = (int)info.image_width;
    image->height = (int)info.image_height;
    jpeg_destroy_decompress(&info);
    fclose(file);
    return 0;
}

int swell_jpeg_decode(const char *path, int denominator, void *pixels, size_t stride, int width, int height,
                      swell_jpeg_image *image) {
    struct jpeg_decompress_struct info;
    struct strict_errors errors;
    FILE *volatile file = NULL;
    if (setjmp(errors.jump)) {
        jpeg_destroy_decompress(&info);
        if (file) fclose(file);
        return -1;
    }
    if (begin(path, &info, &errors, (FILE **)&file, image) != 0) return -1;
    if ((int)info.image_width != image->width || (int)info.image_height != image->height) {
        snprintf(image->message, sizeof image->message, "changed size while being read");
        jpeg_destroy_decompress(&info);
        fclose(file);
        return -1;
    }
    info.out_color_space = JCS_EXT_BGRA;  // libjpeg-turbo: B, G, R and an alpha of 255
    info.scale_num = 1;
    info.scale_denom = (unsigned)denominator;
    jpeg_calc_output_dimensions(&info);
    if ((int)info.output_width != width || (int)info.output_height != height) {
        snprintf(image->message, sizeof image->message, "reduced by %d to %ux%u, not %dx%d", denominator,
                 info.output_width, info.output_height, width, height);
        jpeg_destroy_decompress(&info);
        fclose(file);
        return -1;
    }
    jpeg_start_decompress(&info);
    while (info.output_scanline < info.output_height) {
        JSAMPROW row = (JSAMPROW)((unsigned char *)pixels + (size_t)info.output_scanline * stride);
        jpeg_read_scanlines(&info, &row, 1);
    }
    jpeg_finish_decompress(&info);
    jpeg_destroy_decompress(&info);
    fclose(file);
    return 0;
}

// MARK: writing

int swell_jpeg_write(const char *path, const void *pixels, size_t stride, int width, int height, int quality,
                     int orientation, swell_jpeg_image *status) {
    struct jpeg_compress_struct info;
    struct strict_errors errors;
    FILE *volatile file = NULL;
    use_strict_errors(&errors, status->message);
    if (setjmp(errors.jump)) {
        jpeg_destroy_compress(&info);
        if (file) fclose(file);
        return -1;
    }
    info.err = &errors.base;
    jpeg_create_compress(&info);
    file = fopen(path, "wb");
    if (!file) {
        snprintf(status->message, sizeof status->message, "cannot create: %s", strerror(errno));
        jpeg_destroy_compress(&info);
        return -1;
    }
    jpeg_stdio_dest(&info, file);
    info.image_width = (JDIMENSION)width;
    info.image_height = (JDIMENSION)height;
    info.input_components = 4;
    info.in_color_space = JCS_EXT_BGRX;
    jpeg_set_defaults(&info);
    jpeg_set_quality(&info, quality, TRUE);
    jpeg_start_compress(&info, TRUE);
    if (orientation >= 1 && orientation <= 8) {
        // "Exif\0\0", a big-endian TIFF header, IFD0 with the one orientation entry, no next IFD.
        const unsigned char exif[] = {'E', 'x', 'i', 'f', 0, 0, 'M', 'M', 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3,
                                      0, 0, 0, 1, 0, (unsigned char)orientation, 0, 0, 0, 0, 0, 0};
        jpeg_write_marker(&info, JPEG_APP0 + 1, exif, sizeof exif);
    }
    while (info.next_scanline < info.image_height) {
        JSAMPROW row = (JSAMPROW)((const unsigned char *)pixels + (size_t)info.next_scanline * stride);
        jpeg_write_scanlines(&info, &row, 1);
    }
    jpeg_finish_compress(&info);
    jpeg_destroy_compress(&info);
    if (fclose(file) != 0) {
        snprintf(status->message, sizeof status->message, "cannot write: %s", strerror(errno));
        return -1;
    }
    return 0;
}

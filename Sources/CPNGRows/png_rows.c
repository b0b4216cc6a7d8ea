#include "CPNGRows.h"

#include <errno.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <png.h>

// MARK: errors

struct failure {
    jmp_buf jump;
    char *message;
};

static void fail(png_structp png, png_const_charp text) {
    struct failure *failure = (struct failure *)png_get_error_ptr(png);
    snprintf(failure->message, sizeof ((swell_png_rows_info *)0)->message, "%s", text);
    longjmp(failure->jump, 1);
}

// Warnings (a bad ancillary chunk, say) do not stop a picture that decodes.
static void warn(png_structp png, png_const_charp text) {
    (void)png;
    (void)text;
}

// MARK: reading

// Opens `path` and reads its header into `info`; -1 with the message set when the file cannot be
// opened (libpng's own failures longjmp to the caller's setjmp).
static int begin(const char *path, png_structp *png, png_infop *header, struct failure *failure, FILE **file,
                 swell_png_rows_info *info) {
    failure->message = info->message;
    info->message[0] = 0;
    *file = fopen(path, "rb");
    if (!*file) {
        snprintf(info->message, sizeof info->message, "cannot open: %s", strerror(errno));
        return -1;
    }
    *png = png_create_read_struct(PNG_LIBPNG_VER_STRING, failure, fail, warn);
    *header = *png ? png_create_info_struct(*png) : NULL;
    if (!*png || !*header) {
        snprintf(info->message, sizeof info->message, "out of memory");
        return -1;
    }
    return 0;
}

static void read_header(png_structp png, png_infop header, FILE *file, swell_png_rows_info *info) {
    png_init_io(png, file);
    png_read_info(png, header);
    info->width = (int)png_get_image_width(png, header);
    info->height = (int)png_get_image_height(png, header);
    int gamma_ok = 1;
    png_fixed_point gamma = 0;
    // The simplified API converts 8-bit data whose gamma is not sRGB's (1/2.2 within 5 %, as
    // libpng's png_gamma_not_sRGB judges it); such files are left to it.
    if (png_get_valid(png, header, PNG_INFO_gAMA) && !png_get_valid(png, header, PNG_INFO_sRGB) &&
        png_get_gAMA_fixed(png, header, &gamma) && gamma != 0) {
        long times_2_2 = ((long)gamma * 11 + 2) / 5;
        gamma_ok = times_2_2 >= PNG_FP_1 - 5000 && times_2_2 <= PNG_FP_1 + 5000;
    }
    info->reducible = png_get_bit_depth(png, header) <= 8 &&
                      png_get_interlace_type(png, header) == PNG_INTERLACE_NONE && gamma_ok;
}

static void finish(png_structp *png, png_infop *header, FILE *file) {
    png_destroy_read_struct(png, header, NULL);
    if (file) fclose(file);
}

// Each entry point repeats its setjmp block: setjmp cannot move into a helper, whose frame would
// be gone when libpng longjmps to it.
int swell_png_rows_header(const char *path, swell_png_rows_info *info) {
    png_structp png = NULL;
    png_infop header = NULL;
    struct failure failure;
    FILE *volatile file = NULL;
    if (begin(path, &png, &header, &failure, (FILE **)&file, info) != 0) {
        finish(&png, &header, file);
        return -1;
    }
    if (setjmp(failure.jump)) {
        finish(&png, &header, file);
        return -1;
    }
    read_header(png, header, file, info);
    finish(&png, &header, file);
    return 0;
}

int swell_png_rows_decode_reduced(const char *path, int factor, void *pixels, size_t stride, int width, int height,
                                  swell_png_rows_info *info) {
    png_structp png = NULL;
    png_infop header = NULL;
    struct failure failure;
    FILE *volatile file = NULL;
    // Allocated before setjmp and freed on every path: a row of RGBA and a row of box sums.
    unsigned char *volatile row = NULL;
    uint32_t *volatile sums = NULL;
    int expected_width = info->width;
    int expected_height = info->height;
    if (begin(path, &png, &header, &failure, (FILE **)&file, info) != 0) {
        finish(&png, &header, file);
        return -1;
    }
    if (setjmp(failure.jump)) {
        free(row);
        free(sums);
        finish(&png, &header, file);
        return -1;
    }
    read_header(png, header, file, info);
    if (info->width != expected_width || info->height != expected_height || !info->reducible || factor < 1 ||
        width != (info->width + factor - 1) / factor || height != (info->height + factor - 1) / factor) {
        snprintf(info->message, sizeof info->message, "changed while being read (or not reducible)");
        finish(&png, &header, file);
        return -1;
    }
    // Every colour type to 8-bit RGBA: palettes and low-bit grey expanded, transparency as alpha.
    png_set_expand(png);
    png_set_gray_to_rgb(png);
    png_set_add_alpha(png, 0xFF, PNG_FILLER_AFTER);
    png_read_update_info(png, header);
    row = malloc((size_t)info->width * 4);
    sums = calloc((size_t)width * 3, sizeof(uint32_t));
    if (!row || !sums) png_error(png, "out of memory");
    for (int out_y = 0; out_y < height; out_y++) {
        int rows = info->height - out_y * factor < factor ? info->height - out_y * factor : factor;
        memset(sums, 0, (size_t)width * 3 * sizeof(uint32_t));
        for (int r = 0; r < rows; r++) {
            png_read_row(png, row, NULL);
            for (int x = 0; x < info->width; x++) {
                const unsigned char *p = row + 4 * x;
                unsigned a = p[3];
                uint32_t *s = sums + 3 * (x / factor);
                if (a == 255) {
                    s[0] += p[0];
                    s[1] += p[1];
                    s[2] += p[2];
                } else {  // over black, rounded as readPNG does it
                    s[0] += (p[0] * a + 127) / 255;
                    s[1] += (p[1] * a + 127) / 255;
                    s[2] += (p[2] * a + 127) / 255;
                }
            }
        }
        uint32_t *out = (uint32_t *)((unsigned char *)pixels + (size_t)out_y * stride);
        for (int out_x = 0; out_x < width; out_x++) {
            int columns = info->width - out_x * factor < factor ? info->width - out_x * factor : factor;
            uint32_t count = (uint32_t)(columns * rows);
            const uint32_t *s = sums + 3 * out_x;
            uint32_t red = (s[0] + count / 2) / count;
            uint32_t green = (s[1] + count / 2) / count;
            uint32_t blue = (s[2] + count / 2) / count;
            out[out_x] = 0xFF000000u | red << 16 | green << 8 | blue;
        }
    }
    png_read_end(png, NULL);
    free(row);
    free(sums);
    finish(&png, &header, file);
    return 0;
}

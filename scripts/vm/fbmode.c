// fbmode DEVICE BPP VIRTUAL_HEIGHT: sets a framebuffer's depth and virtual height (what
// `fbset -depth N -vyres N` does; Debian's busybox has no fbset). Test helper for the virtual
// kiosk: gives vfb the pixel formats and the second page the emulated display devices lack.
#include <fcntl.h>
#include <linux/fb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: fbmode DEVICE BPP VIRTUAL_HEIGHT\n");
        return 64;
    }
    int fd = open(argv[1], O_RDWR);
    struct fb_var_screeninfo var;
    if (fd < 0 || ioctl(fd, FBIOGET_VSCREENINFO, &var) != 0) {
        perror(argv[1]);
        return 69;
    }
    var.bits_per_pixel = (unsigned)atoi(argv[2]);
    var.xres_virtual = var.xres;
    var.yres_virtual = (unsigned)atoi(argv[3]);
    var.xoffset = var.yoffset = 0;
    // Let the driver choose the channel layout for the depth (vfb: RGB565, XBGR8888).
    memset(&var.red, 0, sizeof var.red);
    memset(&var.green, 0, sizeof var.green);
    memset(&var.blue, 0, sizeof var.blue);
    memset(&var.transp, 0, sizeof var.transp);
    if (ioctl(fd, FBIOPUT_VSCREENINFO, &var) != 0) {
        perror("FBIOPUT_VSCREENINFO");
        return 74;
    }
    printf("%s: %ux%u virtual %ux%u %u bpp\n", argv[1], var.xres, var.yres, var.xres_virtual, var.yres_virtual,
           var.bits_per_pixel);
    return 0;
}

// Typed wrappers for what Swift cannot call itself: ioctl is variadic and the request numbers
// (FBIO*, KD*, EVIOC*) are function-like macros. Signal handlers live here too, because only
// async-signal-safe C belongs in a handler, and mallopt, because <malloc.h> is not in the Glibc
// module. Every function returns 0 on success and -1 on failure (with errno set, like the
// syscall it wraps, where there is one).
#ifndef SWELL_CSYSSHIMS_H
#define SWELL_CSYSSHIMS_H

#include <stddef.h>
#include <stdint.h>
#include <linux/fb.h>
#include <linux/input.h>
#include <sys/eventfd.h>
#include <sys/statvfs.h>

// MARK: fbdev
int swell_fb_get_var(int fd, struct fb_var_screeninfo *info);
int swell_fb_put_var(int fd, struct fb_var_screeninfo *info);
int swell_fb_get_fix(int fd, struct fb_fix_screeninfo *info);
int swell_fb_pan_display(int fd, struct fb_var_screeninfo *info);
/// FBIOBLANK: `powerdown` 1 powers the display down (FB_BLANK_POWERDOWN), 0 unblanks it.
int swell_fb_blank(int fd, int powerdown);
int swell_fb_wait_for_vsync(int fd);
/// FBIO_WAITFORVSYNC bounded by a SIGALRM timer, because some drivers never answer it.
/// Fails with EINTR when the timeout passed.
int swell_fb_wait_for_vsync_timeout(int fd, int timeout_ms);

// MARK: VT console
enum { SWELL_KD_TEXT = 0, SWELL_KD_GRAPHICS = 1 };
int swell_kd_get_mode(int fd, int *mode);
int swell_kd_set_mode(int fd, int mode);

// MARK: evdev
/// EVIOCGBIT(type, length): the capability bits of one event type (type 0: which types exist).
int swell_evdev_get_bits(int fd, unsigned type, void *bits, unsigned length);
/// EVIOCGPROP: INPUT_PROP_* bits (INPUT_PROP_DIRECT marks touch screens).
int swell_evdev_get_props(int fd, void *bits, unsigned length);
/// EVIOCGABS(axis): range and current value of an absolute axis.
int swell_evdev_get_abs(int fd, unsigned axis, struct input_absinfo *info);
/// EVIOCGNAME: the device's name, NUL-terminated.
int swell_evdev_get_name(int fd, char *name, unsigned length);
/// EVIOCGMTSLOTS: current values of one multitouch code for every slot. values[0] is the code.
int swell_evdev_get_mt_slots(int fd, int32_t *values, unsigned count);
size_t swell_input_event_size(void);

// MARK: signals (self-pipe)
/// Installs handlers for SIGINT, SIGTERM and SIGHUP that record the signal and write one byte to
/// a pipe, and ignores SIGPIPE. Returns the pipe's read end (non-blocking), or -1.
int swell_signals_install(void);
/// The last stop signal received (SIGINT/SIGTERM/SIGHUP), or 0.
int swell_signal_received(void);
/// Installs handlers for SIGUSR1 (screen off) and SIGUSR2 (screen on) that record the request
/// and write to the same pipe. Returns 0, or -1.
int swell_screen_signals_install(void);
/// The screen request since the last call, cleared: 1 off (SIGUSR1), 2 on (SIGUSR2), 0 none.
int swell_take_screen_request(void);
/// Reads whatever the handlers wrote to the pipe (it only wakes waiters; the flags carry the news).
void swell_drain_signal_pipe(void);

// MARK: crash restore
/// What to put back if the process dies on a fatal signal (SIGSEGV, SIGBUS, SIGILL, SIGTRAP,
/// SIGABRT, SIGFPE — Swift runtime traps arrive as SIGILL/SIGTRAP): the CRTC configuration that
/// was on screen and the console mode. The handler restores with raw ioctls and re-raises.
/// `mode` points at a drmModeModeInfo (the kernel's struct drm_mode_modeinfo, 68 bytes).
/// Each CRTC has a slot of its own (arming one again replaces it), up to SWELL_CRASH_CRTCS;
/// returns 0, or -1 when every slot is taken.
#define SWELL_CRASH_CRTCS 8
int swell_crash_restore_crtc(int fd, uint32_t crtc_id, uint32_t fb_id, uint32_t x, uint32_t y,
                             uint32_t connector_id, const void *mode, int mode_valid);
/// Disarms one CRTC's slot (its presenter restored it).
void swell_crash_restore_crtc_forget(uint32_t crtc_id);
/// How many CRTC slots are armed (for tests).
int swell_crash_restore_armed_crtcs(void);
void swell_crash_restore_console(int fd, int kd_mode);
void swell_crash_restore_console_forget(void);
/// Disarms everything.
void swell_crash_restore_forget(void);
/// Installs the fatal-signal handler that performs the saved restores.
int swell_crash_restore_install(void);

// MARK: memory
/// Fixes glibc's mmap threshold at `bytes` (mallopt M_MMAP_THRESHOLD), which also stops glibc
/// raising it after large frees: blocks of that size or more are mapped and given back to the
/// system when freed. Returns 0, or -1 if glibc refused.
int swell_fix_mmap_threshold(int bytes);

// MARK: uevents
/// A non-blocking netlink socket bound to the kernel's own uevent multicast group, which any user
/// may read (display hotplug without udev). Returns the fd, or -1 with errno set.
int swell_uevent_socket(void);

// MARK: systemd notification
/// A datagram socket for systemd's notification protocol (close-on-exec). Returns the fd, or -1.
int swell_notify_socket(void);
/// Sends `length` bytes to the AF_UNIX datagram socket at `path` ($NOTIFY_SOCKET: a file path,
/// or "@name" for the abstract namespace), as sd_notify(3) does, without libsystemd. Returns 0,
/// or -1 with errno set (ENAMETOOLONG for a path longer than sun_path, EINVAL for another form).
int swell_notify_send(int fd, const char *path, const void *message, size_t length);

// MARK: wall-clock steps
/// A CLOCK_REALTIME timerfd (non-blocking, close-on-exec), or -1 with errno set.
int swell_realtime_timer(void);
/// Arms `fd` for the absolute time `seconds` with TFD_TIMER_CANCEL_ON_SET: once the clock is set,
/// reading it fails with ECANCELED. Returns timerfd_settime's result. (sys/timerfd.h is not in
/// Swift's Glibc module.)
int swell_realtime_timer_arm_cancel_on_set(int fd, long seconds);

// MARK: build information (build_info.c)
/// The version scripts/build wrote into the binary's .swell_version section (`git describe`
/// style, e.g. "0.1+git307.37123e2"), or "unknown" for a plain `swift build`.
const char *swell_build_version(void);
/// The CPU the C code was compiled for, from the compiler's target macros: "x86-64" (the baseline),
/// "x86-64-v2", "x86-64-v3" (AVX2, FMA), "x86-64-v4" (AVX-512), "aarch64", or "unknown".
const char *swell_cpu_flavour(void);
/// The x86-64 psABI level this CPU and kernel can run (cpu_level.c): 1 (the baseline), 2, 3 (AVX2,
/// FMA: x86-64-v3) or 4 (AVX-512: x86-64-v4); 0 on other architectures.
int swell_x86_cpu_level(void);

// MARK: processors
/// Restricts the calling thread to the `index`-th processor (counted modulo their number) of
/// those it may run on now; returns that processor's number, or -1 (errno set) where the
/// kernel refused (or -1 with errno 0 where there is only one).
int swell_pin_thread_to_allowed(int index);
/// Saves the calling thread's processor mask in `saved` (16 words, 1024 processors) and
/// restricts the thread to its processors but the 1st to `helpers`-th (those
/// swell_pin_thread_to_allowed gives helpers 1...helpers). Returns 1 if it changed the mask, 0
/// if there are too few processors to keep one for the caller, -1 (errno set) on failure.
int swell_keep_off_helpers(int helpers, uint64_t *saved);
/// Gives the calling thread back a mask saved by swell_keep_off_helpers.
int swell_restore_affinity(const uint64_t *saved);

#endif

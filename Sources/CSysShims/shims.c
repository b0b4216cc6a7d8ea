#define _GNU_SOURCE
#include "CSysShims.h"

#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/time.h>
#include <sys/timerfd.h>
#include <linux/kd.h>

int swell_fb_get_var(int fd, struct fb_var_screeninfo *info) { return ioctl(fd, FBIOGET_VSCREENINFO, info); }
int swell_fb_put_var(int fd, struct fb_var_screeninfo *info) { return ioctl(fd, FBIOPUT_VSCREENINFO, info); }
int swell_fb_get_fix(int fd, struct fb_fix_screeninfo *info) { return ioctl(fd, FBIOGET_FSCREENINFO, info); }
int swell_fb_pan_display(int fd, struct fb_var_screeninfo *info) { return ioctl(fd, FBIOPAN_DISPLAY, info); }
int swell_fb_blank(int fd, int powerdown) {
    return ioctl(fd, FBIOBLANK, powerdown ? FB_BLANK_POWERDOWN : FB_BLANK_UNBLANK);
}
int swell_fb_wait_for_vsync(int fd) {
    __u32 crtc = 0;
    return ioctl(fd, FBIO_WAITFORVSYNC, &crtc);
}

static void on_alarm(int number) { (void)number; }

int swell_fb_wait_for_vsync_timeout(int fd, int timeout_ms) {
    static int alarm_installed = 0;
    if (!alarm_installed) {
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_handler = on_alarm;  // no SA_RESTART: the ioctl returns EINTR
        sigemptyset(&action.sa_mask);
        if (sigaction(SIGALRM, &action, NULL) != 0) return -1;
        alarm_installed = 1;
    }
    struct itimerval timer;
    memset(&timer, 0, sizeof timer);
    timer.it_value.tv_sec = timeout_ms / 1000;
    timer.it_value.tv_usec = (timeout_ms % 1000) * 1000;
    setitimer(ITIMER_REAL, &timer, NULL);
    __u32 crtc = 0;
    int result = ioctl(fd, FBIO_WAITFORVSYNC, &crtc);
    int saved = errno;
    memset(&timer, 0, sizeof timer);
    setitimer(ITIMER_REAL, &timer, NULL);
    errno = saved;
    return result;
}

int swell_kd_get_mode(int fd, int *mode) {
    // KDGETMODE writes an int-sized value on Linux.
    return ioctl(fd, KDGETMODE, mode);
}
int swell_kd_set_mode(int fd, int mode) { return ioctl(fd, KDSETMODE, (unsigned long)mode); }

int swell_evdev_get_bits(int fd, unsigned type, void *bits, unsigned length) {
    return ioctl(fd, EVIOCGBIT(type, length), bits) < 0 ? -1 : 0;
}
int swell_evdev_get_props(int fd, void *bits, unsigned length) {
    return ioctl(fd, EVIOCGPROP(length), bits) < 0 ? -1 : 0;
}
int swell_evdev_get_abs(int fd, unsigned axis, struct input_absinfo *info) {
    return ioctl(fd, EVIOCGABS(axis), info) < 0 ? -1 : 0;
}
int swell_evdev_get_name(int fd, char *name, unsigned length) {
    if (length == 0) { errno = EINVAL; return -1; }
    int n = ioctl(fd, EVIOCGNAME(length), name);
    if (n < 0) return -1;
    name[length - 1] = 0;
    return 0;
}
int swell_evdev_get_mt_slots(int fd, int32_t *values, unsigned count) {
    return ioctl(fd, EVIOCGMTSLOTS(count * sizeof(int32_t)), values) < 0 ? -1 : 0;
}
size_t swell_input_event_size(void) { return sizeof(struct input_event); }

// MARK: signals

static int signal_pipe[2] = {-1, -1};
static volatile sig_atomic_t last_signal = 0;

static void on_stop_signal(int number) {
    int saved = errno;
    last_signal = number;
    unsigned char byte = (unsigned char)number;
    if (signal_pipe[1] >= 0) (void)!write(signal_pipe[1], &byte, 1);
    errno = saved;
}

int swell_signals_install(void) {
    if (signal_pipe[0] < 0) {
        if (pipe2(signal_pipe, O_NONBLOCK | O_CLOEXEC) != 0) return -1;
    }
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_stop_signal;
    sigemptyset(&action.sa_mask);
    // No SA_RESTART: a blocking poll/read returns EINTR and the loop looks at the flag at once.
    if (sigaction(SIGINT, &action, NULL) != 0 || sigaction(SIGTERM, &action, NULL) != 0 ||
        sigaction(SIGHUP, &action, NULL) != 0)
        return -1;
    signal(SIGPIPE, SIG_IGN);
    // A signal mask is inherited through exec: a parent that blocks SIGTERM in the thread that
    // starts us (a test runner, some supervisors) would leave the kiosk deaf to it.
    sigset_t stops;
    sigemptyset(&stops);
    sigaddset(&stops, SIGINT);
    sigaddset(&stops, SIGTERM);
    sigaddset(&stops, SIGHUP);
    if (pthread_sigmask(SIG_UNBLOCK, &stops, NULL) != 0) return -1;
    return signal_pipe[0];
}

int swell_signal_received(void) { return last_signal; }

static volatile sig_atomic_t screen_request = 0;

static void on_screen_signal(int number) {
    int saved = errno;
    screen_request = number == SIGUSR1 ? 1 : 2;
    unsigned char byte = (unsigned char)number;
    if (signal_pipe[1] >= 0) (void)!write(signal_pipe[1], &byte, 1);
    errno = saved;
}

int swell_screen_signals_install(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_screen_signal;
    sigemptyset(&action.sa_mask);
    if (sigaction(SIGUSR1, &action, NULL) != 0 || sigaction(SIGUSR2, &action, NULL) != 0) return -1;
    sigset_t requests;  // unblocked, as the stop signals are
    sigemptyset(&requests);
    sigaddset(&requests, SIGUSR1);
    sigaddset(&requests, SIGUSR2);
    return pthread_sigmask(SIG_UNBLOCK, &requests, NULL) != 0 ? -1 : 0;
}

int swell_take_screen_request(void) {
    int request = screen_request;
    screen_request = 0;
    return request;
}

void swell_drain_signal_pipe(void) {
    unsigned char bytes[64];
    if (signal_pipe[0] < 0) return;
    while (read(signal_pipe[0], bytes, sizeof bytes) > 0) {
    }
}

// MARK: crash restore

// The kernel's struct drm_mode_crtc and its ioctl number, spelled out so this file needs no
// libdrm headers (the layout is kernel ABI and never changes).
struct swell_drm_mode_crtc {
    uint64_t set_connectors_ptr;
    uint32_t count_connectors;
    uint32_t crtc_id;
    uint32_t fb_id;
    uint32_t x, y;
    uint32_t gamma_size;
    uint32_t mode_valid;
    unsigned char mode[68];
};
_Static_assert(sizeof(struct swell_drm_mode_crtc) == 104, "struct drm_mode_crtc is 104 bytes");
#define SWELL_DRM_IOCTL_MODE_SETCRTC _IOWR('d', 0xA2, struct swell_drm_mode_crtc)

// One slot per CRTC a presenter drives (several outputs: several CRTCs), each armed and
// disarmed by its own presenter; a slot's fields are written while it is disarmed.
struct crash_crtc_slot {
    volatile sig_atomic_t armed;
    int fd;
    struct swell_drm_mode_crtc crtc;
    uint32_t connector;
};
static struct crash_crtc_slot crash_crtcs[SWELL_CRASH_CRTCS];
static volatile sig_atomic_t crash_console_armed = 0;
static int crash_console_fd = -1;
static int crash_console_mode = SWELL_KD_TEXT;

int swell_crash_restore_crtc(int fd, uint32_t crtc_id, uint32_t fb_id, uint32_t x, uint32_t y,
                             uint32_t connector_id, const void *mode, int mode_valid) {
    struct crash_crtc_slot *slot = NULL;
    for (int i = 0; i < SWELL_CRASH_CRTCS && !slot; i++)
        if (crash_crtcs[i].armed && crash_crtcs[i].crtc.crtc_id == crtc_id) slot = &crash_crtcs[i];
    for (int i = 0; i < SWELL_CRASH_CRTCS && !slot; i++)
        if (!crash_crtcs[i].armed) slot = &crash_crtcs[i];
    if (!slot) return -1;
    slot->armed = 0;
    memset(&slot->crtc, 0, sizeof slot->crtc);
    slot->fd = fd;
    slot->connector = connector_id;
    slot->crtc.crtc_id = crtc_id;
    slot->crtc.fb_id = fb_id;
    slot->crtc.x = x;
    slot->crtc.y = y;
    slot->crtc.mode_valid = mode_valid ? 1 : 0;
    if (mode) memcpy(slot->crtc.mode, mode, sizeof slot->crtc.mode);
    if (mode_valid && fb_id) {
        slot->crtc.set_connectors_ptr = (uint64_t)(uintptr_t)&slot->connector;
        slot->crtc.count_connectors = 1;
    }
    slot->armed = 1;
    return 0;
}

void swell_crash_restore_crtc_forget(uint32_t crtc_id) {
    for (int i = 0; i < SWELL_CRASH_CRTCS; i++)
        if (crash_crtcs[i].crtc.crtc_id == crtc_id) crash_crtcs[i].armed = 0;
}

int swell_crash_restore_armed_crtcs(void) {
    int count = 0;
    for (int i = 0; i < SWELL_CRASH_CRTCS; i++) count += crash_crtcs[i].armed ? 1 : 0;
    return count;
}

void swell_crash_restore_console(int fd, int kd_mode) {
    crash_console_fd = fd;
    crash_console_mode = kd_mode;
    crash_console_armed = 1;
}

void swell_crash_restore_console_forget(void) { crash_console_armed = 0; }

void swell_crash_restore_forget(void) {
    for (int i = 0; i < SWELL_CRASH_CRTCS; i++) crash_crtcs[i].armed = 0;
    crash_console_armed = 0;
}

static void on_fatal_signal(int number) {
    for (int i = 0; i < SWELL_CRASH_CRTCS; i++) {
        if (!crash_crtcs[i].armed) continue;
        crash_crtcs[i].armed = 0;
        (void)ioctl(crash_crtcs[i].fd, SWELL_DRM_IOCTL_MODE_SETCRTC, &crash_crtcs[i].crtc);
    }
    if (crash_console_armed) {
        crash_console_armed = 0;
        (void)ioctl(crash_console_fd, KDSETMODE, (unsigned long)crash_console_mode);
    }
    // SA_RESETHAND put the default action back; raising again ends the process as it would have.
    raise(number);
}

int swell_crash_restore_install(void) {
    static const int fatal[] = {SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE};
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_fatal_signal;
    action.sa_flags = SA_RESETHAND | SA_NODEFER;
    sigemptyset(&action.sa_mask);
    for (size_t i = 0; i < sizeof fatal / sizeof fatal[0]; i++)
        if (sigaction(fatal[i], &action, NULL) != 0) return -1;
    return 0;
}

int swell_fix_mmap_threshold(int bytes) { return mallopt(M_MMAP_THRESHOLD, bytes) == 1 ? 0 : -1; }

#include <sys/socket.h>
#include <linux/netlink.h>

int swell_uevent_socket(void) {
    int fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, NETLINK_KOBJECT_UEVENT);
    if (fd < 0) return -1;
    struct sockaddr_nl address;
    memset(&address, 0, sizeof address);
    address.nl_family = AF_NETLINK;
    address.nl_groups = 1;  // the kernel's own uevents (udev re-broadcasts on group 2)
    if (bind(fd, (struct sockaddr *)&address, sizeof address) != 0) {
        int error = errno;
        close(fd);
        errno = error;
        return -1;
    }
    return fd;
}

#include <sys/un.h>

int swell_notify_socket(void) { return socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0); }

int swell_notify_send(int fd, const char *path, const void *message, size_t length) {
    struct sockaddr_un address;
    memset(&address, 0, sizeof address);
    address.sun_family = AF_UNIX;
    size_t size = strlen(path);
    if (size == 0 || (path[0] != '/' && path[0] != '@')) {
        errno = EINVAL;  // "vsock:" and other forms systemd may offer are not spoken here
        return -1;
    }
    if (size > sizeof address.sun_path - (path[0] == '/' ? 1 : 0)) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(address.sun_path, path, size);
    if (path[0] == '@') address.sun_path[0] = 0;  // abstract: a leading NUL, no terminator
    socklen_t address_length = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + size + (path[0] == '/' ? 1 : 0));
    // A fresh sendto each time, as sd_notify does: the receiver may have been bound again since
    // (systemd's daemon-reexec), which a connected socket would not follow.
    ssize_t sent = sendto(fd, message, length, MSG_NOSIGNAL, (struct sockaddr *)&address, address_length);
    if (sent < 0) return -1;
    return 0;
}

int swell_realtime_timer(void) { return timerfd_create(CLOCK_REALTIME, TFD_NONBLOCK | TFD_CLOEXEC); }

int swell_realtime_timer_arm_cancel_on_set(int fd, long seconds) {
    struct itimerspec spec = {.it_value = {.tv_sec = seconds}};
    return timerfd_settime(fd, TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET, &spec, NULL);
}

int swell_pin_thread_to_allowed(int index) {
    cpu_set_t allowed;
    CPU_ZERO(&allowed);
    if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) return -1;
    int count = CPU_COUNT(&allowed);
    if (count < 2) {
        errno = 0;
        return -1;
    }
    int wanted = ((index % count) + count) % count;
    for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
        if (!CPU_ISSET(cpu, &allowed)) continue;
        if (wanted-- > 0) continue;
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(cpu, &one);
        return sched_setaffinity(0, sizeof one, &one) == 0 ? cpu : -1;
    }
    return -1;
}

int swell_keep_off_helpers(int helpers, uint64_t *saved) {
    cpu_set_t current;
    CPU_ZERO(&current);
    if (sched_getaffinity(0, sizeof current, &current) != 0) return -1;
    memcpy(saved, &current, sizeof current);
    if (helpers + 1 > CPU_COUNT(&current)) return 0;
    cpu_set_t keep = current;
    int index = 0;
    for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
        if (!CPU_ISSET(cpu, &current)) continue;
        if (index >= 1 && index <= helpers) CPU_CLR(cpu, &keep);
        index++;
    }
    return sched_setaffinity(0, sizeof keep, &keep) == 0 ? 1 : -1;
}

int swell_restore_affinity(const uint64_t *saved) {
    cpu_set_t mask;
    memcpy(&mask, saved, sizeof mask);
    return sched_setaffinity(0, sizeof mask, &mask);
}
